import Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { v7 as uuidv7 } from 'uuid';
import { DEFAULT_AGENTS, SECTION_TYPES, sqliteTimestamp } from './seed-rows';

/**
 * Reference 2, "the ceiling for creates": what better-sqlite3 alone does
 * with the work of one POST /api/projects — 1 project + 8 sections + 3
 * agents in one transaction, UUIDv7 ids, on the service's schema with the
 * service's settings (WAL, synchronous=NORMAL, foreign keys on).
 *
 * `ref-sqlite-inserts.ts <migratedDbFile> <warmupS> <durationS>`; prints one
 * JSON line with the measured window only.
 */

const [file, warmupS, durationS] = process.argv.slice(2);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');

const insertProject = db.prepare(
  'INSERT INTO projects (id, name, description, userId, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)',
);
const insertSection = db.prepare(
  'INSERT INTO sections (id, projectId, type, status, position, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?)',
);
const insertAgent = db.prepare(
  'INSERT INTO agents (id, projectId, name, type, provider, status, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
);

let n = 0;
const createOne = db.transaction(() => {
  // Ids and the timestamp are made per create, as the service makes them.
  const at = sqliteTimestamp(new Date());
  const id = uuidv7();
  n += 1;
  insertProject.run(id, `Reference ${n}`, null, `ref-user-${n % 5000}`, at, at);
  SECTION_TYPES.forEach((type, position) =>
    insertSection.run(uuidv7(), id, type, 'PENDING', position, at, at),
  );
  for (const agent of DEFAULT_AGENTS) {
    insertAgent.run(
      uuidv7(),
      id,
      agent.name,
      agent.type,
      agent.provider,
      'IDLE',
      at,
      at,
    );
  }
});

function loopFor(seconds: number): { transactions: number; seconds: number } {
  const start = performance.now();
  const end = start + seconds * 1000;
  let transactions = 0;
  while (performance.now() < end) {
    createOne();
    transactions += 1;
  }
  return { transactions, seconds: (performance.now() - start) / 1000 };
}

loopFor(Number(warmupS));
const cpuBefore = process.cpuUsage();
const measured = loopFor(Number(durationS));
const cpu = process.cpuUsage(cpuBefore);
db.close();
process.stdout.write(
  `${JSON.stringify({
    transactions: measured.transactions,
    seconds: measured.seconds,
    perSecond: measured.transactions / measured.seconds,
    cpuUsPerOp: (cpu.user + cpu.system) / measured.transactions,
    rssBytes: process.memoryUsage.rss(),
  })}\n`,
);
