import { createHash } from 'node:crypto';

/** Hashed per turn of the event loop: about a millisecond of SHA-256. */
const SLICE_BYTES = 512 * 1024;

/**
 * Lowercase hex SHA-256 of `bytes`, a slice per turn of the event loop, so
 * hashing an image of several MB never holds the loop for long.
 */
export async function sha256Of(bytes: Buffer): Promise<string> {
  const hash = createHash('sha256');
  for (let offset = 0; offset < bytes.length; offset += SLICE_BYTES) {
    if (offset > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    hash.update(bytes.subarray(offset, offset + SLICE_BYTES));
  }
  return hash.digest('hex');
}
