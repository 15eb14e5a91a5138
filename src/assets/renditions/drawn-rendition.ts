import { readKeptWireframe } from '../../wireframes/wireframe';
import {
  wireframePreviewPng,
  wireframePreviewSvg,
} from '../../wireframes/wireframe-preview';
import { squarePng } from './image-work';

/**
 * The rendition of an asset whose thumbnail is drawn from what it holds
 * (DRAWN_KINDS): a wireframe's preview, its longer side `size` pixels,
 * drawn by resvg off the event loop, then made square as every rendition
 * is. Throws when the bytes are not a wireframe.
 */
export async function drawnRendition(
  original: Buffer,
  size: number,
): Promise<Buffer> {
  const wireframe = readKeptWireframe(original);
  if (!wireframe) throw new Error('The asset is not a wireframe');
  const { width, height } = wireframePreviewSvg(wireframe);
  const drawnWidth = Math.max(
    1,
    Math.round(width >= height ? size : (size * width) / height),
  );
  return squarePng(await wireframePreviewPng(wireframe, drawnWidth), size);
}
