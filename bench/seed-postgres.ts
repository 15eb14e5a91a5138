import { Client } from 'pg';
import { projectBatches } from './seed-rows';

/**
 * Fills a migrated PostgreSQL database straight through pg: one INSERT ...
 * SELECT FROM unnest(arrays) per table and batch, so 5,000 projects (60,000
 * rows) cost three round trips.
 */
export async function seedPostgres(
  url: string,
  data: { projects: number; users: number },
): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const ids: string[] = [];
  try {
    for (const batch of projectBatches(data.projects, data.users, 5_000)) {
      const { projects: p, sections: s, agents: a } = batch;
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO projects (id, name, description, "userId", "createdAt", "updatedAt")
         SELECT id, name, description, uid, at, at
         FROM unnest($1::varchar[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
           AS t(id, name, description, uid, at)`,
        [
          p.map((r) => r.id),
          p.map((r) => r.name),
          p.map((r) => r.description),
          p.map((r) => r.userId),
          p.map((r) => r.at.toISOString()),
        ],
      );
      await client.query(
        `INSERT INTO sections (id, "projectId", type, status, position, "createdAt", "updatedAt")
         SELECT id, pid, type, 'PENDING', position, at, at
         FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::int[], $5::timestamptz[])
           AS t(id, pid, type, position, at)`,
        [
          s.map((r) => r.id),
          s.map((r) => r.projectId),
          s.map((r) => r.type),
          s.map((r) => r.position),
          s.map((r) => r.at.toISOString()),
        ],
      );
      await client.query(
        `INSERT INTO agents (id, "projectId", name, type, provider, status, "createdAt", "updatedAt")
         SELECT id, pid, name, type, provider, 'IDLE', at, at
         FROM unnest($1::varchar[], $2::varchar[], $3::text[], $4::varchar[], $5::varchar[], $6::timestamptz[])
           AS t(id, pid, name, type, provider, at)`,
        [
          a.map((r) => r.id),
          a.map((r) => r.projectId),
          a.map((r) => r.name),
          a.map((r) => r.type),
          a.map((r) => r.provider),
          a.map((r) => r.at.toISOString()),
        ],
      );
      await client.query('COMMIT');
      for (const row of p) ids.push(row.id);
    }
    // Fresh statistics and visibility map, as autovacuum would leave them
    // shortly after a bulk load: the plans measured are the steady-state ones.
    await client.query('VACUUM ANALYZE projects, sections, agents');
    return ids;
  } finally {
    await client.end();
  }
}
