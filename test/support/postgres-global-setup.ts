import { Client } from 'pg';
import { postgresAdminUrl } from './test-database';

/**
 * The PostgreSQL pass fails at once, with a clear message, when the server
 * is missing — it is never skipped.
 */
export default async function checkPostgresIsReachable(): Promise<void> {
  const client = new Client({
    connectionString: postgresAdminUrl(),
    connectionTimeoutMillis: 5000,
  });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `PostgreSQL at TEST_POSTGRES_URL is not reachable (${
        error instanceof Error ? error.message : String(error)
      }). Start it (pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or unset TEST_POSTGRES_URL to run the SQLite pass only.`,
      { cause: error },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
