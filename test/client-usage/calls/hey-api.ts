import { client } from './generated/hey/client.gen';
import * as sdk from './generated/hey/sdk.gen';
import {
  fileNameOf,
  type Answer,
  type FileAnswer,
  type WorkspaceCalls,
} from './workspace-calls';

interface Fields {
  data?: unknown;
  error?: unknown;
  response?: Response;
}

interface StreamOptions {
  signal: AbortSignal;
  fetch: typeof fetch;
  sseMaxRetryAttempts: number;
}

/**
 * An SDK of @hey-api/openapi-ts on its fetch client: one function per
 * operationId; the token through `auth`, sent on operations whose
 * `security` names the bearer scheme.
 */
export function heyApiCalls(
  baseUrl: string,
  token: () => Promise<string | null>,
): WorkspaceCalls {
  client.setConfig({ baseUrl, auth: async () => (await token()) ?? undefined });
  const answer = async (call: Promise<Fields>): Promise<Answer> => {
    const result = await call;
    const response = result.response!;
    return {
      status: response.status,
      body: result.data ?? result.error ?? null,
      headers: response.headers,
    };
  };
  const file = async (call: Promise<Fields>): Promise<FileAnswer> => {
    const result = await call;
    const response = result.response!;
    return {
      status: response.status,
      blob: response.ok ? (result.data as Blob) : null,
      fileName: fileNameOf(response.headers),
    };
  };
  /** hey-api's SSE client: the status of the stream's answer, then closed. */
  const opened = async (
    open: (
      options: StreamOptions,
    ) => Promise<{ stream: AsyncGenerator<unknown> }>,
  ): Promise<number> => {
    const stop = new AbortController();
    let status = 0;
    const { stream } = await open({
      signal: stop.signal,
      sseMaxRetryAttempts: 1,
      fetch: async (input, requestInit) => {
        const response = await fetch(input, requestInit);
        status = response.status;
        return response;
      },
    });
    // The client fetches once its stream is read.
    const first = stream.next().catch(() => undefined);
    while (status === 0) {
      await Promise.race([
        first,
        new Promise((resolve) => setTimeout(resolve, 50)),
      ]);
    }
    stop.abort();
    return status;
  };

  return {
    createProject: (body) =>
      answer(
        sdk.createProject({ body: body as { name: string; userId: string } }),
      ),
    listProjects: (query) => answer(sdk.listProjects({ query })),
    getProject: (id, ifNoneMatch) =>
      answer(
        sdk.getProject({
          path: { id },
          headers: ifNoneMatch ? { 'If-None-Match': ifNoneMatch } : undefined,
        }),
      ),
    updateProject: (id, body, ifMatch) =>
      answer(
        sdk.updateProject({
          path: { id },
          headers: ifMatch ? { 'If-Match': ifMatch } : undefined,
          body,
        }),
      ),
    deleteProject: (id) => answer(sdk.deleteProject({ path: { id } })),
    generateLogo: (body) => answer(sdk.generateLogo({ body })),
    getLogoGeneratorInfo: () => answer(sdk.getLogoGeneratorInfo()),
    getHostedLogo: (name) =>
      file(sdk.getHostedLogo({ path: { file: name }, parseAs: 'blob' })),
    listImageModels: () => answer(sdk.listImageModels()),
    getUsage: () => answer(sdk.getUsage()),
    getMe: () => answer(sdk.getMe()),
    keepLogo: (id, body) => answer(sdk.keepLogo({ path: { id }, body })),
    getAsset: (id, assetId) => answer(sdk.getAsset({ path: { id, assetId } })),
    deleteAsset: (id, assetId) =>
      answer(sdk.deleteAsset({ path: { id, assetId } })),
    getAssetContent: (id, assetId) =>
      file(sdk.getAssetContent({ path: { id, assetId }, parseAs: 'blob' })),
    selectSectionAsset: (id, sectionId, assetId) =>
      answer(
        sdk.selectSectionAsset({ path: { id, sectionId }, body: { assetId } }),
      ),
    unselectSectionAsset: (id, sectionId) =>
      answer(sdk.unselectSectionAsset({ path: { id, sectionId } })),
    getBrandKitZip: (id) =>
      file(sdk.getBrandKitZip({ path: { id }, parseAs: 'blob' })),
    createTask: (id, body) => answer(sdk.createTask({ path: { id }, body })),
    listTasks: (id) => answer(sdk.listTasks({ path: { id } })),
    getTask: (id, taskId) => answer(sdk.getTask({ path: { id, taskId } })),
    cancelTask: (id, taskId) =>
      answer(sdk.cancelTask({ path: { id, taskId } })),
    createRun: (id, body) => answer(sdk.createRun({ path: { id }, body })),
    listRuns: (id) => answer(sdk.listRuns({ path: { id } })),
    getRun: (id, runId) => answer(sdk.getRun({ path: { id, runId } })),
    cancelRun: (id, runId) => answer(sdk.cancelRun({ path: { id, runId } })),
    getSite: (id) => answer(sdk.getSite({ path: { id } })),
    rollbackSite: (id, version) =>
      answer(sdk.rollbackSite({ path: { id }, body: { version } })),
    deleteSite: (id) => answer(sdk.deleteSite({ path: { id } })),
    createStreamTicket: (projectId) =>
      answer(sdk.createStreamTicket({ body: { projectId } })),
    watchProjects: () => opened((options) => sdk.watchProjects(options)),
    watchProject: (id) =>
      opened((options) => sdk.watchProject({ path: { id }, ...options })),
  };
}
