import { seedPostgres } from '../../bench/seed-postgres';
import { seedSqlite } from '../../bench/seed-sqlite';

/**
 * Writes `projects` projects (each with its 8 sections and 3 agents, as the
 * API creates them) straight into a migrated database, with the bench's
 * seeding code: far faster than the API for lists of 100,000.
 */
export async function seedProjects(
  databaseUrl: string,
  projects: number,
  users = 100,
): Promise<string[]> {
  return databaseUrl.startsWith('file:')
    ? seedSqlite(databaseUrl.slice('file:'.length), { projects, users })
    : seedPostgres(databaseUrl, { projects, users });
}
