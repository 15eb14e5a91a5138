import { deflateSync } from 'node:zlib';
import { encodePngChunks } from './png-encoder';

/** The sides a pixel bomb's header claims. */
export const PIXEL_BOMB_SIDE = 50_000;

/**
 * A small, well-formed PNG whose header claims 50,000×50,000 pixels
 * (2.5 gigapixels, 10 GB once decoded as RGBA) while its data holds only
 * the first rows, all transparent: what a hostile or broken image API
 * could answer to make the service decode it. About 12 KB.
 */
export function pixelBombPng(side = PIXEL_BOMB_SIDE): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: truecolour with alpha
  // 60 rows of zeros (filter byte and pixels): ~12 MB that deflate to ~12 KB.
  const rows = Buffer.alloc(60 * (side * 4 + 1));
  return encodePngChunks(header, deflateSync(rows, { level: 9 }));
}
