import Database from 'better-sqlite3';
import { SQLITE_TIMESTAMP } from './seed-rows';

/**
 * Proves the seeded data is indistinguishable from the app's own: a seeded
 * project and one created through POST /api/projects must come back from
 * GET /api/projects/{id} with the same shape, and (on SQLite) be stored with
 * the same timestamp format. A benchmark over rows the app would never
 * write would measure the wrong thing.
 */

const UUID_V7 =
  /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Values that are the same for every project, compared as they are. */
const FIXED_KEYS = new Set(['type', 'status', 'provider']);

function shape(value: unknown, key = '', parentKey = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => shape(item, '', key));
  if (value === null) return 'null';
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(
      ([a], [b]) => a.localeCompare(b),
    );
    return Object.fromEntries(entries.map(([k, v]) => [k, shape(v, k, key)]));
  }
  if (typeof value !== 'string') return typeof value;
  if (UUID_V7.test(value)) return 'uuidv7';
  if (ISO_MS.test(value)) return 'iso-ms';
  if (FIXED_KEYS.has(key) || (parentKey === 'agents' && key === 'name')) {
    return value;
  }
  return 'string';
}

async function json(url: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  const body: unknown = await response.json();
  if (!response.ok) {
    throw new Error(
      `${init?.method ?? 'GET'} ${url}: ${response.status} ${JSON.stringify(body)}`,
    );
  }
  return body;
}

type ProjectBody = { project: Record<string, unknown> };

export async function checkSeededShape(options: {
  baseUrl: string;
  seededId: string;
  seededUser: string;
  projectsPerUser: number;
  sqliteFile?: string;
}): Promise<void> {
  const { baseUrl, seededId } = options;
  const seeded = (await json(
    `${baseUrl}/api/projects/${seededId}`,
  )) as ProjectBody;
  const { project: posted } = (await json(`${baseUrl}/api/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Shape check', userId: 'bench-shape-check' }),
  })) as ProjectBody;
  const createdId = String(posted.id);
  try {
    const created = (await json(
      `${baseUrl}/api/projects/${createdId}`,
    )) as ProjectBody;
    // The seeded half without a description matches one created without it.
    const withoutDescription = { ...seeded.project, description: null };
    const [a, b] = [shape(withoutDescription), shape(created.project)];
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      throw new Error(
        `seeded project differs from an API-created one:\nseeded:  ${JSON.stringify(a)}\ncreated: ${JSON.stringify(b)}`,
      );
    }
    if (options.sqliteFile)
      checkStoredTimestamps(options.sqliteFile, seededId, createdId);
  } finally {
    await fetch(`${baseUrl}/api/projects/${createdId}`, { method: 'DELETE' });
  }
  const list = (await json(
    `${baseUrl}/api/projects?userId=${encodeURIComponent(options.seededUser)}`,
  )) as { projects: unknown[] };
  if (list.projects.length !== options.projectsPerUser) {
    throw new Error(
      `${options.seededUser} has ${list.projects.length} projects, expected ${options.projectsPerUser}`,
    );
  }
}

/** Both rows' timestamps as TypeORM writes them: UTC text with milliseconds. */
function checkStoredTimestamps(
  file: string,
  seededId: string,
  createdId: string,
): void {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `SELECT id, typeof(createdAt) AS kind, createdAt, updatedAt FROM projects WHERE id IN (?, ?)
         UNION ALL SELECT projectId, typeof(createdAt), createdAt, updatedAt FROM sections WHERE projectId IN (?, ?)
         UNION ALL SELECT projectId, typeof(createdAt), createdAt, updatedAt FROM agents WHERE projectId IN (?, ?)`,
      )
      .all(
        seededId,
        createdId,
        seededId,
        createdId,
        seededId,
        createdId,
      ) as Array<{
      id: string;
      kind: string;
      createdAt: string;
      updatedAt: string;
    }>;
    if (rows.length !== 24)
      throw new Error(`expected 24 stored rows, found ${rows.length}`);
    for (const row of rows) {
      if (
        row.kind !== 'text' ||
        !SQLITE_TIMESTAMP.test(row.createdAt) ||
        !SQLITE_TIMESTAMP.test(row.updatedAt)
      ) {
        throw new Error(`unexpected stored timestamp: ${JSON.stringify(row)}`);
      }
    }
  } finally {
    db.close();
  }
}
