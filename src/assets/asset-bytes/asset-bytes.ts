import type { Readable } from 'node:stream';
import type { Transaction } from '../../database/database.service';

/** Where one asset's bytes live: the asset and the project it belongs to. */
export interface AssetRef {
  assetId: string;
  projectId: string;
}

/** A new asset's bytes, checked (type by magic bytes, size) and hashed. */
export interface AssetContent extends AssetRef {
  contentType: string;
  bytes: Buffer;
  /** Lowercase hex SHA-256 of `bytes`. */
  sha256: string;
}

/**
 * A new asset's bytes once `stage` has run: what remains of storing them,
 * around the transaction that writes the asset's row.
 */
export interface StagedBytes {
  /**
   * Whether the row's transaction also writes the bytes (megabytes: run it
   * as Database.largeTransaction).
   */
  readonly large: boolean;
  /** In the row's transaction, after the row is written. */
  writeIn(transaction: Transaction): Promise<void>;
  /** The row's transaction failed: nothing of the bytes may stay. */
  discard(): Promise<void>;
}

/**
 * Where asset bytes are kept: the database (ASSET_STORE=database) or an
 * S3-compatible bucket (ASSET_STORE=s3). The rows are always in the
 * database; a store only decides where the bytes go and in which order the
 * two are written, so that no committed row ever names missing bytes.
 */
export abstract class AssetBytes {
  abstract readonly kind: 'database' | 's3';

  /**
   * The first step of storing `content`, before the transaction that
   * writes its row: the S3 store writes the object now (the row comes
   * second, and `discard` deletes the object when the row fails); the
   * database store writes nothing yet (`writeIn` writes the bytes in the
   * row's transaction). Rejects with AssetStorageUnavailableError when the
   * bytes cannot be stored. `signal`: the request's; storing stops when
   * its client leaves.
   */
  abstract stage(
    content: AssetContent,
    signal?: AbortSignal,
  ): Promise<StagedBytes>;

  /**
   * The bytes of a stored asset (`byteSize` long), read as they are
   * consumed so one response holds a bounded amount in memory; null when
   * they are missing.
   */
  abstract open(
    ref: AssetRef,
    byteSize: number,
    signal?: AbortSignal,
  ): Promise<Readable | null>;

  /**
   * Called after a commit deleted these assets' rows. The database store
   * has nothing to do (the rows' bytes went with them); the S3 store
   * deletes the objects, and its sweep catches any it could not.
   */
  abstract forget(refs: readonly AssetRef[]): Promise<void>;

  /**
   * Resolves when the store can take bytes now, else rejects with
   * AssetStorageUnavailableError: checked before the image model is paid,
   * and by readiness. The database store is the database readiness checks.
   */
  checkReachable(): Promise<void> {
    return Promise.resolve();
  }

  /** Starts the store's background work, if it has any (the S3 sweep). */
  start(): void {}

  /** Stops it, at shutdown. */
  stop(): void {}
}
