/**
 * Every operation of the OpenAPI document, as a frontend calls it through
 * a generated client: one implementation per generator (openapi-fetch.ts,
 * hey-api.ts, orval.ts) next to this file. They compile under `strict`
 * against clients generated from the served document, which is how the
 * document is checked to tell generators the truth; a page on another
 * origin runs the workspace flow through each of them in Chromium.
 *
 * Method names are the document's operationIds: a test fails when an
 * operation has no method here.
 */

/** A status, the parsed body (JSON, or null) and the headers. */
export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** A binary answer: the bytes as a Blob and the file name it was sent as. */
export interface FileAnswer {
  status: number;
  blob: Blob | null;
  fileName: string | null;
}

export interface LogoRequest {
  companyName: string;
  style:
    | 'modern'
    | 'minimalist'
    | 'vintage'
    | 'playful'
    | 'professional'
    | 'abstract'
    | 'geometric'
    | 'organic';
  colors: string[];
  description?: string;
  industry?: string;
  mood?: string[];
}

export type TaskRequest =
  | { type: 'logo'; input: LogoRequest & { count?: number } }
  | {
      type: 'marketing-copy';
      input?: { tone?: string; audience?: string; language?: string };
    }
  | { type: 'landing-page'; input?: { fixReportId?: string } }
  | {
      type: 'logo-edit';
      input: { assetId: string; instructions: string; count?: number };
    }
  | { type: 'brand-kit'; input?: Record<string, never> }
  | { type: 'wireframe'; input?: { pages?: string[]; notes?: string } }
  | {
      type: 'icon-set';
      input: { names: string[]; style?: 'outline' | 'solid' | 'duotone' };
    }
  | {
      type: 'graphics';
      input?: {
        formats?: Array<
          'og' | 'x' | 'linkedin' | 'instagram' | 'story' | 'hero'
        >;
        headline?: string;
      };
    }
  | { type: 'site-check'; input?: { assetId?: string } };

export interface ListQuery {
  userId?: string;
  limit?: number;
  cursor?: string;
  q?: string;
  sort?: 'createdAt' | 'updatedAt' | 'name';
  order?: 'asc' | 'desc';
  view?: 'full' | 'summary';
  includeTotal?: 'true' | 'false';
}

export interface WorkspaceCalls {
  createProject(body: {
    name: string;
    description?: string;
    userId?: string;
  }): Promise<Answer>;
  listProjects(query: ListQuery): Promise<Answer>;
  getProject(id: string, ifNoneMatch?: string): Promise<Answer>;
  updateProject(
    id: string,
    body: { name?: string; description?: string },
    ifMatch?: string,
  ): Promise<Answer>;
  deleteProject(id: string): Promise<Answer>;
  generateLogo(body: LogoRequest & { projectId: string }): Promise<Answer>;
  getLogoGeneratorInfo(): Promise<Answer>;
  getHostedLogo(file: string): Promise<FileAnswer>;
  listImageModels(): Promise<Answer>;
  getUsage(): Promise<Answer>;
  getMe(): Promise<Answer>;
  keepLogo(
    id: string,
    body: { logoUrl: string } | LogoRequest,
  ): Promise<Answer>;
  getAsset(id: string, assetId: string): Promise<Answer>;
  deleteAsset(id: string, assetId: string): Promise<Answer>;
  getAssetContent(id: string, assetId: string): Promise<FileAnswer>;
  selectSectionAsset(
    id: string,
    sectionId: string,
    assetId: string,
  ): Promise<Answer>;
  unselectSectionAsset(id: string, sectionId: string): Promise<Answer>;
  getBrandKitZip(id: string): Promise<FileAnswer>;
  createTask(id: string, body: TaskRequest): Promise<Answer>;
  listTasks(id: string): Promise<Answer>;
  getTask(id: string, taskId: string): Promise<Answer>;
  cancelTask(id: string, taskId: string): Promise<Answer>;
  createRun(id: string, body: { autoChoose?: boolean }): Promise<Answer>;
  listRuns(id: string): Promise<Answer>;
  getRun(id: string, runId: string): Promise<Answer>;
  cancelRun(id: string, runId: string): Promise<Answer>;
  getSite(id: string): Promise<Answer>;
  rollbackSite(id: string, version: number): Promise<Answer>;
  deleteSite(id: string): Promise<Answer>;
  createStreamTicket(projectId?: string): Promise<Answer>;
  /** Opens the stream and closes it once its headers came: the status. */
  watchProjects(): Promise<number>;
  watchProject(id: string): Promise<number>;
}

/** The file name of a `Content-Disposition: attachment; filename="…"`. */
export function fileNameOf(headers: Headers): string | null {
  const disposition = headers.get('Content-Disposition') ?? '';
  return /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
}
