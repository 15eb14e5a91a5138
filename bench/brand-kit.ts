import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { ZipFile } from 'yazl';
import { makeBrandKit } from '../src/brand-kit/brand-kit-images';

/**
 * What making a brand kit from a 1024×1024 logo, and zipping it as the
 * zip route does, costs the event loop and memory: the longest delay of
 * the loop (histogram of 10 ms resolution) and the largest RSS sampled
 * every 10 ms, for each phase. `npm run bench:brand-kit`; figures in
 * docs/performance.md.
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

async function measure<T>(name: string, work: () => Promise<T>): Promise<T> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let maxRss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    maxRss = Math.max(maxRss, process.memoryUsage.rss());
  }, 10);
  const startRss = process.memoryUsage.rss();
  loop.enable();
  const started = performance.now();
  try {
    return await work();
  } finally {
    const ms = performance.now() - started;
    loop.disable();
    clearInterval(sampler);
    console.log(
      `${name}: ${ms.toFixed(0)} ms, loop delay max ${(loop.max / 1e6).toFixed(1)} ms (p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms), RSS ${(startRss / MB).toFixed(0)} → max ${(maxRss / MB).toFixed(0)} MB`,
    );
  }
}

async function main(): Promise<void> {
  const logo = await logo1024();
  console.log(`logo: 1024×1024 PNG, ${(logo.length / 1024).toFixed(0)} KB`);
  // The first run loads libvips' code; the second is what a worker pays.
  await makeBrandKit(logo, '#0044ff');
  const files = await measure('make kit', () => makeBrandKit(logo, '#0044ff'));
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
