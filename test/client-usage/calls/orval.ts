import * as api from './generated/orval/api';
import {
  fileNameOf,
  type Answer,
  type FileAnswer,
  type WorkspaceCalls,
} from './workspace-calls';

/**
 * orval's fetch client: one function per operationId, the base URL fixed
 * at generation, the token in each call's RequestInit.
 */
export function orvalCalls(
  token: () => Promise<string | null>,
): WorkspaceCalls {
  const init = async (
    headers: Record<string, string> = {},
  ): Promise<RequestInit> => {
    const current = await token();
    return {
      headers: current
        ? { ...headers, Authorization: `Bearer ${current}` }
        : headers,
    };
  };
  const answer = async (
    call: Promise<{ data: unknown; status: number; headers: Headers }>,
  ): Promise<Answer> => {
    const { data, status, headers } = await call;
    return { status, body: data ?? null, headers };
  };
  const file = async (
    call: Promise<{ data: unknown; status: number; headers: Headers }>,
  ): Promise<FileAnswer> => {
    const { data, status, headers } = await call;
    return {
      status,
      blob: status === 200 ? (data as Blob) : null,
      fileName: fileNameOf(headers),
    };
  };
  /**
   * orval's stream functions read the body to its end, which an open
   * stream never reaches: a page opens the stream at the URL orval builds.
   */
  const opened = async (url: string): Promise<number> => {
    const response = await fetch(
      url,
      await init({ Accept: 'text/event-stream' }),
    );
    await response.body?.cancel();
    return response.status;
  };
  const optional = (name: string, value?: string) =>
    value ? { [name]: value } : undefined;

  return {
    createProject: async (body) =>
      answer(
        api.createProject(
          body as { name: string; userId: string },
          await init(),
        ),
      ),
    listProjects: async (query) =>
      answer(api.listProjects(query, await init())),
    getProject: async (id, ifNoneMatch) =>
      answer(
        api.getProject(id, await init(optional('If-None-Match', ifNoneMatch))),
      ),
    updateProject: async (id, body, ifMatch) =>
      answer(
        api.updateProject(id, body, await init(optional('If-Match', ifMatch))),
      ),
    deleteProject: async (id) => answer(api.deleteProject(id, await init())),
    generateLogo: async (body) => answer(api.generateLogo(body, await init())),
    getLogoGeneratorInfo: async () =>
      answer(api.getLogoGeneratorInfo(await init())),
    getHostedLogo: async (name) => file(api.getHostedLogo(name, await init())),
    listImageModels: async () => answer(api.listImageModels(await init())),
    getUsage: async () => answer(api.getUsage(await init())),
    getMe: async () => answer(api.getMe(await init())),
    // The route also takes multipart/form-data: with two request types
    // orval sends no Content-Type of its own, so JSON says what it is.
    keepLogo: async (id, body) =>
      answer(
        api.keepLogo(
          id,
          body,
          await init({ 'Content-Type': 'application/json' }),
        ),
      ),
    getAsset: async (id, assetId) =>
      answer(api.getAsset(id, assetId, await init())),
    deleteAsset: async (id, assetId) =>
      answer(api.deleteAsset(id, assetId, await init())),
    getAssetContent: async (id, assetId) =>
      file(api.getAssetContent(id, assetId, undefined, await init())),
    selectSectionAsset: async (id, sectionId, assetId) =>
      answer(api.selectSectionAsset(id, sectionId, { assetId }, await init())),
    unselectSectionAsset: async (id, sectionId) =>
      answer(api.unselectSectionAsset(id, sectionId, await init())),
    getBrandKitZip: async (id) => file(api.getBrandKitZip(id, await init())),
    createTask: async (id, body) =>
      answer(api.createTask(id, body, await init())),
    listTasks: async (id) => answer(api.listTasks(id, undefined, await init())),
    getTask: async (id, taskId) =>
      answer(api.getTask(id, taskId, await init())),
    cancelTask: async (id, taskId) =>
      answer(api.cancelTask(id, taskId, await init())),
    createRun: async (id, body) =>
      answer(api.createRun(id, body, await init())),
    listRuns: async (id) => answer(api.listRuns(id, undefined, await init())),
    getRun: async (id, runId) => answer(api.getRun(id, runId, await init())),
    cancelRun: async (id, runId) =>
      answer(api.cancelRun(id, runId, await init())),
    getSite: async (id) => answer(api.getSite(id, await init())),
    rollbackSite: async (id, version) =>
      answer(api.rollbackSite(id, { version }, await init())),
    deleteSite: async (id) => answer(api.deleteSite(id, await init())),
    createStreamTicket: async (projectId) =>
      answer(api.createStreamTicket({ projectId }, await init())),
    watchProjects: () => opened(api.getWatchProjectsUrl()),
    watchProject: (id) => opened(api.getWatchProjectUrl(id)),
  };
}
