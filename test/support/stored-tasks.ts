import Database from 'better-sqlite3';
import { Client } from 'pg';
import { TEST_DATABASE, type TestDatabase } from './test-database';

/** One tasks row as the database holds it. */
export interface StoredTask {
  id: string;
  projectId: string;
  status: string;
  attempts: number;
  /** Parsed from its JSON column. */
  input: { count?: number; names?: string[]; formats?: string[] };
  assetIds: string[];
  error: { code: string; message: string } | null;
}

/** What the task checks read straight from the database (no service). */
export interface StoredTaskState {
  tasks: StoredTask[];
  /** Sections per status, e.g. { PENDING: 12, REVIEW: 3 }. */
  sections: Record<string, number>;
  /** Agents per status, e.g. { IDLE: 9 }. */
  agents: Record<string, number>;
}

const TASKS_SQL = `SELECT "id", "projectId", "status", "attempts", "input", "assetIds", "error" FROM "tasks"`;
const SECTIONS_SQL = `SELECT "status", COUNT(*) AS "n" FROM "sections" GROUP BY "status"`;
const AGENTS_SQL = `SELECT "status", COUNT(*) AS "n" FROM "agents" GROUP BY "status"`;

interface TaskSqlRow {
  id: string;
  projectId: string;
  status: string;
  attempts: number | string;
  input: string;
  assetIds: string;
  error: string | null;
}

const toTask = (row: TaskSqlRow): StoredTask => ({
  id: row.id,
  projectId: row.projectId,
  status: row.status,
  attempts: Number(row.attempts),
  input: JSON.parse(row.input) as { count?: number; names?: string[] },
  assetIds: JSON.parse(row.assetIds) as string[],
  error: row.error
    ? (JSON.parse(row.error) as { code: string; message: string })
    : null,
});

const toCounts = (
  rows: Array<{ status: string; n: number | string }>,
): Record<string, number> =>
  Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));

/**
 * Reads every task and the sections' and agents' statuses from the
 * database a server uses (running, stopped or killed: SQLite's WAL lets a
 * reader in beside the server's writer).
 */
export async function readStoredTasks(
  database: TestDatabase,
): Promise<StoredTaskState> {
  if (TEST_DATABASE === 'sqlite') {
    const db = new Database(database.url.slice('file:'.length));
    try {
      db.pragma('busy_timeout = 5000');
      return {
        tasks: (db.prepare(TASKS_SQL).all() as TaskSqlRow[]).map(toTask),
        sections: toCounts(
          db.prepare(SECTIONS_SQL).all() as Array<{
            status: string;
            n: number;
          }>,
        ),
        agents: toCounts(
          db.prepare(AGENTS_SQL).all() as Array<{ status: string; n: number }>,
        ),
      };
    } finally {
      db.close();
    }
  }
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    return {
      tasks: (await client.query<TaskSqlRow>(TASKS_SQL)).rows.map(toTask),
      sections: toCounts(
        (await client.query<{ status: string; n: string }>(SECTIONS_SQL)).rows,
      ),
      agents: toCounts(
        (await client.query<{ status: string; n: string }>(AGENTS_SQL)).rows,
      ),
    };
  } finally {
    await client.end();
  }
}

/** Tasks a worker still owes: waiting or in hand. */
export const unfinished = (tasks: StoredTask[]): StoredTask[] =>
  tasks.filter((task) => task.status === 'QUEUED' || task.status === 'RUNNING');
