import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../../../config/data-source-options';
import { runPendingMigrations } from '../../../../config/run-migrations';
import { newId } from '../../../../src/common/ids';
import {
  databaseConfig,
  type DatabaseConfig,
  type PostgresConfig,
} from '../../../../src/database/database.config';
import {
  Database,
  managerOf,
  type Transaction,
} from '../../../../src/database/database.service';
import type { SnapshotReader } from '../../../../src/database/snapshot-reader';
import { sqlFor } from '../../../../src/database/sql';
import { buildNewProject } from '../../../../src/projects/project-defaults';
import { ChangeLog } from '../../../../src/change-log/change-log.repository';
import { ProjectScope } from '../../../../src/project-scope/project-scope.repository';
import { ProjectsRepository } from '../../../../src/projects/projects.repository';
import { EmbeddedTaskEngine } from '../../../../src/tasks/engine/embedded-task-engine';
import { PgBossTaskEngine } from '../../../../src/tasks/engine/pg-boss-task-engine';
import type {
  TaskDelivery,
  TaskEngine,
  TaskHandler,
  TaskOutcome,
} from '../../../../src/tasks/engine/task-engine';
import { TaskScheduleRepository } from '../../../../src/tasks/engine/task-schedule.repository';
import { tasksConfig } from '../../../../src/tasks/tasks.config';
import {
  adminQuery,
  createTestDatabase,
  postgresAdminUrl,
  TEST_DATABASE,
  type TestDatabase,
} from '../../../support/test-database';

/**
 * The task engines on a migrated scratch database of the kind under test:
 * the embedded engine on SQLite, pg-boss on PostgreSQL. Task rows are
 * written with SQL; the handlers stand in for the service's TaskRunner
 * (status RUNNING and attempts + 1 when delivered, then a final status, or
 * QUEUED again for a retry). Durations are read from the handlers' own
 * clocks and the database, never from Jest's timers.
 */

const LEASE_SECONDS = 10;
const TASKS = { ...tasksConfig({}), leaseSeconds: LEASE_SECONDS };

interface Scratch {
  config: DatabaseConfig;
  dataSource: DataSource;
  db: Database;
  close(): Promise<void>;
}

async function open(url: string): Promise<Scratch> {
  const config = databaseConfig({ DATABASE_URL: url }).connection;
  const dataSource = new DataSource(buildDataSourceOptions(config));
  await dataSource.initialize();
  return {
    config,
    dataSource,
    db: new Database(dataSource),
    close: () => dataSource.destroy(),
  };
}

async function insertProject({ db, dataSource }: Scratch): Promise<string> {
  const changeLog = new ChangeLog(db, dataSource);
  const projects = new ProjectsRepository(
    db,
    undefined as unknown as SnapshotReader,
    new ProjectScope(changeLog, db),
    changeLog,
  );
  const project = buildNewProject({ name: 'Tasks', userId: 'user-1' });
  await db.transaction((transaction) =>
    projects.insertNew(transaction, project),
  );
  return project.id;
}

/** Inserts a QUEUED task in `transaction`; returns its id. */
async function insertTask(
  transaction: Transaction,
  projectId: string,
): Promise<string> {
  const id = newId();
  const sql = sqlFor(managerOf(transaction));
  const now = sql.timestamp(new Date());
  await sql.changes(
    `INSERT INTO "tasks" ("id", "projectId", "type", "status", "input",
       "assetIds", "attempts", "createdAt", "updatedAt", "runAfter")
     VALUES ($1, $2, 'logo', 'QUEUED', '{}', '[]', 0, $3, $3, $3)`,
    [id, projectId, now],
  );
  return id;
}

/** Commits a task and its enqueue; returns its id. */
function queueTask(
  scratch: Scratch,
  engine: TaskEngine,
  projectId: string,
): Promise<string> {
  return scratch.db.transaction(async (transaction) => {
    const id = await insertTask(transaction, projectId);
    await engine.enqueue(transaction, id, 0);
    return id;
  });
}

async function setStatus(
  db: Database,
  id: string,
  status: string,
  attempt = false,
): Promise<void> {
  await db.write(async (manager) => {
    const sql = sqlFor(manager);
    await sql.changes(
      `UPDATE "tasks" SET "status" = $2,
         "attempts" = "attempts" + $3 WHERE "id" = $1`,
      [id, status, attempt ? 1 : 0],
    );
  });
}

async function leaseOf(db: Database, id: string): Promise<number | null> {
  return db.read(async (manager) => {
    const [row] = await sqlFor(manager).rows<{ leaseUntil: unknown }>(
      `SELECT "leaseUntil" FROM "tasks" WHERE "id" = $1`,
      [id],
    );
    const value = row?.leaseUntil;
    if (value === null || value === undefined) return null;
    if (value instanceof Date) return value.getTime();
    return Date.parse(`${(value as string).replace(' ', 'T')}Z`);
  });
}

/** Every delivery, by task id, with the time the handler got it. */
class Deliveries {
  readonly at = new Map<string, number[]>();

  note(taskId: string): void {
    const times = this.at.get(taskId) ?? [];
    times.push(Date.now());
    this.at.set(taskId, times);
  }

  count(taskId: string): number {
    return this.at.get(taskId)?.length ?? 0;
  }
}

/** A handler that runs the task to SUCCEEDED at once. */
function succeeding(db: Database, deliveries: Deliveries): TaskHandler {
  return async ({ taskId }) => {
    deliveries.note(taskId);
    await setStatus(db, taskId, 'RUNNING', true);
    await setStatus(db, taskId, 'SUCCEEDED');
    return { kind: 'settled' };
  };
}

/** Resolves once `done` holds; fails after `guardMs` (a hang guard only). */
async function until(done: () => boolean, guardMs: number): Promise<void> {
  const deadline = Date.now() + guardMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What each engine's suite needs: how to make an engine over a database. */
interface EngineKind {
  name: string;
  make(scratch: Scratch): TaskEngine;
  /** Polls and wake-ups: how long an idle engine may take to notice. */
  noticeMs: number;
}

/**
 * The rules every engine keeps: delivery of committed tasks only, once;
 * retry delays; stop() aborting what it holds.
 */
function contract(kind: EngineKind) {
  describe(`${kind.name}: the engine contract`, () => {
    let database: TestDatabase;
    let scratch: Scratch;
    let projectId: string;
    const engines: TaskEngine[] = [];
    const make = () => {
      const engine = kind.make(scratch);
      engines.push(engine);
      return engine;
    };

    beforeAll(async () => {
      database = await createTestDatabase();
      scratch = await open(database.url);
      await runPendingMigrations(scratch.dataSource);
      projectId = await insertProject(scratch);
    });
    afterEach(async () => {
      await Promise.all(engines.splice(0).map((engine) => engine.stop()));
    });
    afterAll(async () => {
      await scratch?.close();
      await database?.drop();
    });

    it('delivers a committed task once and a rolled-back one never', async () => {
      const engine = make();
      const deliveries = new Deliveries();
      await engine.startWorkers(succeeding(scratch.db, deliveries), 2);
      let rolledBack = '';
      await expect(
        scratch.db.transaction(async (transaction) => {
          rolledBack = await insertTask(transaction, projectId);
          await engine.enqueue(transaction, rolledBack, 0);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      const committed = await queueTask(scratch, engine, projectId);
      await until(() => deliveries.count(committed) === 1, 15_000);
      // Long enough for several polls to have delivered anything due.
      await pause(kind.noticeMs * 3);
      expect(deliveries.count(committed)).toBe(1);
      expect(deliveries.count(rolledBack)).toBe(0);
    });

    it('delivers a retried task again no sooner than its delay', async () => {
      const engine = make();
      const delayMs = 1500;
      const returnedAt: number[] = [];
      const deliveries = new Deliveries();
      await engine.startWorkers(async ({ taskId }) => {
        deliveries.note(taskId);
        if (deliveries.count(taskId) === 1) {
          await setStatus(scratch.db, taskId, 'QUEUED');
          returnedAt.push(Date.now());
          return { kind: 'retry', delayMs };
        }
        await setStatus(scratch.db, taskId, 'SUCCEEDED');
        return { kind: 'settled' };
      }, 2);
      const id = await queueTask(scratch, engine, projectId);
      await until(() => deliveries.count(id) === 2, 20_000);
      const [, again] = deliveries.at.get(id)!;
      expect(again - returnedAt[0]).toBeGreaterThanOrEqual(delayMs);
      await pause(kind.noticeMs * 3);
      expect(deliveries.count(id)).toBe(2);
    });

    it('stop() aborts the signal of a delivery in hand and waits for its handler', async () => {
      const engine = make();
      let delivery: TaskDelivery | undefined;
      let returned = false;
      await engine.startWorkers(async (given): Promise<TaskOutcome> => {
        delivery = given;
        await setStatus(scratch.db, given.taskId, 'RUNNING', true);
        await new Promise((resolve) =>
          given.signal.addEventListener('abort', resolve, { once: true }),
        );
        await setStatus(scratch.db, given.taskId, 'QUEUED');
        returned = true;
        return { kind: 'retry', delayMs: 0 };
      }, 1);
      const id = await queueTask(scratch, engine, projectId);
      await until(() => delivery?.taskId === id, 15_000);
      expect(delivery!.signal.aborted).toBe(false);
      await engine.stop();
      expect(delivery!.signal.aborted).toBe(true);
      expect(returned).toBe(true);
    });
  });
}

if (TEST_DATABASE === 'sqlite') {
  const embedded: EngineKind = {
    name: 'embedded (SQLite)',
    // Its poll; an enqueue in the process wakes it sooner.
    noticeMs: 1000,
    make: (scratch) =>
      new EmbeddedTaskEngine(new TaskScheduleRepository(scratch.db), TASKS),
  };
  contract(embedded);

  describe('embedded (SQLite): a dead holder', () => {
    let database: TestDatabase;
    const opened: Scratch[] = [];

    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await Promise.all(opened.map((scratch) => scratch.close()));
      await database?.drop();
    });

    it('a task whose holder stopped renewing is delivered again by another engine once its lease lapses', async () => {
      // Two connections to one file, as two processes would hold.
      const a = await open(database.url);
      const b = await open(database.url);
      opened.push(a, b);
      await runPendingMigrations(a.dataSource);
      const projectId = await insertProject(a);
      const holder = embedded.make(a);
      let held = '';
      // Never returns: the holder hangs, then stops renewing its lease.
      await holder.startWorkers(async ({ taskId }) => {
        held = taskId;
        await setStatus(a.db, taskId, 'RUNNING', true);
        return new Promise<TaskOutcome>(() => undefined);
      }, 1);
      const id = await queueTask(a, holder, projectId);
      await until(() => held === id, 15_000);
      // Its handler ignores the signal: stop() gives up waiting for it and
      // stops renewing the lease, as a killed process would.
      await holder.stop();
      const diedAt = Date.now();
      await pause(50);
      const lapsesAt = await leaseOf(a.db, id);

      const taker = embedded.make(b);
      const deliveries = new Deliveries();
      await taker.startWorkers(succeeding(b.db, deliveries), 1);
      await until(() => deliveries.count(id) === 1, 30_000);
      await taker.stop();
      const [again] = deliveries.at.get(id)!;
      // Not while the lease stood; within one poll (and a turn) after.
      expect(lapsesAt).not.toBeNull();
      expect(lapsesAt! - diedAt).toBeLessThanOrEqual(LEASE_SECONDS * 1000);
      expect(again).toBeGreaterThanOrEqual(lapsesAt!);
      expect(again - lapsesAt!).toBeLessThan(1500);
    }, 60_000);
  });
}

if (TEST_DATABASE === 'postgres') {
  const pgBoss = (scratch: Scratch, options?: { url?: string }) =>
    new PgBossTaskEngine(
      {
        ...(scratch.config as PostgresConfig),
        ...(options?.url ? { url: options.url } : {}),
      },
      TASKS,
    );
  contract({ name: 'pg-boss (PostgreSQL)', noticeMs: 1000, make: pgBoss });

  describe('pg-boss (PostgreSQL): replicas and dead workers', () => {
    let database: TestDatabase;
    let scratch: Scratch;
    let projectId: string;
    const engines: PgBossTaskEngine[] = [];
    const role = `tasks_holder_${randomBytes(4).toString('hex')}`;

    beforeAll(async () => {
      database = await createTestDatabase();
      scratch = await open(database.url);
      await runPendingMigrations(scratch.dataSource);
      projectId = await insertProject(scratch);
    });
    afterAll(async () => {
      await Promise.all(
        engines.map((engine) => engine.stop().catch(() => undefined)),
      );
      await scratch?.close();
      await database?.drop();
      await adminQuery(`DROP ROLE IF EXISTS "${role}"`);
    });

    it('two instances deliver each of 50 tasks exactly once', async () => {
      const deliveries = new Deliveries();
      const replicas = [pgBoss(scratch), pgBoss(scratch)];
      engines.push(...replicas);
      for (const replica of replicas) {
        await replica.startWorkers(succeeding(scratch.db, deliveries), 4);
      }
      const ids: string[] = [];
      for (let i = 0; i < 50; i++) {
        ids.push(await queueTask(scratch, replicas[i % 2], projectId));
      }
      await until(() => ids.every((id) => deliveries.count(id) >= 1), 30_000);
      await pause(2000);
      expect(ids.map((id) => deliveries.count(id))).toEqual(ids.map(() => 1));
      await Promise.all(replicas.map((replica) => replica.stop()));
    }, 45_000);

    it("a dead worker's task is delivered again by another instance within 30 s", async () => {
      // The holder connects as a role of its own; taking that role's
      // connections away (and its logins) kills the holder as far as the
      // database can tell: its heartbeats stop, nothing settles its job.
      await adminQuery(`CREATE ROLE "${role}" LOGIN SUPERUSER`);
      const url = new URL(database.url);
      url.username = role;
      url.password = '';
      const holder = pgBoss(scratch, { url: url.toString() });
      const taker = pgBoss(scratch);
      engines.push(holder, taker);
      let held = '';
      await holder.startWorkers(async ({ taskId }) => {
        held = taskId;
        return new Promise<TaskOutcome>(() => undefined);
      }, 1);
      const id = await queueTask(scratch, holder, projectId);
      await until(() => held === id, 15_000);
      const admin = new Client({ connectionString: postgresAdminUrl() });
      await admin.connect();
      try {
        await admin.query(`ALTER ROLE "${role}" NOLOGIN`);
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1',
          [role],
        );
      } finally {
        await admin.end();
      }
      const diedAt = Date.now();
      const deliveries = new Deliveries();
      await taker.startWorkers(succeeding(scratch.db, deliveries), 1);
      await until(() => deliveries.count(id) === 1, 40_000);
      const [again] = deliveries.at.get(id)!;
      expect(again - diedAt).toBeLessThan(30_000);
      // Its heartbeat was at most half a lease old when it died.
      expect(again - diedAt).toBeGreaterThanOrEqual((LEASE_SECONDS * 1000) / 2);
      await taker.stop();
      await holder.stop().catch(() => undefined);
    }, 55_000);
  });
}
