import Database from 'better-sqlite3';
import { type Batch, projectBatches, sqliteTimestamp } from './seed-rows';

/**
 * Fills a migrated SQLite file straight through better-sqlite3: prepared
 * statements in large transactions, about 100x faster than the API.
 * The service must not be running on the file meanwhile.
 */
export function seedSqlite(
  file: string,
  data: { projects: number; users: number },
): string[] {
  const db = new Database(file);
  try {
    // Durability is irrelevant while seeding a throwaway file.
    db.pragma('synchronous = OFF');
    const insertProject = db.prepare(
      'INSERT INTO projects (id, name, description, userId, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const insertSection = db.prepare(
      'INSERT INTO sections (id, projectId, type, status, position, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertAgent = db.prepare(
      'INSERT INTO agents (id, projectId, name, type, provider, status, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const ids: string[] = [];
    const insertBatch = db.transaction((batch: Batch) => {
      for (const p of batch.projects) {
        const at = sqliteTimestamp(p.at);
        insertProject.run(p.id, p.name, p.description, p.userId, at, at);
        ids.push(p.id);
      }
      for (const s of batch.sections) {
        const at = sqliteTimestamp(s.at);
        insertSection.run(
          s.id,
          s.projectId,
          s.type,
          'PENDING',
          s.position,
          at,
          at,
        );
      }
      for (const a of batch.agents) {
        const at = sqliteTimestamp(a.at);
        insertAgent.run(
          a.id,
          a.projectId,
          a.name,
          a.type,
          a.provider,
          'IDLE',
          at,
          at,
        );
      }
    });
    for (const batch of projectBatches(data.projects, data.users, 5_000)) {
      insertBatch(batch);
    }
    // Leave one self-contained file: the service starts on a clean WAL.
    db.pragma('wal_checkpoint(TRUNCATE)');
    return ids;
  } finally {
    db.close();
  }
}
