import type Sharp from 'sharp';
import { MAX_DECODED_PIXELS } from '../../image-store/image-dimensions';
import { sharpModule } from './sharp-module';

/**
 * The largest input an image operation decodes: 4096×4096, the same bound
 * answered images are checked against before they are kept. Kept logos are
 * at most 2048 pixels a side (the image model's largest size); a larger
 * (or forged) header is refused before its pixels are decoded.
 */
export const MAX_INPUT_PIXELS = MAX_DECODED_PIXELS;

/**
 * Image operations running at once in this process. sharp works in libuv's
 * thread pool, off the event loop; two at a time leaves the pool's other
 * threads to file and DNS work and bounds the memory decoded images take.
 */
const MAX_RUNNING = 2;

let running = 0;
const waiting: Array<() => void> = [];

/** Runs `work` when fewer than MAX_RUNNING image operations are running. */
export async function inImageTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) {
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await work();
  } finally {
    // The turn passes straight to the next waiter, or is given back.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** A decoder for `input`, bounded in pixels. */
export function decode(input: Buffer): Sharp.Sharp {
  return sharpModule()(input, { limitInputPixels: MAX_INPUT_PIXELS });
}

/**
 * A square PNG `size` pixels a side: the image contained, padding
 * transparent. The caller holds an image turn (inImageTurn), inside which
 * it also reads `input`: bytes are read only once they can be worked on.
 */
export function squarePng(input: Buffer, size: number): Promise<Buffer> {
  return decode(input)
    .resize(size, size, {
      fit: 'contain',
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
    .png()
    .toBuffer();
}
