import { Worker } from 'node:worker_threads';

/**
 * Up to this many characters, JSON.parse runs on the event loop: its cost
 * grows with the text it reads, and 64 K characters take a few
 * milliseconds at most.
 */
export const NATIVE_PARSE_MAX_CHARS = 64 * 1024;

/**
 * Decodes the bytes it is handed (moved, not copied) and runs JSON.parse on
 * them; answers `[id, message]` ('' if JSON.parse accepted the text).
 */
const WORKER_HEAP_LIMITS = {
  maxOldGenerationSizeMb: 24,
  maxYoungGenerationSizeMb: 2,
};

/** How long the parse-error worker waits for more work before it stops. */
const WORKER_IDLE_MS = 200;

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
parentPort.on('message', ([id, bytes]) => {
  let message = '';
  try {
    JSON.parse(decoder.decode(bytes));
  } catch (error) {
    message = error instanceof Error ? error.message : String(error);
  }
  parentPort.postMessage([id, message]);
});
`;

/**
 * The one worker thread of the process that finds parse error messages of
 * large texts, one text at a time. It starts on first use, does not keep
 * the process alive, stops when idle, and is started again when needed. Callers are few at
 * once: only holders of a LargeBodyGate permit send it work.
 */
class ParseErrorWorker {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, (message: string) => void>();
  private idleTimer: NodeJS.Timeout | undefined;

  message(bytes: Uint8Array): Promise<string> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<string>((resolve) => {
      this.pending.set(id, resolve);
      // A buffer that owns its whole memory is moved to the worker; a view
      // into shared memory (Node's small-buffer pool) cannot be.
      const movable =
        bytes.byteOffset === 0 &&
        bytes.byteLength === bytes.buffer.byteLength &&
        bytes.buffer instanceof ArrayBuffer;
      worker.postMessage([id, bytes], movable ? [bytes.buffer] : []);
    });
  }

  /** An idle worker is stopped soon, so it holds no memory between floods. */
  private stopWhenIdle(worker: Worker): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.worker === worker && this.pending.size === 0) {
        this.worker = undefined;
        void worker.terminate();
      }
    }, WORKER_IDLE_MS);
    this.idleTimer.unref();
  }

  private started(): Worker {
    clearTimeout(this.idleTimer);
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // Enough for JSON.parse of any body under a few megabytes; a small
      // young generation is swept often, so the worker's memory stays near
      // what one text needs instead of growing with the flood.
      resourceLimits: WORKER_HEAP_LIMITS,
    });
    worker.unref();
    worker.on('message', ([id, message]: [number, string]) => {
      const resolve = this.pending.get(id);
      this.pending.delete(id);
      resolve?.(message);
      if (this.pending.size === 0) this.stopWhenIdle(worker);
    });
    // A worker that dies (no memory, say) answers '' for what it held: the
    // caller then finds the message itself, if slowly.
    const lost = () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const resolve of this.pending.values()) resolve('');
      this.pending.clear();
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    this.worker = worker;
    return worker;
  }
}

const parseErrorWorker = new ParseErrorWorker();

/**
 * JSON.parse's own error message for a text that is not JSON (the logo
 * route answers it as is), found without holding the event loop: JSON.parse
 * stops where the text stops being JSON, so when that is early it runs here;
 * past NATIVE_PARSE_MAX_CHARS the process's one parse-error worker finds it
 * in `bytes` (the text's UTF-8, moved to the worker: the caller must not
 * use them afterwards).
 */
export async function jsonErrorMessage(
  text: string,
  position: number,
  bytes: Uint8Array = Buffer.from(text, 'utf8'),
): Promise<string> {
  if (position <= NATIVE_PARSE_MAX_CHARS) return nativeErrorMessage(text);
  const message = await parseErrorWorker.message(bytes);
  // '' also means JSON.parse accepted what the sliced parser refused; the
  // sliced parser's tests rule that out, and JSON.parse is the reference.
  return message === '' ? nativeErrorMessage(text) : message;
}

function nativeErrorMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return error instanceof Error ? error.message : 'Invalid JSON body';
  }
  return 'Invalid JSON body';
}
