import type { ServerProcess } from '../support/server-process';
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
  /** With the server restarted once more, before the suite ends. */
  afterRestart(server: ServerProcess): Promise<string[]>;
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
              `asset ${asset.id}'s stored bytes (${asset.content.length}) are not the ${asset.byteSize} its row describes`,
            );
          }
        }
        for (const id of stored.contentsWithoutAsset) {
          problems.push(`asset_contents row ${id} has no asset`);
        }
        return Promise.resolve(problems);
      },
      afterRestart: () => Promise.resolve([]),
      close: () => Promise.resolve(),
    }),
};

export const ASSET_STORES: Array<[string, AssetStoreUnderTest]> = [
  ['database', databaseStore],
];
