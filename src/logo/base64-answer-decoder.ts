import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { extname, join } from 'node:path';
import { isMarkedAsUntransferable, Worker } from 'node:worker_threads';
import type {
  AnswerMessage,
  ImageOutcome,
  ReadAnswer,
} from './base64-answer.worker';

/** What a base64 answer says, read off the event loop's thread. */
export interface DecodedAnswer {
  /** Its JSON without the image text; null when it is not JSON. */
  body: unknown;
  /** The decoded image, or why there is none. */
  image:
    { kind: 'bytes'; bytes: Buffer } | Exclude<ImageOutcome, { kind: 'bytes' }>;
}

/** One answer on its way to the worker. */
export interface AnswerReader {
  /** Hands the next chunks of the answer over (they are unusable after). */
  push(chunks: Buffer[]): void;
  /** The answer is complete: reads it (decoding the image when `decode`). */
  finish(decode: boolean): Promise<DecodedAnswer>;
  /** The answer will not be completed: the worker forgets its chunks. */
  abandon(): void;
}

/** The worker died (out of memory, say) while it held this answer. */
export class AnswerDecoderFailure extends Error {}

const MIB = 1024 * 1024;

/**
 * An ArrayBuffer holding exactly `chunk`, which can be transferred: the
 * chunk's own when it is (a socket read of body bytes is), else a copy (the
 * read that also held the headers shares its memory with them; a small
 * Buffer shares Node's pool).
 */
function transferable(chunk: Buffer): ArrayBuffer {
  const buffer = chunk.buffer;
  return buffer instanceof ArrayBuffer &&
    chunk.byteOffset === 0 &&
    chunk.byteLength === buffer.byteLength &&
    !isMarkedAsUntransferable(buffer)
    ? buffer
    : new Uint8Array(chunk).buffer;
}

interface Waiting {
  resolve: (answer: ReadAnswer) => void;
  reject: (error: Error) => void;
}

/**
 * Reads base64 answers of the image API in one worker thread
 * (base64-answer.worker.ts), so that joining their chunks, their text, JSON
 * and decoding never hold the event loop: the main thread hands each chunk
 * over as it arrives (transferred, not copied, and not kept) and gets the
 * decoded image back the same way. Answers are read one at a time, in
 * order, so the memory the reading takes is one answer's copies, whatever
 * IMAGE_API_CONCURRENCY is (docs/operations.md, "Memory"). The worker
 * starts with the first answer and is started again if it ever dies.
 */
@Injectable()
export class Base64AnswerDecoder implements OnApplicationShutdown {
  private worker?: Worker;
  private nextId = 1;
  /** Answers whose chunks went to each worker, and those it is reading. */
  private readonly open = new Map<Worker, Map<number, Waiting | null>>();

  /** A reader for one answer whose image may be up to `maxBytes`. */
  reader(maxBytes: number): AnswerReader {
    const id = this.nextId++;
    const worker = this.workerFor(maxBytes);
    const answers = this.open.get(worker);
    answers?.set(id, null);
    const send = (message: AnswerMessage, transfer: ArrayBuffer[] = []) => {
      if (this.open.get(worker)?.has(id)) worker.postMessage(message, transfer);
    };
    return {
      push: (chunks) => {
        const buffers = chunks.map(transferable);
        send({ type: 'chunks', id, chunks: buffers }, buffers);
      },
      finish: async (decode) => {
        const answer = await new Promise<ReadAnswer>((resolve, reject) => {
          if (!this.open.get(worker)?.has(id)) {
            reject(new AnswerDecoderFailure('The reading thread ended'));
            return;
          }
          answers?.set(id, { resolve, reject });
          send({ type: 'end', id, decode, maxBytes });
        });
        const { image } = answer;
        return {
          body: answer.body,
          image:
            image.kind === 'bytes'
              ? {
                  kind: 'bytes',
                  bytes: Buffer.from(image.bytes, 0, image.length),
                }
              : image,
        };
      },
      abandon: () => {
        send({ type: 'drop', id });
        answers?.delete(id);
      },
    };
  }

  onApplicationShutdown(): Promise<number> | undefined {
    const worker = this.worker;
    this.worker = undefined;
    return worker?.terminate();
  }

  private workerFor(maxBytes: number): Worker {
    if (this.worker) return this.worker;
    const base64Mib = Math.ceil(((maxBytes / 3) * 4) / MIB);
    const worker = new Worker(
      // The built .js in dist/, the .ts source when tests run the sources.
      join(__dirname, `base64-answer.worker${extname(__filename)}`),
      {
        // An answer's text and its parsed copy live in this heap (its
        // bytes outside it); a heap that cannot hold them ends the worker,
        // not the process.
        resourceLimits: { maxOldGenerationSizeMb: 3 * base64Mib + 32 },
      },
    );
    // It never keeps the process alive by itself.
    worker.unref();
    const answers = new Map<number, Waiting | null>();
    this.open.set(worker, answers);
    worker.on('message', (answer: ReadAnswer) => {
      const waiting = answers.get(answer.id);
      answers.delete(answer.id);
      waiting?.resolve(answer);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      this.open.delete(worker);
      const failure = new AnswerDecoderFailure(
        `The answer could not be read: ${error.message}`,
      );
      for (const waiting of answers.values()) waiting?.reject(failure);
      answers.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) =>
      fail(new Error(`the reading thread ended (code ${code})`)),
    );
    this.worker = worker;
    return worker;
  }
}
