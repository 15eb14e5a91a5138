import type Sharp from 'sharp';

let loaded: typeof Sharp | undefined;

/**
 * sharp, loaded on first use. Loading it (its JavaScript and libvips, a
 * native library) took about 25 ms of every start, before readiness, in a
 * process that may not touch an image for minutes; the first image
 * operation pays it instead.
 */
export function sharpModule(): typeof Sharp {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('sharp') as typeof Sharp;
  return loaded;
}
