import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';

/**
 * What GET by id would cost if each project's answer were kept whole, one
 * row per project, instead of read from its rows (project, sections,
 * agents, tasks, assets) on every request: a SQLite file of `answers`, one
 * row per project of the seeded file, each the real answer of the sample
 * project with that project's id put in (the same bytes per row as the
 * service sends). The minimal NestJS app serves it as a reference.
 */
export const STORED_ANSWER_READ = 'SELECT body FROM answers WHERE id = ?';

/** Writes `outFile`; returns the number of rows. */
export function writeStoredAnswers(options: {
  sqliteFile: string;
  bodyFile: string;
  sampleId: string;
  outFile: string;
}): number {
  const template = readFileSync(options.bodyFile, 'utf8').split(
    options.sampleId,
  );
  const source = new Database(options.sqliteFile, { readonly: true });
  const target = new Database(options.outFile);
  try {
    target.pragma('journal_mode = WAL');
    target.pragma('synchronous = OFF');
    // Keyed as the projects table is: a text id with its own index.
    target.exec(
      'CREATE TABLE answers (id TEXT PRIMARY KEY NOT NULL, body TEXT NOT NULL)',
    );
    const insert = target.prepare(
      'INSERT INTO answers (id, body) VALUES (?, ?)',
    );
    let rows = 0;
    target.transaction(() => {
      const ids = source.prepare('SELECT id FROM projects').pluck();
      for (const id of ids.iterate() as IterableIterator<string>) {
        insert.run(id, template.join(id));
        rows += 1;
      }
    })();
    target.pragma('wal_checkpoint(TRUNCATE)');
    return rows;
  } finally {
    source.close();
    target.close();
  }
}
