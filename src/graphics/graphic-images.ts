import { decode, inImageTurn } from '../assets/renditions/image-work';

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

/** A logo as a PNG `side` pixels square, contained, padding transparent. */
export function logoPngOf(logo: Buffer, side: number): Promise<Buffer> {
  return inImageTurn(() =>
    decode(logo)
      .resize(side, side, { fit: 'contain', background: TRANSPARENT })
      .png()
      .toBuffer(),
  );
}

/**
 * A picture made exactly `width`×`height`: scaled to cover the frame and
 * cropped around its centre (a model draws at the sizes it takes).
 */
export function coverPngOf(
  picture: Buffer,
  width: number,
  height: number,
): Promise<Buffer> {
  return inImageTurn(() =>
    decode(picture)
      .resize(width, height, { fit: 'cover', position: 'centre' })
      .png()
      .toBuffer(),
  );
}
