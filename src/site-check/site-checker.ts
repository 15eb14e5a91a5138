import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PageCheck } from './page-checks';
import type { CheckReply, CheckRequest } from './site-check.worker';

/** The worker ends itself when its heap passes this (jsdom of a 2 MB page). */
const WORKER_HEAP_MB = 512;
/** An idle worker stops after this; the next check starts another. */
const WORKER_IDLE_MS = 30_000;

/** The check did not finish in its time, or its worker stopped. */
export class SiteCheckFailure extends Error {}

interface Waiting {
  resolve: (check: PageCheck) => void;
  reject: (error: Error) => void;
  /** The worker it was sent to: that worker's end fails it, no other's. */
  worker: Worker;
}

let worker: Worker | undefined;
const waiting = new Map<number, Waiting>();
let nextId = 1;
let idleTimer: NodeJS.Timeout | undefined;
/** One page at a time: a page over its time ends the worker, and only it fails. */
let line: Promise<unknown> = Promise.resolve();

/** Stops the checker's worker (at shutdown, or a check over its time). */
export async function stopSiteChecker(): Promise<void> {
  clearTimeout(idleTimer);
  const running = worker;
  worker = undefined;
  await running?.terminate();
}

function settled(): void {
  if (waiting.size > 0) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => void stopSiteChecker(), WORKER_IDLE_MS);
  idleTimer.unref();
}

/**
 * The built .js in dist/ runs as it is; the .ts source (tests, benches)
 * imports other sources, which Node's type stripping alone cannot
 * resolve: it is loaded through ts-node (a development dependency).
 */
function startWorker(): Worker {
  const file = join(__dirname, `site-check.worker${extname(__filename)}`);
  const options = {
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  };
  if (extname(__filename) !== '.ts') return new Worker(file, options);
  return new Worker(
    `require('ts-node').register({ transpileOnly: true }); require(${JSON.stringify(file)});`,
    { ...options, eval: true },
  );
}

function checkerWorker(): Worker {
  if (worker) return worker;
  const started = startWorker();
  // It never keeps the process alive by itself.
  started.unref();
  started.on('message', (reply: CheckReply) => {
    const entry = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (!entry) return;
    if ('error' in reply) entry.reject(new SiteCheckFailure(reply.error));
    else entry.resolve({ findings: reply.findings, checked: reply.checked });
    settled();
  });
  const fail = (error: Error) => {
    if (worker === started) worker = undefined;
    for (const [id, entry] of waiting) {
      if (entry.worker !== started) continue;
      waiting.delete(id);
      entry.reject(new SiteCheckFailure(error.message));
    }
    settled();
  };
  started.on('error', fail);
  started.on('exit', () => fail(new Error('The site checker stopped')));
  worker = started;
  return started;
}

/**
 * A page's checks (page-checks.ts) run in the site-check worker thread,
 * one page at a time: the event loop only posts the page and takes the
 * findings back. Over `timeoutMs` the worker is ended (the next check
 * starts another) and this rejects with SiteCheckFailure; `signal` ends
 * the wait likewise.
 */
export function checkPageInWorker(
  html: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<PageCheck> {
  const turn = line.then(() => checkOnce(html, timeoutMs, signal));
  line = turn.catch(() => undefined);
  return turn;
}

async function checkOnce(
  html: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<PageCheck> {
  signal?.throwIfAborted();
  const id = nextId++;
  clearTimeout(idleTimer);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await new Promise<PageCheck>((resolve, reject) => {
      const target = checkerWorker();
      waiting.set(id, { resolve, reject, worker: target });
      const stop = (error: Error) => {
        waiting.delete(id);
        reject(error);
        // The page may still hold the worker: it goes, with what it holds.
        void stopSiteChecker();
      };
      timer = setTimeout(
        () => stop(new SiteCheckFailure(`The check took over ${timeoutMs} ms`)),
        timeoutMs,
      );
      onAbort = () => stop(signal!.reason as Error);
      signal?.addEventListener('abort', onAbort, { once: true });
      const request: CheckRequest = { id, html };
      target.postMessage(request);
    });
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    settled();
  }
}
