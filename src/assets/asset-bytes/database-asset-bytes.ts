import type { Readable } from 'node:stream';
import { Database } from '../../database/database.service';
import { readInSlices } from '../../database/slice-reader';
import { ASSET_PART_BYTES, AssetsRepository } from '../assets.repository';
import {
  AssetBytes,
  type AssetContent,
  type AssetRef,
  type StagedBytes,
} from './asset-bytes';

/**
 * ASSET_STORE=database: the bytes in asset_contents, in parts of
 * ASSET_PART_BYTES, written in the transaction of their row and deleted with it (ON DELETE CASCADE), so a
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

  stage(content: AssetContent): Promise<StagedBytes> {
    return Promise.resolve({
      large: true,
      writeIn: (transaction) =>
        this.rows.insertContent(transaction, content.assetId, content.bytes),
      // Written in the row's transaction, the bytes went with its rollback.
      discard: () => Promise.resolve(),
    });
  }

  async open(ref: AssetRef, byteSize: number): Promise<Readable | null> {
    if ((await this.rows.countContentParts(ref.assetId)) === 0) return null;
    // Slices of exactly one part each: the part a slice starts in.
    return readInSlices(byteSize, ASSET_PART_BYTES, (offset) =>
      this.rows.readContentPart(ref.assetId, offset / ASSET_PART_BYTES),
    );
  }

  forget(): Promise<void> {
    // The rows' deletion took their bytes with it.
    return Promise.resolve();
  }
}
