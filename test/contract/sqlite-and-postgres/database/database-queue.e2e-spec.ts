import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { Database } from '../../../../src/database/database.service';
import { Project } from '../../../../src/projects/entities';
import { buildNewProject } from '../../../../src/projects/project-defaults';
import { createTestApp, TestApp } from '../../../support/test-app';
import { createSqliteDatabase } from '../../../support/test-database';

/**
 * Over HTTP, a better-sqlite3 transaction usually finishes before the next
 * request is read, so overlap is rare there. These tests make units of work
 * overlap on purpose (each yields to the event loop mid-transaction), which
 * is what a slow hook or a busy process does in production. SQLite's queue
 * keeps them apart; in the PostgreSQL pass, PostgreSQL's transactions do.
 */
describe('Database: overlapping units of work stay apart', () => {
  let t: TestApp;
  let db: Database;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(Database);
  });
  afterEach(() => t.reset());
  afterAll(() => t.close());

  const count = () => t.dataSource.getRepository(Project).count();

  it('20 overlapping write transactions, a third of them failing, commit exactly the others', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        db.write(async (manager) => {
          await manager.save(buildNewProject({ name: `p${i}`, userId: 'u' }));
          await nextMacrotask();
          if (i % 3 === 0) throw new Error(`planned failure ${i}`);
        }),
      ),
    );
    const failures = results.filter((r) => r.status === 'rejected');
    expect(failures.map((r) => r.reason.message)).toEqual(
      [0, 3, 6, 9, 12, 15, 18].map((i) => `planned failure ${i}`),
    );
    expect(await count()).toBe(13);
  });

  it('a read never sees the rows of a transaction that has not committed', async () => {
    let markSaved!: () => void;
    const saved = new Promise<void>((resolve) => (markSaved = resolve));
    const writing = db.write(async (manager) => {
      await manager.save(buildNewProject({ name: 'uncommitted', userId: 'u' }));
      markSaved();
      await nextMacrotask();
      throw new Error('rolled back');
    });
    await saved;
    const seen = db.read((manager) => manager.count(Project));
    await expect(writing).rejects.toThrow('rolled back');
    expect(await seen).toBe(0);
  });

  it('a failed unit of work does not block the ones queued behind it', async () => {
    const failing = db.read(() => Promise.reject(new Error('boom')));
    const next = db.read((manager) => manager.count(Project));
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe(0);
  });
});

/**
 * better-sqlite3 answers synchronously; PostgreSQL's queries are real I/O
 * and have no queue. So this runs on SQLite in the PostgreSQL pass too.
 */
describe('Database on SQLite: a burst of queued units of work', () => {
  let t: TestApp;
  let db: Database;

  beforeAll(async () => {
    t = await createTestApp({}, { database: createSqliteDatabase() });
    db = t.app.get(Database);
  });
  afterAll(() => t.close());

  it('lets timers run between queued units of work once they have run back to back for a slice', async () => {
    const order: string[] = [];
    const busyFor = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    const units = Array.from({ length: 5 }, (_, i) =>
      db.read(() => {
        busyFor(20);
        order.push(`unit ${i}`);
        return Promise.resolve();
      }),
    );
    // Due during the first unit; the five take 100 ms, each longer than
    // the 10 ms slice.
    setTimeout(() => order.push('timer'), 1);
    await Promise.all(units);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order.indexOf('timer')).toBeLessThanOrEqual(2);
  });
});
