import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import type { Logger as TypeOrmLogger, QueryRunner } from 'typeorm';
import { LOGO_REQUEST } from '../../../support/asset-client';
import { DevImageApi, Replies } from '../../../support/fake-image-api';
import {
  cancelTask,
  LOGO_TASK_INPUT,
  startTask,
  waitForTask,
} from '../../../support/task-client';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Every writing path emits its event: the walk. The app runs with a
 * statement recorder on its DataSource; every write a project route shows
 * is made through the API (create, replayed create, PATCH, keep a logo,
 * keep a previewed one, delete an asset, tasks queued, run, failed and
 * cancelled, a choice made and undone, a brand kit made again, a project
 * deleted). Then:
 *
 * - every committed transaction that wrote a table a project route shows
 *   (projects, sections, agents, tasks, assets) also inserted its events
 *   into change_events, in that transaction;
 * - every such writing statement any repository method sends (the
 *   catalogue in sql/<dialect>/, which `npm run sql:generate` builds by
 *   calling every repository method) was sent during the walk: a new
 *   writing method is covered by the first check, or fails this one.
 *
 * Runs on SQLite and PostgreSQL.
 */

/** The tables whose rows the project routes answer. */
const SHOWN_TABLES = ['projects', 'sections', 'agents', 'tasks', 'assets'];

/**
 * Writes to those tables that change nothing a route shows, with why.
 */
const SILENT_WRITES: Array<{
  pattern: RegExp;
  why: string;
  /** Sent by a background pass over older rows, which the walk has none of. */
  background?: true;
}> = [
  {
    pattern: /^UPDATE "tasks" SET "leaseUntil"|^UPDATE "tasks" SET "runAfter"/,
    why: "the task engine's lease and schedule columns, which no route shows",
  },
  {
    pattern: /^UPDATE "projects" SET "version" = "version" WHERE/,
    why: 'ProjectScope.hold: a no-op UPDATE that only locks the row',
  },
  {
    pattern:
      /^UPDATE "assets" SET "width" = \S+, "height" = \S+ WHERE "id" = \S+ AND "width" IS NULL/,
    why: "the size backfill: an older image's width and height, unknown (null) until read from its bytes; no value a page held changes (docs/decisions.md)",
    background: true,
  },
];

/** A catalogued write only a background pass sends. */
const backgroundOnly = (statement: string) =>
  SILENT_WRITES.some(
    (silent) => silent.background && silent.pattern.test(statement),
  );

const WRITE = new RegExp(
  `^(INSERT INTO|UPDATE|DELETE FROM) "(${SHOWN_TABLES.join('|')})"`,
);
const EVENT_INSERT = /^INSERT INTO "change_events"/;

const normalized = (statement: string) =>
  statement
    .replace(/\s+/g, ' ')
    .replace(/\( /g, '(')
    .replace(/ \)/g, ')')
    .trim();

/**
 * A task's compare-and-set move that found the task moved on already (a
 * worker claiming a task cancelled meanwhile): its UPDATE changed no row,
 * and the runner then commits without another statement. A move that
 * changed the row is always followed by the statuses' refresh and the
 * version's advance, in the same transaction.
 */
const isMoveThatFoundNothing = (statements: string[]) => {
  const shown = statements.filter(writesShown);
  return (
    shown.length === 1 &&
    /^UPDATE "tasks" SET "status" = .* "status" IN \(/.test(shown[0]) &&
    statements.at(-1) === shown[0]
  );
};

const writesShown = (statement: string) =>
  WRITE.test(statement) &&
  !SILENT_WRITES.some(({ pattern }) => pattern.test(statement));

/** Groups the statements TypeORM sends into committed transactions. */
class TransactionRecorder implements TypeOrmLogger {
  readonly committed: string[][] = [];
  readonly seen = new Set<string>();
  private readonly open = new Map<unknown, string[]>();

  logQuery(query: string, _parameters?: unknown[], runner?: QueryRunner) {
    const text = normalized(query);
    const key = runner ?? 'autocommit';
    if (/^(BEGIN|START TRANSACTION)/i.test(text)) {
      this.open.set(key, []);
      return;
    }
    const group = this.open.get(key);
    if (/^COMMIT/i.test(text)) {
      if (group) this.committed.push(group);
      this.open.delete(key);
      return;
    }
    if (/^ROLLBACK/i.test(text)) {
      this.open.delete(key);
      return;
    }
    this.seen.add(text);
    if (group) group.push(text);
    else this.committed.push([text]);
  }
  logQueryError() {}
  logQuerySlow() {}
  logSchemaBuild() {}
  logMigration() {}
  log() {}
}

/** Every writing statement on a shown table in sql/<dialect>/, by method. */
function catalogueWrites(dialect: 'sqlite' | 'postgres'): Map<string, string> {
  const dir = join(__dirname, '..', '..', '..', '..', 'sql', dialect);
  const writes = new Map<string, string>();
  for (const file of readdirSync(dir)) {
    let method = '';
    for (const block of readFileSync(join(dir, file), 'utf8').split(/;\n/)) {
      const lines = block
        .split('\n')
        .filter((line) => {
          const heading = /^-- (\S+)/.exec(line);
          if (
            heading &&
            !line.startsWith('-- Generated') &&
            !line.startsWith('-- The statements')
          ) {
            method = heading[1];
          }
          return !line.startsWith('--');
        })
        .join(' ');
      const statement = normalized(lines);
      if (writesShown(statement)) writes.set(statement, method);
    }
  }
  return writes;
}

describe('Every write a project route shows records its change event (the walk)', () => {
  let images: DevImageApi;
  let t: TestApp;
  const recorder = new TransactionRecorder();

  beforeAll(async () => {
    images = await DevImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test-key-for-the-change-log-walk',
      IMAGE_API_URL: images.url,
      IMAGE_MODEL: 'gpt-image-2.5-sunburst',
      TASK_MAX_ATTEMPTS: '1',
      // A previewed logo's URL names this origin (supertest's changes).
      PUBLIC_BASE_URL: 'https://api.example.com',
    });
    // Read at every statement: set now, it sees everything that follows.
    (t.dataSource as unknown as { logger: TypeOrmLogger }).logger = recorder;

    const created = await request(t.server)
      .post('/api/projects')
      .set('Idempotency-Key', 'walk-create')
      .send({ name: 'Walk', userId: 'walker' })
      .expect(201);
    await request(t.server)
      .post('/api/projects')
      .set('Idempotency-Key', 'walk-create')
      .send({ name: 'Walk', userId: 'walker' })
      .expect(201);
    const project = created.body.project as {
      id: string;
      sections: Array<{ id: string; type: string }>;
    };
    const id = project.id;
    const logo = project.sections.find((section) => section.type === 'LOGO')!;
    await request(t.server)
      .patch(`/api/projects/${id}`)
      .send({ description: 'Walked' })
      .expect(200);
    await request(t.server)
      .patch(`/api/projects/${id}`)
      .send({ name: 'Walk on', description: 'Walking' })
      .expect(200);
    const current = await request(t.server)
      .get(`/api/projects/${id}`)
      .expect(200);
    await request(t.server)
      .patch(`/api/projects/${id}`)
      .set('If-Match', current.headers.etag)
      .send({ name: 'Walked on' })
      .expect(200);
    const kept = await request(t.server)
      .post(`/api/projects/${id}/logos`)
      .send(LOGO_REQUEST)
      .expect(201);
    const preview = await request(t.server)
      .post('/api/ai/generate-logo')
      .send({ projectId: id, ...LOGO_REQUEST })
      .expect(200);
    await request(t.server)
      .post(`/api/projects/${id}/logos`)
      .send({ logoUrl: (preview.body as { logoUrl: string }).logoUrl })
      .expect(201);
    const task = await startTask(t, id, {
      type: 'logo',
      input: LOGO_TASK_INPUT,
    });
    expect((await waitForTask(t, id, task.id)).status).toBe('SUCCEEDED');
    images.respondNext(Replies.error(400, 'Invalid prompt'));
    const failing = await startTask(t, id, {
      type: 'logo',
      input: LOGO_TASK_INPUT,
    });
    expect((await waitForTask(t, id, failing.id)).status).toBe('FAILED');
    images.respondWith(Replies.slow(Replies.image(), 5_000));
    const cancelled = await startTask(t, id, {
      type: 'logo',
      input: LOGO_TASK_INPUT,
    });
    await cancelTask(t, id, cancelled.id).expect(200);
    images.respondWith(Replies.image());
    const assetId = (kept.body as { asset: { id: string } }).asset.id;
    const selection = `/api/projects/${id}/sections/${logo.id}/selection`;
    await request(t.server).put(selection).send({ assetId }).expect(200);
    await request(t.server).delete(selection).expect(200);
    await request(t.server).put(selection).send({ assetId }).expect(200);
    // A brand kit made twice: the second kit's files replace the first's.
    for (let kit = 0; kit < 2; kit++) {
      const made = await startTask(t, id, { type: 'brand-kit', input: {} });
      expect((await waitForTask(t, id, made.id)).status).toBe('SUCCEEDED');
    }
    await request(t.server)
      .delete(`/api/projects/${id}/assets/${assetId}`)
      .expect(200);
    await request(t.server).delete(`/api/projects/${id}`).expect(200);
    // The cancelled task's worker settles after its upstream call closes.
    await new Promise((resolve) => setTimeout(resolve, 500));
  });
  afterAll(async () => {
    await t?.close();
    await images?.close();
  });

  it('writes change events in every committed transaction that changes what a project route shows', () => {
    const writing = recorder.committed.filter(
      (statements) =>
        statements.some(writesShown) && !isMoveThatFoundNothing(statements),
    );
    expect(writing.length).toBeGreaterThan(10);
    const silent = writing.filter(
      (statements) =>
        !statements.some((statement) => EVENT_INSERT.test(statement)),
    );
    expect(silent).toEqual([]);
  });

  it('sends, during the walk, every writing statement of every repository method (sql/ catalogue)', () => {
    const dialect =
      t.dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
    const catalogue = catalogueWrites(dialect);
    expect(catalogue.size).toBeGreaterThan(5);
    const unwalked = [...catalogue]
      .filter(
        ([statement]) =>
          !recorder.seen.has(statement) && !backgroundOnly(statement),
      )
      .map(([statement, method]) => `${method}: ${statement}`);
    expect(unwalked).toEqual([]);
  });
});
