import { DeleteObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import type { TestApp } from './test-app';
import {
  S3_SERVER_CREDENTIALS,
  S3_SERVER_REGION,
  startS3Server,
  type S3Server,
} from './s3-server';

export type AssetStoreKind = 'database' | 's3';

/** Both stores: the asset suites run once with each. */
export const ASSET_STORES: AssetStoreKind[] = ['database', 's3'];

/** A store for a test app: its settings, and where its bytes can be seen. */
export interface AssetStoreUnderTest {
  kind: AssetStoreKind;
  /** The app's ASSET_* settings for this store. */
  env: Record<string, string>;
  /** How many assets' bytes the store holds. */
  storedCount(t: TestApp): Promise<number>;
  /** Empties the store (the database store empties with the database). */
  reset(): Promise<void>;
  /** Loses one asset's bytes behind the service's back (a broken store). */
  dropBytes(t: TestApp, assetId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The database store, or the S3 store against a real S3-protocol server
 * started here on 127.0.0.1. The SDK reads its credentials from the
 * environment when it first sends a request, so for an app in this process
 * they stay in process.env until close().
 */
export async function startAssetStore(
  kind: AssetStoreKind,
): Promise<AssetStoreUnderTest> {
  if (kind === 'database') {
    return {
      kind,
      env: { ASSET_STORE: 'database' },
      storedCount: async (t) => {
        const [row] = await t.dataSource.query<Array<{ n: number | string }>>(
          'SELECT COUNT(DISTINCT "assetId") AS "n" FROM "asset_contents"',
        );
        return Number(row.n);
      },
      reset: () => Promise.resolve(),
      dropBytes: async (t, assetId) => {
        await t.dataSource.query(
          t.dataSource.options.type === 'postgres'
            ? 'DELETE FROM "asset_contents" WHERE "assetId" = $1'
            : 'DELETE FROM "asset_contents" WHERE "assetId" = ?',
          [assetId],
        );
      },
      close: () => Promise.resolve(),
    };
  }
  const server: S3Server = await startS3Server();
  const saved = Object.fromEntries(
    Object.keys(S3_SERVER_CREDENTIALS).map((name) => [name, process.env[name]]),
  );
  Object.assign(process.env, S3_SERVER_CREDENTIALS);
  const deleteKeys = async (keys: string[]) => {
    if (keys.length === 0) return;
    const client = new S3Client({
      endpoint: server.endpoint,
      region: S3_SERVER_REGION,
      forcePathStyle: true,
      credentials: {
        accessKeyId: S3_SERVER_CREDENTIALS.AWS_ACCESS_KEY_ID,
        secretAccessKey: S3_SERVER_CREDENTIALS.AWS_SECRET_ACCESS_KEY,
      },
    });
    try {
      await client.send(
        new DeleteObjectsCommand({
          Bucket: server.bucket,
          Delete: { Objects: keys.map((Key) => ({ Key })) },
        }),
      );
    } finally {
      client.destroy();
    }
  };
  return {
    kind,
    env: s3Env(server),
    storedCount: async () => (await server.objectKeys()).length,
    reset: async () => deleteKeys(await server.objectKeys()),
    dropBytes: async (_t, assetId) =>
      deleteKeys(
        (await server.objectKeys()).filter((key) => key.endsWith(assetId)),
      ),
    close: async () => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await server.close();
    },
  };
}

/** The settings of an app (or a child process) storing in `server`. */
export function s3Env(server: S3Server): Record<string, string> {
  return {
    ASSET_STORE: 's3',
    ASSET_S3_BUCKET: server.bucket,
    ASSET_S3_ENDPOINT: server.endpoint,
    ASSET_S3_REGION: S3_SERVER_REGION,
    ASSET_S3_FORCE_PATH_STYLE: 'true',
    ...S3_SERVER_CREDENTIALS,
  };
}
