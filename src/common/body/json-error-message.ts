import { Worker } from 'node:worker_threads';

/**
 * Up to this many characters, JSON.parse runs on the event loop: its cost
 * grows with the text it reads, and 64 K characters take a few
 * milliseconds at most.
 */
export const NATIVE_PARSE_MAX_CHARS = 64 * 1024;

/** Runs JSON.parse on the text in a worker thread; posts its error message ('' if none). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
try {
  JSON.parse(workerData);
  parentPort.postMessage('');
} catch (error) {
  parentPort.postMessage(error instanceof Error ? error.message : String(error));
}
`;

/**
 * JSON.parse's own error message for a text that is not JSON (the logo
 * route answers it as is), found without holding the event loop: JSON.parse
 * stops where the text stops being JSON, so when that is early it runs here;
 * past NATIVE_PARSE_MAX_CHARS it runs in a worker thread.
 */
export async function jsonErrorMessage(
  text: string,
  position: number,
): Promise<string> {
  if (position <= NATIVE_PARSE_MAX_CHARS) return nativeErrorMessage(text);
  const message = await new Promise<string>((resolve) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: text });
    worker.once('message', (answer: string) => {
      resolve(answer);
      void worker.terminate();
    });
    // A worker that cannot start (no memory, say) must not put its own
    // error in an answer: the message is then found here, if slowly.
    worker.once('error', () => resolve(''));
  });
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
