import type { Readable } from 'node:stream';
import { Database } from '../../database/database.service';
import { readInSlices } from '../../database/slice-reader';
import { AssetsRepository } from '../assets.repository';
import {
  AssetBytes,
  type AssetContent,
  type AssetRef,
  type RowWriter,
} from './asset-bytes';

/** Bytes read per statement while serving: the memory one response holds. */
export const CONTENT_CHUNK_BYTES = 256 * 1024;

/**
 * ASSET_STORE=database: the bytes in asset_contents, written in the
 * transaction of their row and deleted with it (ON DELETE CASCADE), so a
 * row never exists without its bytes nor bytes without their row.
 */
export class DatabaseAssetBytes extends AssetBytes {
  readonly kind = 'database';

  constructor(
    private readonly db: Database,
    private readonly rows: AssetsRepository,
  ) {
    super();
  }

  keep(content: AssetContent, writeRow: RowWriter): Promise<void> {
    return this.db.largeTransaction(async (transaction) => {
      await writeRow(transaction);
      await this.rows.insertContent(
        transaction,
        content.assetId,
        content.bytes,
      );
    });
  }

  open(ref: AssetRef, byteSize: number): Promise<Readable | null> {
    return Promise.resolve(
      readInSlices(byteSize, CONTENT_CHUNK_BYTES, (offset, length) =>
        this.rows.readContentSlice(ref.assetId, offset, length),
      ),
    );
  }

  forget(): Promise<void> {
    // The rows' deletion took their bytes with it.
    return Promise.resolve();
  }
}
