import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { ZipFile } from 'yazl';
import { makeBrandKit } from '../src/brand-kit/brand-kit-images';
import { describeHolds, withLoopHolds, type LoopHolds } from './loop-holds';

/**
 * What making a brand kit from a 1024×1024 logo, and zipping it as the
 * zip route does, costs the event loop and memory, for each phase: the
 * longest gap between the ticks of a 1 ms timer and the main thread's own
 * CPU time in it, the most CPU the main thread spent between two ticks
 * (work holding the loop), and the largest RSS sampled every 10 ms
 * (loop-holds.ts tells waiting for a core from work on the loop). The kit
 * is made BENCH_KIT_ROUNDS times (default 5) after a warm-up kit.
 * `npm run bench:brand-kit`; figures in docs/performance.md.
 */

const MB = 1024 * 1024;

async function logo1024(): Promise<Buffer> {
  // Noise makes a PNG that compresses badly: the worst case to decode.
  const noise = Buffer.alloc(1024 * 1024 * 4);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  return sharp(noise, { raw: { width: 1024, height: 1024, channels: 4 } })
    .png()
    .toBuffer();
}

const ROUNDS = Number(process.env.BENCH_KIT_ROUNDS ?? 5);

async function measure<T>(
  name: string,
  work: () => Promise<T>,
): Promise<{ result: T; holds: LoopHolds; ms: number }> {
  let maxRss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    maxRss = Math.max(maxRss, process.memoryUsage.rss());
  }, 10);
  const startRss = process.memoryUsage.rss();
  const started = performance.now();
  try {
    const { result, holds } = await withLoopHolds(work);
    const ms = performance.now() - started;
    console.log(
      `${name}: ${ms.toFixed(0)} ms, ${describeHolds(holds)}, RSS ${(startRss / MB).toFixed(0)} → max ${(maxRss / MB).toFixed(0)} MB`,
    );
    return { result, holds, ms };
  } finally {
    clearInterval(sampler);
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const logo = await logo1024();
  console.log(`logo: 1024×1024 PNG, ${(logo.length / 1024).toFixed(0)} KB`);
  // The first run loads libvips' code; the second is what a worker pays.
  await makeBrandKit(logo, '#0044ff');
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    rounds.push(
      await measure(`make kit ${round}`, () => makeBrandKit(logo, '#0044ff')),
    );
  }
  console.log(
    `make kit, ${ROUNDS} rounds: median ${median(rounds.map((r) => r.ms)).toFixed(0)} ms; longest gap max ${Math.max(...rounds.map((r) => r.holds.longestGapMs)).toFixed(1)} ms, median ${median(rounds.map((r) => r.holds.longestGapMs)).toFixed(1)} ms; longest loop CPU between ticks max ${Math.max(...rounds.map((r) => r.holds.longestCpuMs)).toFixed(1)} ms; loop CPU per kit median ${median(rounds.map((r) => r.holds.cpuMs)).toFixed(1)} ms`,
  );
  const files = rounds[0].result;
  const total = files.reduce((sum, file) => sum + file.bytes.length, 0);
  console.log(`kit: ${files.length} files, ${(total / 1024).toFixed(0)} KB`);
  await measure('stream zip', async () => {
    const zip = new ZipFile();
    for (const file of files) {
      zip.addReadStreamLazy(
        file.name,
        { compress: false, size: file.bytes.length },
        // 256 KB chunks, as the database store reads parts.
        (done) => done(null, Readable.from(chunks(file.bytes))),
      );
    }
    zip.end();
    let written = 0;
    await pipeline(
      zip.outputStream,
      new Writable({
        write(chunk: Buffer, _encoding, next) {
          written += chunk.length;
          next();
        },
      }),
    );
    console.log(`zip: ${(written / 1024).toFixed(0)} KB`);
  });
}

function* chunks(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += 256 * 1024) {
    yield bytes.subarray(at, at + 256 * 1024);
  }
}

void main();
