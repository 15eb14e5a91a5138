import {
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { S3AssetBytes } from '../../src/assets/asset-bytes/s3-asset-bytes';
import { s3Env } from '../support/asset-stores';
import {
  S3_SERVER_CREDENTIALS,
  S3_SERVER_REGION,
  startS3Server,
} from '../support/s3-server';
import type { StoredAssets } from '../support/stored-assets';

/**
 * The byte stores the kept-logo crash check runs against. Each says what
 * the server needs to use it and how to tell, after a kill, that no row
 * names missing bytes and no bytes outlive their row.
 */
export interface AssetStoreUnderTest {
  name: string;
  /** Starts whatever the store needs (a bucket) for one describe block. */
  open(): Promise<OpenedAssetStore>;
}

export interface OpenedAssetStore {
  /** The server's variables for this store. */
  env: Record<string, string>;
  /** With the server killed: rows without bytes, bytes without rows. */
  problems(stored: StoredAssets): Promise<string[]>;
  /**
   * With the server restarted once more and idle, before the suite ends;
   * `readRows` reads the database afresh.
   */
  afterRestart(readRows: () => Promise<StoredAssets>): Promise<string[]>;
  /** A figure for the report (objects swept, say), or ''. */
  summary(): string;
  close(): Promise<void>;
}

/**
 * ASSET_STORE=database: the bytes are in asset_contents, written in the
 * transaction of their row, so every row has exactly its bytes and no
 * asset_contents row is without its asset, whenever the process died.
 */
const databaseStore: AssetStoreUnderTest = {
  name: 'database',
  open: () =>
    Promise.resolve({
      env: { ASSET_STORE: 'database' },
      problems: (stored) => {
        const problems: string[] = [];
        for (const asset of stored.assets) {
          if (!asset.content) {
            problems.push(`asset ${asset.id} has no asset_contents row`);
          } else if (
            asset.content.length !== asset.byteSize ||
            asset.content.sha256 !== asset.sha256
          ) {
            problems.push(
              `asset ${asset.id}'s stored bytes (${asset.content.length} B, sha256 ${asset.content.sha256.slice(0, 12)}…) are not the ${asset.byteSize} B, sha256 ${asset.sha256.slice(0, 12)}… its row describes`,
            );
          }
        }
        for (const id of stored.contentsWithoutAsset) {
          problems.push(`asset_contents row ${id} has no asset`);
        }
        return Promise.resolve(problems);
      },
      afterRestart: () => Promise.resolve([]),
      summary: () => '',
      close: () => Promise.resolve(),
    }),
};

/** The sweep's grace period the server runs with (the least it allows). */
const SWEEP_GRACE_S = 60;
const PREFIX = 'assets/';

/**
 * ASSET_STORE=s3 against a real S3-protocol server: the object is written
 * before its row, so every row names an object holding its bytes, whenever
 * the process died. An object without a row (a kill between the two, or
 * between a delete's commit and the object's removal) is left for the
 * sweep: after the last restart, a sweep at the real time deletes nothing
 * a row names, and one with its clock past the grace period (the server's
 * runs every ten minutes, past 60 s at the least) deletes exactly the
 * orphans.
 */
const s3Store: AssetStoreUnderTest = {
  name: 's3',
  open: async () => {
    const server = await startS3Server();
    const client = new S3Client({
      endpoint: server.endpoint,
      region: S3_SERVER_REGION,
      forcePathStyle: true,
      credentials: {
        accessKeyId: S3_SERVER_CREDENTIALS.AWS_ACCESS_KEY_ID,
        secretAccessKey: S3_SERVER_CREDENTIALS.AWS_SECRET_ACCESS_KEY,
      },
    });
    /** Keys whose bytes were hashed already (an object never changes). */
    const verified = new Set<string>();
    let orphansSeen = 0;
    let swept = 0;
    const keyOf = (asset: { projectId: string; id: string }) =>
      `${PREFIX}${asset.projectId}/${asset.id}`;
    const sha256Of = async (key: string) => {
      const object = await client.send(
        new GetObjectCommand({ Bucket: server.bucket, Key: key }),
      );
      const bytes = Buffer.from(await object.Body!.transformToByteArray());
      return {
        length: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      };
    };
    /** The deployment the first object's metadata names (one app wrote them all). */
    const deploymentOfAnObject = async () => {
      const [key] = await server.objectKeys();
      const head = await client.send(
        new HeadObjectCommand({ Bucket: server.bucket, Key: key }),
      );
      return head.Metadata?.deployment ?? 'none';
    };
    /** Rows whose object is missing or other than the row says. */
    const rowProblems = async (stored: StoredAssets) => {
      const keys = new Set(await server.objectKeys());
      const problems: string[] = [];
      for (const asset of stored.assets) {
        const key = keyOf(asset);
        if (!keys.has(key)) {
          problems.push(`asset ${asset.id} has no object`);
          continue;
        }
        if (verified.has(key)) continue;
        const held = await sha256Of(key);
        if (held.length !== asset.byteSize || held.sha256 !== asset.sha256) {
          problems.push(`asset ${asset.id}'s object is not its bytes`);
        } else {
          verified.add(key);
        }
      }
      const named = new Set(stored.assets.map(keyOf));
      return {
        problems,
        keys,
        orphans: [...keys].filter((k) => !named.has(k)),
      };
    };
    return {
      env: { ...s3Env(server), ASSET_S3_SWEEP_GRACE_S: String(SWEEP_GRACE_S) },
      problems: async (stored) => {
        const { problems, orphans } = await rowProblems(stored);
        orphansSeen = Math.max(orphansSeen, orphans.length);
        return problems;
      },
      afterRestart: async (readRows) => {
        const sweeper = new S3AssetBytes(
          client,
          {
            bucket: server.bucket,
            prefix: PREFIX,
            sweepGraceMs: SWEEP_GRACE_S * 1000,
            sweepIntervalMs: 0,
            requestTimeoutMs: 10_000,
            sweepMaxDurationMs: 60_000,
          },
          {
            existingAssetIds: async (ids) => {
              const rows = new Set((await readRows()).assets.map((a) => a.id));
              return new Set(ids.filter((id) => rows.has(id)));
            },
          },
          // The app's deployment, as its objects' metadata names it.
          { id: () => deploymentOfAnObject() },
        );
        const before = await rowProblems(await readRows());
        const problems = [...before.problems];
        // At the real time: nothing a row names goes, young orphans stay.
        swept += await sweeper.sweepOrphans();
        // As if the grace period had passed: every orphan goes.
        swept += await sweeper.sweepOrphans(
          Date.now() + (SWEEP_GRACE_S + 1) * 1000,
        );
        const after = await rowProblems(await readRows());
        problems.push(...after.problems);
        if (after.orphans.length > 0) {
          problems.push(
            `${after.orphans.length} objects without a row outlived the sweep`,
          );
        }
        if (swept !== before.orphans.length) {
          problems.push(
            `the sweep deleted ${swept} objects, not the ${before.orphans.length} orphans`,
          );
        }
        return problems;
      },
      summary: () =>
        `, at most ${orphansSeen} objects without a row after a kill, ${swept} swept at the end`,
      close: async () => {
        client.destroy();
        await server.close();
      },
    };
  },
};

export const ASSET_STORES: Array<[string, AssetStoreUnderTest]> = [
  ['database', databaseStore],
  ['s3', s3Store],
];
