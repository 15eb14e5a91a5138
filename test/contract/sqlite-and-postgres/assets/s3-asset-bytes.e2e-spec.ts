import {
  DeleteObjectsCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Logger } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import type { AssetContent } from '../../../../src/assets/asset-bytes/asset-bytes';
import {
  createS3Client,
  S3AssetBytes,
  type S3AssetSettings,
} from '../../../../src/assets/asset-bytes/s3-asset-bytes';
import { assetsConfig } from '../../../../src/assets/assets.config';
import { Database, managerOf } from '../../../../src/database/database.service';
import { CapturingLogger } from '../../../support/capturing-logger';
import {
  S3_SERVER_CREDENTIALS,
  S3_SERVER_REGION,
  startS3Server,
  type S3Server,
} from '../../../support/s3-server';

const PREFIX = 'assets/';
const GRACE_MS = 60_000;
/** A `now` at which every object written by the test is past its grace. */
const later = () => Date.now() + 2 * GRACE_MS;

let server: S3Server;
let client: S3Client;
let dataSource: DataSource;
let db: Database;
let databaseDir: string;
let logs: CapturingLogger;
const savedEnv: Record<string, string | undefined> = {};

function settings(overrides: Partial<S3AssetSettings> = {}): S3AssetSettings {
  return {
    bucket: server.bucket,
    prefix: PREFIX,
    sweepGraceMs: GRACE_MS,
    sweepIntervalMs: 60_000,
    requestTimeoutMs: 10_000,
    sweepMaxDurationMs: 60_000,
    ...overrides,
  };
}

/** Asset rows as the sweep sees them: a table of ids. */
const rows = {
  async existingAssetIds(ids: readonly string[]): Promise<Set<string>> {
    const found = await db.read((manager) =>
      manager.query<{ id: string }[]>(
        `SELECT id FROM asset WHERE id IN (${ids.map(() => '?').join(',')})`,
        [...ids],
      ),
    );
    return new Set(found.map((row) => row.id));
  },
};

/** This test's deployment: the identity its objects carry. */
const DEPLOYMENT = 'deployment-under-test';
/** Deletions as the store reports them to its counter. */
const deletions: Array<{ reason: string; count: number }> = [];

function store(
  overrides: Partial<S3AssetSettings> = {},
  deployment = DEPLOYMENT,
): S3AssetBytes {
  return new S3AssetBytes(
    client,
    settings(overrides),
    rows,
    { id: () => Promise.resolve(deployment) },
    (reason, count) => deletions.push({ reason, count }),
  );
}

function content(bytes = randomBytes(64)): AssetContent {
  return {
    assetId: randomUUID(),
    projectId: randomUUID(),
    contentType: 'image/png',
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

const keyOf = (asset: { projectId: string; assetId: string }) =>
  `${PREFIX}${asset.projectId}/${asset.assetId}`;

const insertRow =
  (asset: AssetContent) =>
  async (transaction: Parameters<typeof managerOf>[0]) => {
    await managerOf(transaction).query(
      'INSERT INTO asset (id, project_id) VALUES (?, ?)',
      [asset.assetId, asset.projectId],
    );
  };

/**
 * Stores an asset as AssetsService does: the store's first step, then the
 * row (and the store's part of it) in one transaction, the bytes discarded
 * when that transaction fails.
 */
async function keep(
  bytes: S3AssetBytes,
  asset: AssetContent,
  writeRow: (transaction: Parameters<typeof managerOf>[0]) => Promise<void>,
): Promise<void> {
  const staged = await bytes.stage(asset);
  try {
    await db.transaction(async (transaction) => {
      await writeRow(transaction);
      await staged.writeIn(transaction);
    });
  } catch (error) {
    await staged.discard();
    throw error;
  }
}

/** An object put straight into the bucket, with no row (by default, as this deployment's). */
async function putObject(
  key: string,
  body = Buffer.from('x'),
  deployment: string | null = DEPLOYMENT,
): Promise<void> {
  await client.send(
    new PutObjectCommand({
      Bucket: server.bucket,
      Key: key,
      Body: body,
      Metadata: deployment === null ? {} : { deployment },
    }),
  );
}

async function rowExists(assetId: string): Promise<boolean> {
  return (await rows.existingAssetIds([assetId])).has(assetId);
}

async function readAll(stream: Readable): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return chunks;
}

beforeAll(async () => {
  // The store's client takes its credentials from the SDK's default chain.
  for (const [name, value] of Object.entries(S3_SERVER_CREDENTIALS)) {
    savedEnv[name] = process.env[name];
    process.env[name] = value;
  }
  logs = new CapturingLogger();
  Logger.overrideLogger(logs);
  server = await startS3Server();
  client = createS3Client({
    endpoint: server.endpoint,
    region: S3_SERVER_REGION,
    forcePathStyle: true,
  });
  databaseDir = mkdtempSync(join(tmpdir(), 'workspace-s3-assets-'));
  dataSource = new DataSource({
    type: 'better-sqlite3',
    database: join(databaseDir, 'assets.db'),
  });
  await dataSource.initialize();
  await dataSource.query(
    'CREATE TABLE asset (id TEXT PRIMARY KEY, project_id TEXT NOT NULL)',
  );
  db = new Database(dataSource);
});

afterAll(async () => {
  client?.destroy();
  await server?.close();
  if (dataSource?.isInitialized) await dataSource.destroy();
  if (databaseDir) rmSync(databaseDir, { recursive: true, force: true });
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

beforeEach(() => {
  logs.lines.length = 0;
  deletions.length = 0;
});

describe('keep', () => {
  it('writes the object before the row, under prefix/projectId/assetId', async () => {
    const asset = content();
    let keysWhenRowWritten: string[] = [];
    await keep(store(), asset, async (transaction) => {
      keysWhenRowWritten = await server.objectKeys();
      await insertRow(asset)(transaction);
    });

    expect(keysWhenRowWritten).toContain(keyOf(asset));
    expect(await rowExists(asset.assetId)).toBe(true);
  });

  it('stores the content type, length and SHA-256 with the object', async () => {
    const asset = content(randomBytes(1000));
    await keep(store(), asset, insertRow(asset));

    const head = await client.send(
      new HeadObjectCommand({ Bucket: server.bucket, Key: keyOf(asset) }),
    );
    expect(head.ContentType).toBe('image/png');
    expect(head.ContentLength).toBe(1000);
    expect(head.Metadata).toEqual({
      sha256: asset.sha256,
      deployment: DEPLOYMENT,
    });
  });

  it("deletes the object again when the row fails, and rejects with the row's error", async () => {
    const asset = content();
    const refused = new Error('the row was refused');

    await expect(
      keep(store(), asset, async (transaction) => {
        await insertRow(asset)(transaction);
        throw refused;
      }),
    ).rejects.toBe(refused);

    expect(await server.objectKeys()).not.toContain(keyOf(asset));
    expect(await rowExists(asset.assetId)).toBe(false);
  });

  it('writes no row when the object cannot be written', async () => {
    const asset = content();
    const writeRow = jest.fn(insertRow(asset));

    await expect(
      keep(store({ bucket: 'no-such-bucket' }), asset, writeRow),
    ).rejects.toMatchObject({
      status: 503,
      code: 'asset_storage_unavailable',
      logDetail: expect.stringMatching(/NoSuchBucket/),
    });

    expect(writeRow).not.toHaveBeenCalled();
    expect(await rowExists(asset.assetId)).toBe(false);
  });
});

describe('open', () => {
  it('streams the exact bytes of a 1.5 MB asset, a chunk at a time', async () => {
    const asset = content(randomBytes(1_500_000));
    await keep(store(), asset, insertRow(asset));

    const stream = await store().open(asset, asset.bytes.length);

    expect(stream).not.toBeNull();
    const chunks = await readAll(stream!);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(asset.bytes)).toBe(true);
  });

  it('answers null for an asset whose object is missing', async () => {
    const asset = content();

    expect(await store().open(asset, asset.bytes.length)).toBeNull();
  });

  it('refuses an object whose size differs from the size its row records', async () => {
    const asset = content(randomBytes(100));
    await keep(store(), asset, insertRow(asset));

    await expect(store().open(asset, 101)).rejects.toThrow(
      /holds 100 bytes where its row says 101/,
    );
  });
});

describe('forget', () => {
  it("deletes the assets' objects", async () => {
    const kept = content();
    const forgotten = [content(), content()];
    for (const asset of [kept, ...forgotten]) {
      await keep(store(), asset, insertRow(asset));
    }

    await store().forget(forgotten);

    const keys = await server.objectKeys();
    expect(keys).toContain(keyOf(kept));
    for (const asset of forgotten) expect(keys).not.toContain(keyOf(asset));
  });

  it('deletes more objects than one request may name, 1000 keys at most per request', async () => {
    const projectId = randomUUID();
    const refs = Array.from({ length: 1001 }, () => ({
      projectId,
      assetId: randomUUID(),
    }));
    // Objects on both sides of the first batch's end; the others' keys name no object.
    const stored = [refs[0], refs[999], refs[1000]].map(keyOf);
    await putAll(stored);
    const send = jest.spyOn(client, 'send');

    try {
      await store().forget(refs);

      const batches = send.mock.calls
        .map(([command]) => command)
        .filter((command) => command instanceof DeleteObjectsCommand)
        .map((command) => command.input.Delete?.Objects?.length);
      expect(batches).toEqual([1000, 1]);
    } finally {
      send.mockRestore();
    }
    const keys = await server.objectKeys();
    for (const key of stored) expect(keys).not.toContain(key);
  });

  it('logs a failed delete instead of throwing, naming no credentials', async () => {
    await expect(
      store({ bucket: 'no-such-bucket' }).forget([content()]),
    ).resolves.toBeUndefined();

    const warnings = logs.lines.filter((line) => /Deleting/.test(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/NoSuchBucket/);
    expect(warnings[0]).not.toContain(
      S3_SERVER_CREDENTIALS.AWS_SECRET_ACCESS_KEY,
    );
  });
});

describe('sweepOrphans', () => {
  /** A prefix of its own, so that one test's objects are not another's orphans. */
  const isolated = () => {
    const prefix = `${PREFIX}${randomUUID()}/`;
    return { prefix, sweeper: store({ prefix }) };
  };

  it('deletes an orphan older than the grace period', async () => {
    const { prefix, sweeper } = isolated();
    const orphan = `${prefix}${randomUUID()}/${randomUUID()}`;
    await putObject(orphan);

    expect(await sweeper.sweepOrphans(later())).toBe(1);
    expect(await server.objectKeys()).not.toContain(orphan);
  });

  it('keeps an orphan younger than the grace period', async () => {
    const { prefix, sweeper } = isolated();
    const orphan = `${prefix}${randomUUID()}/${randomUUID()}`;
    await putObject(orphan);

    expect(await sweeper.sweepOrphans(Date.now())).toBe(0);
    expect(await server.objectKeys()).toContain(orphan);
  });

  it('keeps an object whose asset has a row, however old', async () => {
    const { prefix, sweeper } = isolated();
    const asset = content();
    await keep(sweeper, asset, insertRow(asset));
    const key = `${prefix}${asset.projectId}/${asset.assetId}`;

    expect(await sweeper.sweepOrphans(later())).toBe(0);
    expect(await server.objectKeys()).toContain(key);
  });

  it('leaves alone keys that are not shaped projectId/assetId', async () => {
    const { prefix, sweeper } = isolated();
    const foreign = [
      `${prefix}loose-file`,
      `${prefix}a/b/c`,
      `${prefix}project/`,
    ];
    for (const key of foreign) await putObject(key);

    expect(await sweeper.sweepOrphans(later())).toBe(0);
    expect(await server.objectKeys()).toEqual(expect.arrayContaining(foreign));
  });

  it('reaches orphans beyond the first page of 1000 keys', async () => {
    const { prefix, sweeper } = isolated();
    // Listing is in key order: rows for the first 1000 keys, an orphan after them.
    const projectId = randomUUID();
    const withRows = Array.from(
      { length: 1000 },
      (_, index) => `a-${String(index).padStart(4, '0')}`,
    );
    const orphan = `${prefix}${projectId}/z-orphan`;
    await putAll([
      ...withRows.map((id) => `${prefix}${projectId}/${id}`),
      orphan,
    ]);
    await db.transaction(async (transaction) => {
      for (const id of withRows) {
        await managerOf(transaction).query(
          'INSERT INTO asset (id, project_id) VALUES (?, ?)',
          [id, projectId],
        );
      }
    });

    expect(await sweeper.sweepOrphans(later())).toBe(1);
    expect(await server.objectKeys()).not.toContain(orphan);
  });
  it('logs a failed run instead of throwing', async () => {
    await expect(
      store({ bucket: 'no-such-bucket' }).sweepOrphans(later()),
    ).resolves.toBe(0);

    expect(logs.lines).toEqual([
      expect.stringMatching(/Sweeping orphan objects failed: NoSuchBucket/),
    ]);
  });

  it("never deletes another deployment's objects on the same bucket and prefix, and still deletes its own orphans", async () => {
    const { prefix, sweeper } = isolated();
    const theirs = `${prefix}${randomUUID()}/${randomUUID()}`;
    const ours = `${prefix}${randomUUID()}/${randomUUID()}`;
    await putObject(theirs, Buffer.from('x'), 'another-deployment');
    await putObject(ours);
    const other = store({ prefix }, 'another-deployment');

    expect(await sweeper.sweepOrphans(later())).toBe(1);
    expect(await other.sweepOrphans(later())).toBe(1);
    const keys = await server.objectKeys();
    expect(keys).not.toContain(theirs);
    expect(keys).not.toContain(ours);
  });

  it('leaves alone objects that carry no deployment (written before it, or by someone else)', async () => {
    const { prefix, sweeper } = isolated();
    const unmarked = `${prefix}${randomUUID()}/${randomUUID()}`;
    await putObject(unmarked, Buffer.from('x'), null);

    expect(await sweeper.sweepOrphans(later())).toBe(0);
    expect(await server.objectKeys()).toContain(unmarked);
    expect(logs.lines).toEqual([
      expect.stringMatching(/left 1 objects without a row alone/),
    ]);
  });

  it('logs every deleted object with its key and reason, and counts it', async () => {
    const { prefix, sweeper } = isolated();
    const orphan = `${prefix}${randomUUID()}/${randomUUID()}`;
    await putObject(orphan);
    const asset = content();
    await keep(sweeper, asset, insertRow(asset));

    await sweeper.sweepOrphans(later());
    await sweeper.forget([asset]);

    expect(logs.lines).toEqual([
      expect.stringContaining(
        `Deleted object ${orphan}: orphan: written by this deployment, older than the grace period, no asset row`,
      ),
      expect.stringContaining(
        `Deleted object ${prefix}${asset.projectId}/${asset.assetId}: its asset was deleted`,
      ),
    ]);
    expect(deletions).toEqual([
      { reason: 'orphan', count: 1 },
      { reason: 'asset_deleted', count: 1 },
    ]);
  });

  it('with ASSET_S3_PREFIX=logos (no slash), never touches logos-archive/…', async () => {
    const config = assetsConfig({
      ASSET_STORE: 's3',
      ASSET_S3_BUCKET: server.bucket,
      ASSET_S3_PREFIX: 'logos',
    }).store;
    const prefix = config.type === 's3' ? config.prefix : 'unused';
    // Shaped like an asset key under `logos`, and even marked as this deployment's.
    const archived = 'logos-archive/report.pdf';
    await putObject(archived);

    await store({ prefix }).sweepOrphans(later());

    expect(await server.objectKeys()).toContain(archived);
  });
});

/** Puts many small objects, a few requests at a time. */
async function putAll(keys: readonly string[]): Promise<void> {
  const pending = [...keys];
  const worker = async () => {
    for (let key = pending.pop(); key; key = pending.pop()) {
      await putObject(key);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

describe('start and stop', () => {
  const INTERVAL_MS = 1000;

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'Date'] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('sweeps every sweepIntervalMs from start() until stop(), one timer however often started', async () => {
    const sweeper = store({ sweepIntervalMs: INTERVAL_MS });
    const sweep = jest.spyOn(sweeper, 'sweepOrphans').mockResolvedValue(0);

    sweeper.start();
    sweeper.start();
    await jest.advanceTimersByTimeAsync(2 * INTERVAL_MS);
    sweeper.stop();
    await jest.advanceTimersByTimeAsync(2 * INTERVAL_MS);

    expect(sweep).toHaveBeenCalledTimes(2);
  });

  it('skips a tick while the previous sweep still runs', async () => {
    const sweeper = store({ sweepIntervalMs: INTERVAL_MS });
    let finish = () => {};
    const sweep = jest.spyOn(sweeper, 'sweepOrphans').mockImplementation(
      () =>
        new Promise((resolve) => {
          finish = () => resolve(0);
        }),
    );

    sweeper.start();
    await jest.advanceTimersByTimeAsync(3 * INTERVAL_MS);
    expect(sweep).toHaveBeenCalledTimes(1);

    finish();
    await jest.advanceTimersByTimeAsync(INTERVAL_MS);
    sweeper.stop();
    expect(sweep).toHaveBeenCalledTimes(2);
  });
});
