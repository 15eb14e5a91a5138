import { Readable } from 'node:stream';

/** One slice of stored bytes, or null once they are gone. */
export type SliceRead = (
  offset: number,
  length: number,
) => Promise<Buffer | null>;

/**
 * A stream of `size` stored bytes read `chunkBytes` per statement, only as
 * fast as it is consumed, so serving a large BLOB or bytea holds one chunk
 * in memory, not the whole value. It fails if the bytes disappear (a
 * delete, an expiry) while they are being read.
 */
export function readInSlices(
  size: number,
  chunkBytes: number,
  readSlice: SliceRead,
): Readable {
  let offset = 0;
  const body = new Readable({
    highWaterMark: chunkBytes,
    read: () => {
      if (offset >= size) {
        body.push(null);
        return;
      }
      readSlice(offset, Math.min(chunkBytes, size - offset))
        .then((chunk) => {
          if (!chunk || chunk.length === 0) {
            body.destroy(new Error('The bytes went away while they were read'));
            return;
          }
          offset += chunk.length;
          body.push(chunk);
        })
        .catch((error: unknown) =>
          body.destroy(
            error instanceof Error ? error : new Error(String(error)),
          ),
        );
    },
  });
  return body;
}
