import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { formatSql } from './sql-format';
import { DataSource, type Logger as TypeOrmLogger } from 'typeorm';
import { buildDataSourceOptions } from '../config/data-source-options';
import type { DatabaseConfig } from '../src/database/database.config';
import { runPendingMigrations } from '../config/run-migrations';
import { ChangeLog } from '../src/change-log/change-log.repository';
import { AssetsRepository } from '../src/assets/assets.repository';
import { AssetRenditionsRepository } from '../src/assets/renditions/asset-renditions.repository';
import { BrandKitRepository } from '../src/brand-kit/brand-kit.repository';
import { SitesRepository } from '../src/sites/sites.repository';
import { SiteSourcesRepository } from '../src/sites/site-sources.repository';
import { UsageLedgerRepository } from '../src/usage/usage-ledger.repository';
import type { AssetRecord } from '../src/assets/dto/asset.dto';
import type { ExpectedVersions } from '../src/project-scope/version-conditions';
import { newId } from '../src/common/ids';
import { Database, type Transaction } from '../src/database/database.service';
import type { JsonCursor } from '../src/database/json-cursor';
import type { SnapshotReader } from '../src/database/snapshot-reader';
import { forSqlite, jsonSqlFor } from '../src/database/sql';
import { IdempotencyRepository } from '../src/idempotency/idempotency.repository';
import { StoredImagesRepository } from '../src/image-store/stored-images.repository';
import { buildNewProject } from '../src/projects/project-defaults';
import { ProjectScope } from '../src/project-scope/project-scope.repository';
import { ProjectsRepository } from '../src/projects/projects.repository';
import { SectionsRepository } from '../src/sections/sections.repository';
import { WorkspaceStatuses } from '../src/sections/workspace-statuses.repository';
import { TaskScheduleRepository } from '../src/tasks/engine/task-schedule.repository';
import { TasksRepository } from '../src/tasks/tasks.repository';
import { RunsRepository } from '../src/runs/runs.repository';

/**
 * The SQL each repository sends, per dialect, captured by running every
 * repository method against a scratch database with a query logger (as the
 * statements leave TypeORM or the hand-written Sql helper). Written by
 * `npm run sql:generate` into sql/<dialect>/*.sql and compared with those
 * files by test/contract/sqlite-and-postgres/database/repository-sql.e2e-spec.ts, so the SQL the service sends is
 * always readable, and reviewed, as text.
 *
 * Parameters are not recorded (ids and times differ on every run); only
 * the statements, in order, one clause per line (sql-format.ts).
 *
 * Each repository is called through a proxy that notes the methods used;
 * repositoryMethods() lists every method of every *Repository class under
 * src/, so a method added without a capture here is reported by name
 * (uncaptured) instead of being silently absent from sql/.
 */

export type Dialect = 'sqlite' | 'postgres';

/** An If-Match naming these versions. */
const tags = (...versions: number[]): ExpectedVersions => versions;

export const SQL_DIR = join(__dirname, '..', 'sql');

export const sqlFile = (dialect: Dialect, repository: string): string =>
  join(SQL_DIR, dialect, `${repository}.sql`);

/** The SQL of one method call: its name and the statements it sent. */
interface Entry {
  name: string;
  statements: string[];
}

/**
 * Repository methods that send no SQL of their own, each with the reason:
 * they need no capture. Every other public method of every *Repository
 * class under src/ must be called by captureRepositorySql.
 */
export const METHODS_WITHOUT_SQL: Readonly<Record<string, string>> = {
  'ChangeLog.record':
    "queues an event: its INSERT is the transaction's last statement, in each writing repository's file",
  'ChangeLog.versioned': 'notes a version moved, for the check before commit',
  'ChangeLog.onAppended': 'registers a listener of this process',
  'ChangeLog.pendingOf': "the transaction's queue of events",
  'ProjectScope.assertVisible':
    "sends isVisible's SELECT (in project-scope.repository.sql) and throws when it finds nothing",
};

type RepositoryClass = abstract new (...args: never[]) => object;

const SRC_DIR = join(__dirname, '..', 'src');

function repositoryFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return repositoryFiles(path);
    return entry.name.endsWith('.repository.ts') ? [path] : [];
  });
}

/**
 * Every class exported by a src/**\/*.repository.ts file, with
 * its methods as "Class.method" (the prototype's own functions: what a
 * service can call).
 */
export function repositoryMethods(): string[] {
  const methods: string[] = [];
  for (const file of repositoryFiles(SRC_DIR)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exports = require(file) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports)) {
      // Every class a repository file exports (ProjectScope included).
      if (!/^[A-Z]/.test(name) || typeof value !== 'function') continue;
      const prototype = (value as RepositoryClass).prototype as object;
      for (const method of Object.getOwnPropertyNames(prototype)) {
        const descriptor = Object.getOwnPropertyDescriptor(prototype, method);
        if (method !== 'constructor' && typeof descriptor?.value === 'function')
          methods.push(`${name}.${method}`);
      }
    }
  }
  return methods.sort();
}

/** Wraps a repository so every method called on it is noted in `called`. */
function watched<T extends object>(repository: T, called: Set<string>): T {
  const name = repository.constructor.name;
  return new Proxy(repository, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property === 'string' && typeof value === 'function') {
        called.add(`${name}.${property}`);
      }
      return value;
    },
  });
}

/** What captureRepositorySql found: the files, and what it left out. */
export interface CapturedSql {
  /** repository file name (e.g. projects.repository) -> its .sql text */
  files: Map<string, string>;
  /** Repository methods no capture called (and not METHODS_WITHOUT_SQL). */
  uncaptured: string[];
  /** Captures that recorded no statement. */
  silent: string[];
}

class CapturingLogger implements TypeOrmLogger {
  statements: string[] = [];
  logQuery(query: string): void {
    this.statements.push(query);
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

/** A scratch database of `dialect`; PostgreSQL needs TEST_POSTGRES_URL. */
async function scratchDatabase(
  dialect: Dialect,
): Promise<{ config: DatabaseConfig; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'workspace-sql-'));
    return {
      config: { type: 'sqlite', file: join(dir, 'workspace.db') },
      drop: () => {
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const admin = process.env.TEST_POSTGRES_URL;
  if (!admin) {
    throw new Error('TEST_POSTGRES_URL is not set: no PostgreSQL to run on');
  }
  const name = `workspace_sql_${randomBytes(6).toString('hex')}`;
  const adminQuery = async (text: string) => {
    const client = new Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    config: {
      type: 'postgres',
      url: url.toString(),
      poolSize: 2,
      ssl: false,
      connectTimeoutMs: 5_000,
      statementTimeoutMs: 30_000,
      listPoolSize: 1,
    },
    drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/**
 * Stands in for SnapshotReader, whose cursors read on connections of their
 * own: it records the statement a list opens (as SQLite's cursor prepares
 * it) and returns an empty list.
 */
function recordingSnapshots(dialect: Dialect, logger: CapturingLogger) {
  return {
    json: jsonSqlFor(dialect === 'sqlite' ? 'better-sqlite3' : 'postgres'),
    openJson: (text: string, params: unknown[]): Promise<JsonCursor> => {
      logger.statements.push(
        dialect === 'sqlite' ? forSqlite(text, params).text : text,
      );
      return Promise.resolve({
        next: () => Promise.resolve(undefined),
        close: () => Promise.resolve(),
      });
    },
  } as unknown as SnapshotReader;
}

/** Runs every repository method once; the SQL of each, per repository. */
export async function captureRepositorySql(
  dialect: Dialect,
): Promise<CapturedSql> {
  const scratch = await scratchDatabase(dialect);
  const logger = new CapturingLogger();
  const dataSource = new DataSource({
    ...buildDataSourceOptions(scratch.config),
    logger,
  });
  try {
    await dataSource.initialize();
    await runPendingMigrations(dataSource);
    const db = new Database(dataSource);
    const files = new Map<string, string>();
    const entries: Entry[] = [];
    const called = new Set<string>();
    const silent: string[] = [];
    const changeLog = watched(new ChangeLog(db, dataSource), called);
    // The capture calls repository methods one by one, outside the services
    // that move a project's version with each change: here every recorded
    // event counts as its version's move (only the parameters differ).
    const recordEvent = changeLog.record.bind(changeLog);
    changeLog.record = (transaction, projectId, draft) => {
      changeLog.versioned(transaction, projectId, {
        etag: '"1"',
        userId: 'user-1',
      });
      recordEvent(transaction, projectId, draft);
    };
    const record = async (name: string, call: () => Promise<unknown>) => {
      logger.statements = [];
      await call();
      // Work a call queued behind itself (SQLite) belongs to it too.
      await db.read(() => Promise.resolve());
      entries.push({ name, statements: logger.statements });
    };
    const write = (repository: string, title: string) => {
      for (const entry of entries) {
        if (entry.statements.length === 0)
          silent.push(`${title}.${entry.name}`);
      }
      files.set(repository, render(dialect, title, entries.splice(0)));
    };

    const versions = watched(new ProjectScope(changeLog, db), called);
    const projects = watched(
      new ProjectsRepository(
        db,
        recordingSnapshots(dialect, logger),
        versions,
        changeLog,
      ),
      called,
    );
    const missing = () => new Error('no such project');
    const project = buildNewProject({ name: 'Site', userId: 'user-1' });
    const { id } = project;
    const at = { key: new Date().toISOString(), id };
    await record('insertNew', () =>
      db.transaction((transaction) => projects.insertNew(transaction, project)),
    );
    const urls = { before: 'http://localhost/', after: '/content' };
    await record('findDetail', () => projects.findDetail(id, urls));
    await record('findDetail (owner)', () =>
      projects.findDetail(id, urls, 'user-1'),
    );
    await record('findVersion', () => projects.findVersion(id));
    await record('findVersion (owner)', () =>
      projects.findVersion(id, 'user-1'),
    );
    await record('findPage', () => projects.findPage(undefined, { limit: 2 }));
    await record('findPage (user, after)', () =>
      projects.findPage('user-1', { limit: 2, after: at }),
    );
    await record('findPage (name, after, search, summary, total)', () =>
      projects.findPage('user-1', {
        limit: 2,
        after: { key: 'site', id },
        search: 'Sit',
        order: { sort: 'name', order: 'asc' },
        view: 'summary',
        withTotal: true,
      }),
    );
    await record('findPage (createdAt ascending, after)', () =>
      projects.findPage(undefined, {
        limit: 2,
        after: at,
        order: { sort: 'createdAt', order: 'asc' },
      }),
    );
    await record('openList', () => projects.openList(undefined));
    await record('openList (user)', () => projects.openList('user-1'));
    await record('update', () =>
      projects.update(
        { projectId: id, missing },
        { name: 'Renamed', description: null },
      ),
    );
    await record('update (owner, If-Match)', () =>
      projects.update(
        { projectId: id, owner: 'user-1', ifMatch: tags(2, 3), missing },
        { name: 'Again' },
      ),
    );
    await record('remove (owner, If-Match)', () =>
      projects.remove({
        projectId: id,
        owner: 'user-1',
        ifMatch: tags(3),
        missing,
      }),
    );
    await record('remove (no such project)', () =>
      projects.remove({ projectId: id, missing }).catch(() => undefined),
    );
    write('projects.repository', 'ProjectsRepository');

    const keys = watched(new IdempotencyRepository(db), called);
    const now = Date.now();
    const answer = { status: 201, body: '{}', headers: '{}' };
    await record('insertInTransaction', () =>
      db.transaction((transaction) =>
        keys.insertInTransaction(
          transaction,
          { id: 'key-1', fingerprint: 'f', expiresAt: now + 60_000, answer },
          now,
        ),
      ),
    );
    const lease = {
      id: 'key-2',
      fingerprint: 'f',
      lockedUntil: now + 1_000,
      expiresAt: now + 60_000,
    };
    await record('lease (new)', () => keys.lease(lease, now));
    await record('lease (taken)', () => keys.lease(lease, now));
    await record('findLive', () => keys.findLive('key-1', now));
    await record('complete', () => keys.complete('key-2', answer));
    await record('completeInTransaction', () =>
      db.transaction((transaction) =>
        keys.completeInTransaction(transaction, 'key-2', answer),
      ),
    );
    await record('release', () => keys.release('key-2'));
    await record('purgeExpired', () => keys.purgeExpired(now, 500));
    write('idempotency.repository', 'IdempotencyRepository');

    const images = watched(new StoredImagesRepository(db), called);
    const image = {
      id: 'a'.repeat(32),
      mediaType: 'image/png',
      size: 3,
      expiresAt: now + 60_000,
      prompt: 'A logo',
      model: 'gpt-image-2',
    };
    await record('insert', () => images.insert(image));
    await record('insertPart', () =>
      images.insertPart(image.id, 0, Buffer.from('png')),
    );
    await record('findLive', () => images.findLive(image.id, now));
    await record('readPart', () => images.readPart(image.id, 0, now));
    await record('findExpired', () => images.findExpired(now, 20));
    await record('deleteParts', () => images.deleteParts(image.id, 0, 8));
    await record('delete', () => images.delete(image.id, now));
    write('stored-images.repository', 'StoredImagesRepository');

    const assets = watched(new AssetsRepository(db, changeLog), called);
    const owner = buildNewProject({ name: 'Logos', userId: 'user-1' });
    await db.transaction((transaction) =>
      projects.insertNew(transaction, owner),
    );
    entries.splice(0);
    const asset: AssetRecord = {
      id: newId(),
      projectId: owner.id,
      sectionId: null,
      kind: 'logo',
      contentType: 'image/png',
      byteSize: 3,
      sha256: 'f'.repeat(64),
      prompt: 'A logo',
      model: 'gpt-image-2',
      createdAt: new Date().toISOString(),
      fileName: 'logo.png',
      width: null,
      height: null,
    };
    const ref = { projectId: owner.id, assetId: asset.id };
    await record('reserveSlot', () =>
      db.transaction((transaction) =>
        assets.reserveSlot(transaction, owner.id, 20, {
          id: 'slot-1',
          expiresAt: Date.now(),
        }),
      ),
    );
    await record('releaseSlot', () => assets.releaseSlot('slot-1'));
    await record(
      'keep: countOfProject, logoSectionId, insert, insertContent',
      () =>
        db.largeTransaction(async (transaction) => {
          await assets.countOfProject(transaction, owner.id);
          asset.sectionId = await assets.logoSectionId(transaction, owner.id);
          await assets.insert(transaction, asset);
          await assets.insertContent(transaction, asset.id, Buffer.from('png'));
        }),
    );
    await record('find', () => assets.find(owner.id, asset.id));
    await record('find (owner)', () =>
      assets.find(owner.id, asset.id, 'user-1'),
    );
    await record('countContentParts', () => assets.countContentParts(asset.id));
    await record('readContentPart', () => assets.readContentPart(asset.id, 0));
    await record('existingAssetIds', () => assets.existingAssetIds([asset.id]));
    await record('deleteReplaced', () =>
      db.transaction((transaction) =>
        assets.deleteReplaced(transaction, {
          projectId: owner.id,
          kind: 'brand-kit',
          promptStart: 'favicon.ico from logo ',
          keptId: asset.id,
        }),
      ),
    );
    await record('unsized', () => assets.unsized('', 20));
    await record('setSize', () =>
      assets.setSize(asset.id, { width: 1024, height: 1024 }),
    );
    await record('delete', () =>
      db.transaction((transaction) => assets.delete(transaction, ref)),
    );
    write('assets.repository', 'AssetsRepository');

    // The asset again (not recorded), for its renditions.
    await db.transaction((transaction) =>
      new AssetsRepository(db, changeLog).insert(transaction, asset),
    );
    const renditions = watched(new AssetRenditionsRepository(db), called);
    const rendition = { sha256: '0'.repeat(64), bytes: Buffer.from('png') };
    await record('find (none yet)', () => renditions.find(asset.id, 32));
    await record('insert', () => renditions.insert(asset.id, 32, rendition));
    await record('find', () => renditions.find(asset.id, 32));
    write('asset-renditions.repository', 'AssetRenditionsRepository');

    const kits = watched(new BrandKitRepository(db), called);
    await record('chosenLogoId', () =>
      db.transaction((transaction) => kits.chosenLogoId(transaction, owner.id)),
    );
    await record('imageAsset', () =>
      db.transaction((transaction) =>
        kits.imageAsset(transaction, owner.id, asset.id),
      ),
    );
    await record('chosenLogoOf', () => kits.chosenLogoOf(owner.id));
    await record('kitFiles', () => kits.kitFiles(owner.id, asset.id));
    write('brand-kit.repository', 'BrandKitRepository');

    const sites = watched(new SitesRepository(db), called);
    const siteTask = newId();
    const indexFile = {
      path: 'index.html' as const,
      contentType: 'text/html; charset=utf-8',
      byteSize: 2,
      sha256: '0'.repeat(64),
    };
    const siteAt = new Date().toISOString();
    await record('versionOfTask', () => sites.versionOfTask(siteTask));
    await record('addVersion', () =>
      sites.addVersion(
        {
          projectId: owner.id,
          taskId: siteTask,
          reportId: null,
          files: [indexFile],
          publishedAt: siteAt,
        },
        [{ ...indexFile, bytes: Buffer.from('hi') }],
      ),
    );
    await record('version', () => sites.version(owner.id, 1));
    await record('makeCurrent', () =>
      db.transaction((transaction) =>
        sites.makeCurrent(transaction, owner.id, 1, siteAt),
      ),
    );
    await record('advanceCurrent', () =>
      db.transaction((transaction) =>
        sites.advanceCurrent(transaction, owner.id, 1, siteAt),
      ),
    );
    await record('currentVersion', () => sites.currentVersion(owner.id));
    await record('current', () => sites.current(owner.id));
    await record('file', () => sites.file(owner.id, 1, 'index.html'));
    await record('takeDown', () =>
      db.transaction((transaction) =>
        sites.takeDown(transaction, owner.id, siteAt),
      ),
    );
    write('sites.repository', 'SitesRepository');

    const siteSources = watched(new SiteSourcesRepository(db), called);
    await record('chosenPage', () => siteSources.chosenPage(owner.id));
    await record('newestReports', () =>
      siteSources.newestReports(owner.id, 20),
    );
    await record('kitFiles', () =>
      siteSources.kitFiles(owner.id, ['favicon.ico']),
    );
    await record('ogGraphic', () => siteSources.ogGraphic(owner.id));
    write('site-sources.repository', 'SiteSourcesRepository');

    const ledger = watched(new UsageLedgerRepository(db), called);
    const reservation = {
      scope: { userKey: 'user:user-1', projectId: owner.id, taskId: null },
      kind: 'image' as const,
      model: 'gpt-image-1',
      units: { images: 1, inputTokens: 0, outputTokens: 0 },
      costMicros: 167_000,
      day: '2026-11-28',
      month: '2026-11',
      at: new Date(0),
    };
    await record('reserve (no budget)', () => ledger.reserve(reservation, {}));
    await record('reserve (budgets)', () =>
      ledger.reserve(reservation, {
        userDayMicros: 1_000_000,
        projectMonthMicros: 1_000_000,
      }),
    );
    await record('settle', () =>
      ledger.settle(1, 'gpt-image-1', reservation.units, 167_000),
    );
    await record('release', () => ledger.release(2));
    await record('spendOf', () =>
      ledger.spendOf('user:user-1', '2026-11-28', '2026-11'),
    );
    write('usage-ledger.repository', 'UsageLedgerRepository');

    const change = { projectId: owner.id, missing };
    // A moved version needs its event (ChangeLog): a project.updated here.
    const changed = (transaction: Transaction) =>
      changeLog.record(transaction, owner.id, {
        type: 'project.updated',
        key: owner.id,
        data: { fields: [] },
      });
    await record('advance', () =>
      db.transaction(async (transaction) => {
        await versions.advance(transaction, change);
        changed(transaction);
      }),
    );
    await record('advance (owner, If-Match)', () =>
      db.transaction(async (transaction) => {
        await versions.advance(transaction, {
          ...change,
          owner: 'user-1',
          ifMatch: tags(2),
        });
        changed(transaction);
      }),
    );
    await record('hold', () =>
      db.transaction((transaction) => versions.hold(transaction, change)),
    );
    await record('hold (owner)', () =>
      db.transaction((transaction) =>
        versions.hold(transaction, { ...change, owner: 'user-1' }),
      ),
    );
    await record('isVisible', () => versions.isVisible(owner.id, undefined));
    await record('isVisible (owner)', () =>
      versions.isVisible(owner.id, 'user-1'),
    );
    await record('nameOf', () => versions.nameOf(owner.id, undefined));
    await record('nameOf (owner)', () => versions.nameOf(owner.id, 'user-1'));
    await record('ownerOf', () =>
      db.transaction((transaction) => versions.ownerOf(transaction, owner.id)),
    );
    write('project-scope.repository', 'ProjectScope');

    const sections = watched(new SectionsRepository(changeLog), called);
    const [logoSection] = await db.read((manager) =>
      manager.query<Array<{ id: string }>>(
        dialect === 'sqlite'
          ? `SELECT "id" FROM "sections" WHERE "projectId" = ? AND "type" = 'LOGO'`
          : `SELECT "id" FROM "sections" WHERE "projectId" = $1 AND "type" = 'LOGO'`,
        [owner.id],
      ),
    );
    entries.splice(0);
    await record('select: findTarget, sectionOfAsset, setSelection, find', () =>
      db.transaction(async (transaction) => {
        await sections.findTarget(transaction, owner.id, logoSection.id);
        await sections.sectionOfAsset(transaction, owner.id, asset.id);
        await sections.setSelection(transaction, logoSection.id, null);
        await sections.find(transaction, logoSection.id);
      }),
    );
    write('sections.repository', 'SectionsRepository');

    const statuses = watched(
      new WorkspaceStatuses(new ProjectScope(changeLog, db), changeLog),
      called,
    );
    await record('refresh', () =>
      db.transaction((transaction) => statuses.refresh(transaction, owner.id)),
    );
    write('workspace-statuses.repository', 'WorkspaceStatuses');

    const tasks = watched(new TasksRepository(db, changeLog), called);
    const taskId = newId();
    await record('placeOf, unfinishedCounts, insert', () =>
      db.transaction(async (transaction) => {
        await tasks.placeOf(transaction, owner.id, 'DESIGN', 'LOGO');
        await tasks.unfinishedCounts(transaction, owner.id, 'user-1');
        await tasks.insert(transaction, {
          id: taskId,
          projectId: owner.id,
          type: 'logo',
          agentId: null,
          sectionId: logoSection.id,
          input: { count: 1 },
          createdAt: new Date(),
          queuePlace: 0,
          total: 1,
        });
      }),
    );
    await record('find', () => tasks.find(owner.id, taskId, undefined));
    await record('find (owner)', () => tasks.find(owner.id, taskId, 'user-1'));
    await record('findIn', () =>
      db.transaction((transaction) =>
        tasks.findIn(transaction, owner.id, taskId),
      ),
    );
    await record('page', () => tasks.page(owner.id, 2, undefined));
    await record('page (after)', () =>
      tasks.page(owner.id, 2, { createdAt: new Date(), id: taskId }),
    );
    await record('statusOf', () => tasks.statusOf(taskId));
    await record('claimable, move', () =>
      db.transaction(async (transaction) => {
        await tasks.claimable(transaction, taskId);
        await tasks.move(
          transaction,
          taskId,
          { statuses: ['QUEUED'], attempts: 0 },
          { status: 'RUNNING', attempts: 1, started: true },
        );
      }),
    );
    await record('move (keep a result)', () =>
      db.transaction((transaction) =>
        tasks.move(
          transaction,
          taskId,
          {
            statuses: ['RUNNING'],
            attempts: 1,
            progress: { done: 0, total: 1 },
          },
          {
            status: 'RUNNING',
            progress: { done: 1, total: 1 },
            assetIds: [],
          },
        ),
      ),
    );
    await record('move (settle)', () =>
      db.transaction((transaction) =>
        tasks.move(
          transaction,
          taskId,
          {
            statuses: ['RUNNING'],
            attempts: 1,
            progress: { done: 1, total: 1 },
          },
          { status: 'SUCCEEDED', finished: true, error: null },
        ),
      ),
    );
    await record('newestAssetOf', () => tasks.newestAssetOf(owner.id, 'logo'));
    await record('selectedAssetOf', () =>
      tasks.selectedAssetOf(owner.id, 'LOGO'),
    );
    await record('chosenAssetOfKind', () =>
      db.transaction((transaction) =>
        tasks.chosenAssetOfKind(transaction, owner.id, 'CODE', 'landing-page'),
      ),
    );
    write('tasks.repository', 'TasksRepository');

    const runs = watched(new RunsRepository(db, changeLog), called);
    const runId = newId();
    await record('openCountOfUser, insert (insertStep, announce)', () =>
      db.transaction(async (transaction) => {
        await runs.openCountOfUser(transaction, 'user-1');
        await runs.insert(transaction, {
          id: runId,
          projectId: owner.id,
          autoChoose: true,
          input: {},
          quote: { imageCalls: 1, textCalls: 0, maxFixes: 0 },
          steps: ['logo'],
          createdAt: new Date(),
        });
      }),
    );
    await record('find', () => runs.find(owner.id, runId, undefined));
    await record('find (owner)', () => runs.find(owner.id, runId, 'user-1'));
    await record('page', () => runs.page(owner.id, 2, undefined));
    await record('page (after)', () =>
      runs.page(owner.id, 2, { createdAt: new Date(), id: runId }),
    );
    await record('state', () => runs.state(runId));
    await record('runOfTask', () => runs.runOfTask(taskId));
    await record('openRunsOf', () => runs.openRunsOf(owner.id, 20));
    await record('sweepable', () => runs.sweepable(100));
    await record('stateIn, choicesIn, moveStep, insertStep, moveRun', () =>
      db.transaction(async (transaction) => {
        await runs.stateIn(transaction, runId);
        await runs.choicesIn(transaction, owner.id);
        await runs.moveStep(transaction, runId, 0, ['PENDING'], {
          status: 'QUEUED',
          taskId,
          detail: { basis: {} },
        });
        await runs.insertStep(transaction, runId, {
          position: 1,
          type: 'landing-page',
          attempt: 2,
        });
        await runs.moveRun(transaction, runId, ['QUEUED'], {
          status: 'FAILED',
          error: { code: 'step_failed', message: 'failed' },
          siteUrl: 'https://example.com/',
        });
        await runs.announce(transaction, runId);
      }),
    );
    write('runs.repository', 'RunsRepository');

    const schedule = watched(new TaskScheduleRepository(db), called);
    await record('take', () => schedule.take(new Date(), new Date()));
    await record('renew', () => schedule.renew(taskId, new Date()));
    await record('release', () => schedule.release(taskId, new Date()));
    write('task-schedule.repository', 'TaskScheduleRepository');

    await record('after', () => changeLog.after(0, {}, 100));
    await record('after (user)', () =>
      changeLog.after(0, { userId: 'user-1' }, 100),
    );
    await record('after (project)', () =>
      changeLog.after(0, { projectId: owner.id }, 100),
    );
    await record('bounds', () => changeLog.bounds());
    await record('purgeBatch', () => changeLog.purgeBatch(new Date(), 1000));
    write('change-log.repository', 'ChangeLog');
    const methods = repositoryMethods();
    const uncaptured = [
      ...methods.filter(
        (method) => !called.has(method) && !(method in METHODS_WITHOUT_SQL),
      ),
      ...Object.keys(METHODS_WITHOUT_SQL)
        .filter((method) => !methods.includes(method))
        .map((method) => `${method} (in METHODS_WITHOUT_SQL: no such method)`),
    ];
    return { files, uncaptured, silent };
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await scratch.drop();
  }
}

function render(dialect: Dialect, title: string, entries: Entry[]): string {
  const lines = [
    '-- Generated by `npm run sql:generate`; do not edit.',
    `-- The statements each ${title} method sends to ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, in order.`,
  ];
  for (const entry of entries) {
    lines.push('', `-- ${title}.${entry.name}`);
    for (const statement of entry.statements) {
      const formatted = formatSql(statement);
      // The layout may only move whitespace: what is reviewed is what runs.
      if (formatted.replace(/\s+/g, '') !== statement.replace(/\s+/g, '')) {
        throw new Error(`formatSql changed more than whitespace: ${statement}`);
      }
      lines.push(`${formatted};`);
    }
  }
  return `${lines.join('\n')}\n`;
}
