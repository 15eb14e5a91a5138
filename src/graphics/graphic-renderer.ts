import { readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ResvgRenderOptions } from '@resvg/resvg-js';
import { inImageTurn } from '../assets/renditions/image-work';
import { HEADLINE_FONT } from './graphic-layout';
import type { RenderReply, RenderRequest } from './graphic-render.worker';

const FONT_DIR = join(
  dirname(require.resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
);

/**
 * The bundled fonts only: the host's fonts never change what is drawn, so
 * a graphic looks the same on every machine (and in the container).
 */
export const RENDER_OPTIONS: ResvgRenderOptions = {
  font: {
    loadSystemFonts: false,
    fontFiles: [
      join(FONT_DIR, 'DejaVuSans.ttf'),
      join(FONT_DIR, 'DejaVuSans-Bold.ttf'),
    ],
    defaultFontFamily: HEADLINE_FONT,
    sansSerifFamily: HEADLINE_FONT,
  },
  fitTo: { mode: 'original' },
  logLevel: 'off',
};

/** What draws a composed graphic, as its asset's `model` tells it. */
export const RENDERER = `resvg ${
  (
    JSON.parse(
      readFileSync(require.resolve('@resvg/resvg-js/package.json'), 'utf8'),
    ) as { version: string }
  ).version
}`;

/** The worker thread ends itself when its heap passes this (an SVG and a PNG). */
const WORKER_HEAP_MB = 128;

/** The renderer worker died while it held these graphics. */
export class GraphicRenderFailure extends Error {}

interface Waiting {
  resolve: (png: Buffer) => void;
  reject: (error: Error) => void;
}

/** An idle worker stops after this; the next graphic starts another. */
const WORKER_IDLE_MS = 10_000;

let worker: Worker | undefined;
const waiting = new Map<number, Waiting>();
let nextId = 1;
let idleTimer: NodeJS.Timeout | undefined;

/** Stops the renderer worker (at shutdown); what it held fails. */
export async function stopGraphicRenderer(): Promise<void> {
  clearTimeout(idleTimer);
  const running = worker;
  worker = undefined;
  await running?.terminate();
}

/** Once nothing waits: the worker stops after WORKER_IDLE_MS. */
function settled(): void {
  if (waiting.size > 0) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => void stopGraphicRenderer(), WORKER_IDLE_MS);
  idleTimer.unref();
}

/** The one renderer worker of this process, started when first needed. */
function rendererWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(
    // The built .js in dist/, the .ts source when tests run the sources.
    join(__dirname, `graphic-render.worker${extname(__filename)}`),
    {
      workerData: RENDER_OPTIONS,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    },
  );
  // It never keeps the process alive by itself.
  started.unref();
  started.on('message', (reply: RenderReply) => {
    const entry = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (!entry) return;
    if ('png' in reply) entry.resolve(Buffer.from(reply.png));
    else entry.reject(new GraphicRenderFailure(reply.error));
    settled();
  });
  const fail = (error: Error) => {
    // Whatever it held fails; the next graphic starts a new worker.
    if (worker === started) worker = undefined;
    for (const entry of waiting.values()) {
      entry.reject(new GraphicRenderFailure(error.message));
    }
    waiting.clear();
    settled();
  };
  started.on('error', fail);
  started.on('exit', () => fail(new Error('The graphics renderer stopped')));
  worker = started;
  return started;
}

/**
 * An SVG layout drawn as a PNG by resvg in a worker thread (parse, fonts,
 * rasterising and PNG encoding all there, graphic-render.worker.ts), one
 * image operation turn at a time with sharp's other work (image-work.ts):
 * the event loop only posts the SVG and takes the PNG back, and at most
 * two images are being drawn at once. `signal` is checked on either side
 * (a render is a fraction of a second).
 */
export function renderSvgToPng(
  svg: string,
  signal?: AbortSignal,
): Promise<Buffer> {
  return inImageTurn(async () => {
    signal?.throwIfAborted();
    const id = nextId++;
    const png = await new Promise<Buffer>((resolve, reject) => {
      clearTimeout(idleTimer);
      waiting.set(id, { resolve, reject });
      const request: RenderRequest = { id, svg };
      rendererWorker().postMessage(request);
    });
    signal?.throwIfAborted();
    return png;
  });
}
