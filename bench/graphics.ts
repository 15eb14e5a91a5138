import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Resvg, renderAsync } from '@resvg/resvg-js';
import sharp from 'sharp';
import { brandColours } from '../src/graphics/brand-colours';
import {
  GRAPHIC_SIZES,
  SOCIAL_FORMATS,
  type GraphicFormat,
} from '../src/graphics/graphic-formats';
import { logoPngOf } from '../src/graphics/graphic-images';
import { graphicSvg, layoutOf } from '../src/graphics/graphic-layout';
import {
  RENDER_OPTIONS,
  renderSvgToPng,
  stopGraphicRenderer,
} from '../src/graphics/graphic-renderer';

/**
 * What one graphics set (the five social formats, composed from a
 * 1024×1024 logo and a 120-character headline) costs: wall time, CPU time
 * (user + system, all threads), the largest RSS and heap sampled every
 * 5 ms, and the longest hold of the event loop (the largest gap between
 * 1 ms timers, and the loop-delay histogram's max), for three renderers
 * of the same SVG layout: resvg's async render with sharp's PNG encoding
 * (what the service does), resvg's async render with its own PNG encoder
 * (run on the calling thread), and sharp alone (librsvg, system fonts).
 * `npm run bench:graphics`; figures in docs/performance.md.
 */

const MB = 1024 * 1024;
const ROUNDS = 5;
const HEADLINE =
  'Parcels across town within the hour, every day of the week, tracked door to door by people who care about them';

type Renderer = (svg: string) => Promise<Buffer>;

const RENDERERS: Record<string, Renderer> = {
  'resvg in a worker thread (used)': (svg) => renderSvgToPng(svg),
  'resvg async render, pixels encoded by sharp': async (svg) => {
    const image = await renderAsync(svg, RENDER_OPTIONS);
    const { width, height } = image;
    return sharp(image.pixels, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer();
  },
  'resvg on the main thread': (svg) =>
    Promise.resolve(new Resvg(svg, RENDER_OPTIONS).render().asPng()),
  'sharp (librsvg, system fonts)': (svg) =>
    sharp(Buffer.from(svg)).png().toBuffer(),
};

async function logo1024(): Promise<Buffer> {
  // Noise makes a PNG that compresses badly: the worst case to decode.
  const noise = Buffer.alloc(1024 * 1024 * 4);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  return sharp(noise, { raw: { width: 1024, height: 1024, channels: 4 } })
    .png()
    .toBuffer();
}

/** One set: each format's logo sized by sharp, its layout drawn. */
async function makeSet(logo: Buffer, render: Renderer): Promise<number> {
  let bytes = 0;
  for (const format of SOCIAL_FORMATS as GraphicFormat[]) {
    const { width, height } = GRAPHIC_SIZES[format];
    const logoPng = await logoPngOf(logo, layoutOf(width, height).logo.width);
    const png = await render(
      graphicSvg({
        width,
        height,
        colours: brandColours(['#0044ff', '#ffd700']),
        headline: HEADLINE,
        wordmark: 'Acme Rockets',
        logoPng,
      }),
    );
    bytes += png.length;
  }
  return bytes;
}

interface Figures {
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  maxHeapMb: number;
  holdMs: number;
}

async function measure(work: () => Promise<unknown>): Promise<Figures> {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const rssBefore = process.memoryUsage().rss;
  let maxRss = rssBefore;
  let maxHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    maxRss = Math.max(maxRss, usage.rss);
    maxHeap = Math.max(maxHeap, usage.heapUsed);
  }, 5);
  let last = performance.now();
  let hold = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    hold = Math.max(hold, now - last);
    last = now;
  }, 1);
  const cpu = process.cpuUsage();
  const started = performance.now();
  loop.enable();
  await work();
  loop.disable();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  clearInterval(ticker);
  return {
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    maxRssMb: maxRss / MB,
    maxHeapMb: maxHeap / MB,
    holdMs: Math.max(hold, loop.max / 1e6),
  };
}

async function main(): Promise<void> {
  const logo = await logo1024();
  console.log(
    `One set = ${SOCIAL_FORMATS.join(', ')} from a 1024×1024 logo (${(logo.length / 1024).toFixed(0)} KB), ${ROUNDS} sets each, the worst set shown`,
  );
  console.log(
    '| Renderer | wall ms / set | CPU ms / set | CPU ms / image | peak RSS MB | peak heap MB | longest loop hold ms |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, render] of Object.entries(RENDERERS)) {
    // The first set loads the libraries' code and fonts: not counted.
    await makeSet(logo, render);
    const sets: Figures[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      sets.push(await measure(() => makeSet(logo, render)));
    }
    const worst = (key: keyof Figures) =>
      Math.max(...sets.map((set) => set[key]));
    console.log(
      `| ${name} | ${worst('wallMs').toFixed(0)} | ${worst('cpuMs').toFixed(0)} | ${(worst('cpuMs') / SOCIAL_FORMATS.length).toFixed(0)} | ${worst('maxRssMb').toFixed(0)} | ${worst('maxHeapMb').toFixed(0)} | ${worst('holdMs').toFixed(1)} |`,
    );
  }
  await stopGraphicRenderer();
}

void main();
