import { monitorEventLoopDelay } from 'node:perf_hooks';
import { svgSquarePng } from '../src/assets/renditions/svg-png';
import { ICON_SVG_LIMITS, restyleIcon } from '../src/icons/icon-style';
import { lucideIcon } from '../src/icons/lucide-icons';
import { sanitizeSvg } from '../src/svg-safety/sanitize-svg';

/**
 * What an icon set of 24 Lucide names costs, as the icon-set task makes
 * it (read the file, rebuild it from the allow-list, restyle it) and then
 * its PNG renditions at 24, 48 and 96 (resvg, then sharp): CPU time, the
 * largest RSS and heap sampled every 10 ms, and the longest event-loop
 * delay (histogram of 10 ms resolution), per phase. The first set reads
 * the files (cold), the second finds them cached. `npm run bench:icon-set`;
 * figures in docs/performance.md.
 */

const MB = 1024 * 1024;
const COLORS = { primary: '#0044ff', secondary: '#ff8800' };
const NAMES = [
  'search',
  'house',
  'shopping-cart',
  'user',
  'settings',
  'bell',
  'mail',
  'calendar',
  'camera',
  'heart',
  'star',
  'trash',
  'pencil',
  'lock',
  'globe',
  'map-pin',
  'phone',
  'download',
  'upload',
  'share',
  'menu',
  'filter',
  'clock',
  'circle-help',
];

async function measure<T>(name: string, work: () => Promise<T>): Promise<T> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let maxRss = process.memoryUsage.rss();
  let maxHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    maxRss = Math.max(maxRss, process.memoryUsage.rss());
    maxHeap = Math.max(maxHeap, process.memoryUsage().heapUsed);
  }, 10);
  const startRss = process.memoryUsage.rss();
  const cpu = process.cpuUsage();
  loop.enable();
  const started = performance.now();
  try {
    return await work();
  } finally {
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    loop.disable();
    clearInterval(sampler);
    console.log(
      `${name}: ${ms.toFixed(0)} ms wall, CPU ${((used.user + used.system) / 1000).toFixed(0)} ms (this thread and resvg's/libvips' threads), loop delay max ${(loop.max / 1e6).toFixed(1)} ms, RSS ${(startRss / MB).toFixed(0)} → max ${(maxRss / MB).toFixed(0)} MB, heap max ${(maxHeap / MB).toFixed(0)} MB`,
    );
  }
}

/** The longest synchronous stretch of the set's own work (rebuild and restyle of one icon). */
let longestHoldMs = 0;

async function iconSet(): Promise<string[]> {
  const icons: string[] = [];
  longestHoldMs = 0;
  for (const name of NAMES) {
    const text = await lucideIcon(name);
    if (!text) throw new Error(`Lucide has no ${name}`);
    const held = performance.now();
    const safe = sanitizeSvg(text, ICON_SVG_LIMITS).svg;
    const icon = restyleIcon(safe, 'duotone', COLORS);
    longestHoldMs = Math.max(longestHoldMs, performance.now() - held);
    if (!icon) throw new Error(`${name} drew nothing`);
    icons.push(icon);
  }
  console.log(`  longest hold of one icon: ${longestHoldMs.toFixed(2)} ms`);
  return icons;
}

async function main(): Promise<void> {
  const icons = await measure('icon set of 24, cold', iconSet);
  const bytes = icons.reduce((sum, icon) => sum + icon.length, 0);
  console.log(`set: ${icons.length} SVGs, ${(bytes / 1024).toFixed(1)} KB`);
  await measure('icon set of 24, warm', iconSet);
  await measure('72 renditions (24 icons × 24, 48, 96)', async () => {
    for (const icon of icons) {
      for (const size of [24, 48, 96]) {
        await svgSquarePng(Buffer.from(icon), size);
      }
    }
  });
}

void main();
