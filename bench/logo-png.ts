import { writeFileSync } from 'node:fs';
import { encodePng } from '../dev-servers/image-api/png-encoder';

/**
 * The PNG the image API stand-in answers as base64 and the asset scenarios
 * keep and serve: 1024 × 1024, about 1.5 MB, the size of a generated
 * logo from an image model. Noise fills the first rows (deflate cannot
 * shrink it) and a flat colour the rest, so the file lands near its size
 * while every byte is a real PNG the service's sniffing accepts.
 */

const SIDE = 1024;
export const LOGO_PNG_TARGET_BYTES = 1.5 * 2 ** 20;

/** A fixed xorshift sequence: every run keeps and serves the same bytes. */
function noise(bytes: Buffer): void {
  let state = 0x2545f491;
  for (let i = 0; i < bytes.length; i += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
}

export function makeLogoPng(): Buffer {
  const rgba = Buffer.alloc(SIDE * SIDE * 4, 0xff);
  // Each noisy row costs its full 4 KiB plus deflate's few bytes per block.
  noise(rgba.subarray(0, Math.floor(LOGO_PNG_TARGET_BYTES / 4096) * 4096));
  return encodePng(SIDE, SIDE, rgba);
}

/** Writes the PNG to `file`; its size in bytes. */
export function writeLogoPng(file: string): number {
  const png = makeLogoPng();
  writeFileSync(file, png);
  return png.length;
}
