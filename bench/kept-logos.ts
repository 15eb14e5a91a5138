/**
 * The projects the asset scenarios use on a service, made through its API
 * so they are the service's own: keeper projects for `keep-logo` (never
 * drawn by get by id, whose seeded projects stay without assets), and one
 * project holding the 1.5 MB logo `asset-content` reads.
 */

/** Keep-logo spreads over this many projects, far from any asset limit. */
export const KEEPER_PROJECTS = 20;
/** The owner of the bench's asset projects (not a seeded user). */
const OWNER = 'bench-asset-keeper';

export interface AssetTargets {
  /** Projects keep-logo adds logos to, one drawn at random per request. */
  keeperIds: string[];
  /** Path and query of the kept 1.5 MB logo's url. */
  contentPath: string;
  /** Its size in bytes, as the service stored it. */
  contentBytes: number;
}

async function send(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`${method} ${path}: ${response.status} ${text}`);
  }
  return JSON.parse(text) as unknown;
}

async function createProject(baseUrl: string, name: string): Promise<string> {
  const { project } = (await send(baseUrl, 'POST', '/api/projects', {
    name,
    userId: OWNER,
  })) as { project: { id: string } };
  return project.id;
}

/** The logo request of keep-logo (the path names the project). */
export const KEEP_LOGO_REQUEST = {
  companyName: 'Acme Parcel',
  style: 'modern',
  colors: ['#0044ff', 'white'],
  industry: 'logistics',
  mood: ['bold', 'friendly'],
  description: 'Fast parcel delivery for small shops',
};

export async function prepareAssetTargets(
  baseUrl: string,
): Promise<AssetTargets> {
  const keeperIds: string[] = [];
  for (let i = 0; i < KEEPER_PROJECTS; i += 1) {
    keeperIds.push(await createProject(baseUrl, `Bench logo keeper ${i}`));
  }
  const holder = await createProject(baseUrl, 'Bench logo holder');
  const { asset } = (await send(
    baseUrl,
    'POST',
    `/api/projects/${holder}/logos`,
    KEEP_LOGO_REQUEST,
  )) as { asset: { url: string; byteSize: number } };
  const url = new URL(asset.url);
  return {
    keeperIds,
    contentPath: `${url.pathname}${url.search}`,
    contentBytes: asset.byteSize,
  };
}

/**
 * Deletes every logo keep-logo added, between windows: the database stays
 * at its size (each window keeps hundreds of megabytes) and no project
 * nears the asset limit.
 */
export async function forgetKeptLogos(
  baseUrl: string,
  keeperIds: string[],
): Promise<number> {
  let deleted = 0;
  for (const projectId of keeperIds) {
    const { project } = (await send(
      baseUrl,
      'GET',
      `/api/projects/${projectId}`,
    )) as { project: { assets: Array<{ id: string }> } };
    for (const asset of project.assets) {
      await send(
        baseUrl,
        'DELETE',
        `/api/projects/${projectId}/assets/${asset.id}`,
      );
      deleted += 1;
    }
  }
  return deleted;
}
