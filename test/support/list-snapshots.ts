import Sqlite from 'better-sqlite3';
import { Client } from 'pg';

/**
 * How many streamed lists still hold a snapshot of the database at `url`,
 * seen from outside the service.
 * PostgreSQL: the list pool's sessions that are inside a transaction.
 * SQLite (1 or 0): whether some reader holds a snapshot older than a write
 * made now — a WAL checkpoint cannot then truncate the log, which SQLite
 * reports as busy. It writes the same user_version back to make that write.
 */
export async function heldListSnapshots(databaseUrl: string): Promise<number> {
  if (databaseUrl.startsWith('file:')) {
    // timeout 0: report a reader at once instead of waiting for it.
    const db = new Sqlite(databaseUrl.slice('file:'.length), { timeout: 0 });
    try {
      const version = db.pragma('user_version', { simple: true }) as number;
      db.pragma(`user_version = ${version}`);
      const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{
        busy: number;
      }>;
      return result.busy;
    } finally {
      db.close();
    }
  }
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ open: number }>(
      `SELECT count(*)::int AS "open" FROM pg_stat_activity
       WHERE datname = current_database()
         AND application_name = 'workspace-api:list'
         AND xact_start IS NOT NULL`,
    );
    return rows[0].open;
  } finally {
    await client.end();
  }
}

/** Polls until no streamed list holds a snapshot, or `timeoutMs` passed. */
export async function waitForNoListSnapshots(
  databaseUrl: string,
  timeoutMs = 2000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const held = await heldListSnapshots(databaseUrl);
    if (held === 0 || Date.now() > deadline) return held;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Ends the PostgreSQL sessions of the list pool (a real mid-stream fault). */
export async function terminateListSessions(
  databaseUrl: string,
): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS "ended" FROM pg_stat_activity
       WHERE datname = current_database()
         AND application_name = 'workspace-api:list'`,
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await client.end();
  }
}
