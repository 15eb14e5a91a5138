import { PassThrough, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  JsonChunkStream,
  StalledClientError,
  type ChunkSource,
} from './json-chunk-stream';

/** A source of `count` pieces of `size` characters, counting its reads. */
function sourceOf(count: number, size = 64 * 1024) {
  const state = { reads: 0, closed: 0 };
  const source: ChunkSource = {
    next: () => {
      state.reads += 1;
      return Promise.resolve(
        state.reads <= count ? 'x'.repeat(size) : undefined,
      );
    },
    close: () => {
      state.closed += 1;
      return Promise.resolve();
    },
  };
  return { source, state };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('JsonChunkStream', () => {
  it('passes every piece on, then closes the source', async () => {
    const { source, state } = sourceOf(5, 10);
    let text = '';
    await pipeline(
      new JsonChunkStream(source, 1000),
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          text += chunk.toString();
          callback();
        },
      }),
    );
    expect(text).toBe('x'.repeat(50));
    expect(state.closed).toBeGreaterThan(0);
  });

  it('reads no further ahead than one piece when nobody consumes it', async () => {
    const { source, state } = sourceOf(1000);
    const stream = new JsonChunkStream(source, 60_000);
    stream.pipe(new PassThrough({ highWaterMark: 16 * 1024 }));
    await sleep(50);
    expect(state.reads).toBeLessThanOrEqual(3);
    stream.destroy();
  });

  it('fails with StalledClientError and closes the source when nothing is read for idleMs', async () => {
    const { source, state } = sourceOf(1000);
    const stream = new JsonChunkStream(source, 50);
    stream.pipe(new PassThrough({ highWaterMark: 16 * 1024 }));
    const error = await new Promise<Error>((resolve) =>
      stream.once('error', resolve),
    );
    expect(error).toBeInstanceOf(StalledClientError);
    await sleep(10);
    expect(state.closed).toBe(1);
  });

  it('closes the source when destroyed, e.g. because the client went away', async () => {
    const { source, state } = sourceOf(1000);
    const stream = new JsonChunkStream(source, 60_000);
    stream.resume();
    await sleep(5);
    stream.destroy();
    await sleep(5);
    expect(state.closed).toBe(1);
  });
});
