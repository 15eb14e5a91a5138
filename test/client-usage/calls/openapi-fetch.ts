import createClient from 'openapi-fetch';
import type { paths } from './generated/workspace-api';
import {
  fileNameOf,
  type Answer,
  type FileAnswer,
  type WorkspaceCalls,
} from './workspace-calls';

/** openapi-typescript's types with openapi-fetch: paths and methods typed. */
export function openapiFetchCalls(
  baseUrl: string,
  token: () => Promise<string | null>,
): WorkspaceCalls {
  const client = createClient<paths>({ baseUrl });
  client.use({
    async onRequest({ request }) {
      const current = await token();
      if (current) request.headers.set('Authorization', `Bearer ${current}`);
      return request;
    },
  });
  const answer = (result: {
    data?: unknown;
    error?: unknown;
    response: Response;
  }): Answer => ({
    status: result.response.status,
    body: result.data ?? result.error ?? null,
    headers: result.response.headers,
  });
  const file = (result: {
    data?: unknown;
    response: Response;
  }): FileAnswer => ({
    status: result.response.status,
    blob: result.response.ok ? (result.data as Blob) : null,
    fileName: fileNameOf(result.response.headers),
  });
  const opened = async (
    result: Promise<{ data?: unknown; response: Response }>,
  ): Promise<number> => {
    const { response } = await result;
    await response.body?.cancel();
    return response.status;
  };

  return {
    createProject: async (body) =>
      answer(
        await client.POST('/api/projects', {
          // Without a token the document requires userId; a token fills it in.
          body: body as { name: string; userId: string },
        }),
      ),
    listProjects: async (query) =>
      answer(await client.GET('/api/projects', { params: { query } })),
    getProject: async (id, ifNoneMatch) =>
      answer(
        await client.GET('/api/projects/{id}', {
          params: { path: { id }, header: { 'If-None-Match': ifNoneMatch } },
        }),
      ),
    updateProject: async (id, body, ifMatch) =>
      answer(
        await client.PATCH('/api/projects/{id}', {
          params: { path: { id }, header: { 'If-Match': ifMatch } },
          body,
        }),
      ),
    deleteProject: async (id) =>
      answer(
        await client.DELETE('/api/projects/{id}', { params: { path: { id } } }),
      ),
    generateLogo: async (body) =>
      answer(await client.POST('/api/ai/generate-logo', { body })),
    getLogoGeneratorInfo: async () =>
      answer(await client.GET('/api/ai/generate-logo')),
    getHostedLogo: async (name) =>
      file(
        await client.GET('/api/ai/logos/{file}', {
          params: { path: { file: name } },
          parseAs: 'blob',
        }),
      ),
    listImageModels: async () => answer(await client.GET('/api/ai/models')),
    getUsage: async () => answer(await client.GET('/api/usage')),
    getMe: async () => answer(await client.GET('/api/me')),
    keepLogo: async (id, body) =>
      answer(
        await client.POST('/api/projects/{id}/logos', {
          params: { path: { id } },
          body,
        }),
      ),
    getAsset: async (id, assetId) =>
      answer(
        await client.GET('/api/projects/{id}/assets/{assetId}', {
          params: { path: { id, assetId } },
        }),
      ),
    deleteAsset: async (id, assetId) =>
      answer(
        await client.DELETE('/api/projects/{id}/assets/{assetId}', {
          params: { path: { id, assetId } },
        }),
      ),
    getAssetContent: async (id, assetId) =>
      file(
        await client.GET('/api/projects/{id}/assets/{assetId}/content', {
          params: { path: { id, assetId } },
          parseAs: 'blob',
        }),
      ),
    selectSectionAsset: async (id, sectionId, assetId) =>
      answer(
        await client.PUT('/api/projects/{id}/sections/{sectionId}/selection', {
          params: { path: { id, sectionId } },
          body: { assetId },
        }),
      ),
    unselectSectionAsset: async (id, sectionId) =>
      answer(
        await client.DELETE(
          '/api/projects/{id}/sections/{sectionId}/selection',
          { params: { path: { id, sectionId } } },
        ),
      ),
    getBrandKitZip: async (id) =>
      file(
        await client.GET('/api/projects/{id}/brand-kit.zip', {
          params: { path: { id } },
          parseAs: 'blob',
        }),
      ),
    createTask: async (id, body) =>
      answer(
        await client.POST('/api/projects/{id}/tasks', {
          params: { path: { id } },
          body,
        }),
      ),
    listTasks: async (id) =>
      answer(
        await client.GET('/api/projects/{id}/tasks', {
          params: { path: { id } },
        }),
      ),
    getTask: async (id, taskId) =>
      answer(
        await client.GET('/api/projects/{id}/tasks/{taskId}', {
          params: { path: { id, taskId } },
        }),
      ),
    cancelTask: async (id, taskId) =>
      answer(
        await client.POST('/api/projects/{id}/tasks/{taskId}/cancel', {
          params: { path: { id, taskId } },
        }),
      ),
    createRun: async (id, body) =>
      answer(
        await client.POST('/api/projects/{id}/runs', {
          params: { path: { id } },
          body,
        }),
      ),
    listRuns: async (id) =>
      answer(
        await client.GET('/api/projects/{id}/runs', {
          params: { path: { id } },
        }),
      ),
    getRun: async (id, runId) =>
      answer(
        await client.GET('/api/projects/{id}/runs/{runId}', {
          params: { path: { id, runId } },
        }),
      ),
    cancelRun: async (id, runId) =>
      answer(
        await client.POST('/api/projects/{id}/runs/{runId}/cancel', {
          params: { path: { id, runId } },
        }),
      ),
    getSite: async (id) =>
      answer(
        await client.GET('/api/projects/{id}/site', {
          params: { path: { id } },
        }),
      ),
    rollbackSite: async (id, version) =>
      answer(
        await client.POST('/api/projects/{id}/site/rollback', {
          params: { path: { id } },
          body: { version },
        }),
      ),
    deleteSite: async (id) =>
      answer(
        await client.DELETE('/api/projects/{id}/site', {
          params: { path: { id } },
        }),
      ),
    createStreamTicket: async (projectId) =>
      answer(await client.POST('/api/events/tickets', { body: { projectId } })),
    watchProjects: () =>
      opened(client.GET('/api/events', { parseAs: 'stream' })),
    watchProject: (id) =>
      opened(
        client.GET('/api/projects/{id}/events', {
          params: { path: { id } },
          parseAs: 'stream',
        }),
      ),
  };
}
