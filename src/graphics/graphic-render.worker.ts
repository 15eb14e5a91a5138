/**
 * The worker thread that draws graphics (see graphic-renderer.ts): an SVG
 * layout to a PNG by resvg, parse, fonts, rasterising and encoding alike.
 * On the main thread resvg's async render still handed the pixels back
 * there (a story's 8 MB read out in 60–70 ms) and its PNG encoder runs on
 * the calling thread; here they hold nothing but this thread, one graphic
 * at a time.
 *
 * It imports nothing of this repository, so the same file runs built
 * (dist/) and as TypeScript (Node strips its types when tests run the
 * sources); the render options (the bundled fonts' paths) come as its
 * workerData.
 */
import { parentPort, workerData } from 'node:worker_threads';
import resvg, { type ResvgRenderOptions } from '@resvg/resvg-js';

/** What the main thread sends: one SVG to draw. */
export interface RenderRequest {
  id: number;
  svg: string;
}

/** What it gets back: the PNG's bytes (transferred), or why there are none. */
export type RenderReply =
  { id: number; png: ArrayBuffer } | { id: number; error: string };

const options = workerData as ResvgRenderOptions;

parentPort?.on('message', ({ id, svg }: RenderRequest) => {
  let reply: RenderReply;
  const transfer: ArrayBuffer[] = [];
  try {
    const png = new resvg.Resvg(svg, options).render().asPng();
    // A copy of its own, so it can be transferred rather than copied again.
    const bytes = new Uint8Array(png).buffer;
    transfer.push(bytes);
    reply = { id, png: bytes };
  } catch (error) {
    reply = {
      id,
      error: error instanceof Error ? error.message : String(error),
    };
  }
  parentPort?.postMessage(reply, transfer);
});
