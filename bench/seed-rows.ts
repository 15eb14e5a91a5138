import { v7 as uuidv7 } from 'uuid';

/**
 * Rows exactly like the ones POST /api/projects writes (docs/api.md):
 * UUIDv7 ids made in the app's order (project, its 8 sections, its 3
 * agents), every row of a project stamped with the same instant, sections
 * PENDING at positions 0..7 in the order below, agents IDLE in creation
 * order.
 * The run checks the result against a project created through the API.
 */

export const SECTION_TYPES = [
  'LOGO',
  'ICONS',
  'GRAPHICS',
  'MARKETING',
  'WIREFRAME',
  'CODE',
  'TESTING',
  'DEPLOYMENT',
] as const;

export const DEFAULT_AGENTS = [
  { name: 'Code Master', type: 'CODE', provider: 'CODE_PROVIDER' },
  { name: 'Content Writer', type: 'MARKETING', provider: 'TEXT_PROVIDER' },
  { name: 'Designer', type: 'DESIGN', provider: 'IMAGE_PROVIDER' },
] as const;

export interface ProjectRow {
  id: string;
  name: string;
  description: string | null;
  userId: string;
  at: Date;
}
export interface SectionRow {
  id: string;
  projectId: string;
  type: string;
  position: number;
  at: Date;
}
export interface AgentRow {
  id: string;
  projectId: string;
  name: string;
  type: string;
  provider: string;
  at: Date;
}

export interface Batch {
  projects: ProjectRow[];
  sections: SectionRow[];
  agents: AgentRow[];
}

/** The userId of seeded user n; users own projects n, n+users, n+2*users... */
export const seededUserId = (n: number): string =>
  `bench-user-${String(n).padStart(5, '0')}`;

/**
 * Yields the data set in batches of `batchSize` projects. Project i belongs
 * to user i % users, so every user gets projects/users of them, spread over
 * the whole seeding time like real traffic.
 */
export function* projectBatches(
  total: number,
  users: number,
  batchSize: number,
): Generator<Batch> {
  for (let start = 0; start < total; start += batchSize) {
    const batch: Batch = { projects: [], sections: [], agents: [] };
    for (let i = start; i < Math.min(total, start + batchSize); i += 1) {
      const at = new Date();
      const id = uuidv7();
      batch.projects.push({
        id,
        name: `Seeded project ${i}`,
        // Half with a description, half without (null), as clients send.
        description: i % 2 === 0 ? `Seeded description of project ${i}` : null,
        userId: seededUserId(i % users),
        at,
      });
      SECTION_TYPES.forEach((type, position) =>
        batch.sections.push({
          id: uuidv7(),
          projectId: id,
          type,
          position,
          at,
        }),
      );
      for (const agent of DEFAULT_AGENTS) {
        batch.agents.push({ id: uuidv7(), projectId: id, ...agent, at });
      }
    }
    yield batch;
  }
}

/** How TypeORM stores a Date in a SQLite datetime column: UTC, milliseconds. */
export const sqliteTimestamp = (at: Date): string =>
  at.toISOString().replace('T', ' ').slice(0, 23);

export const SQLITE_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/;
