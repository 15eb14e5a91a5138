/**
 * The worker thread that checks pages (see site-checker.ts): jsdom,
 * html-validate and axe-core, which hold a thread for tens of
 * milliseconds to seconds a page, hold this one and never the service's
 * event loop. One page at a time, in the order sent.
 */
import { parentPort } from 'node:worker_threads';
import { checkPage, type PageCheck } from './page-checks';

/** What the main thread sends: one page to check. */
export interface CheckRequest {
  id: number;
  html: string;
}

/** What it gets back: the page's findings, or why there are none. */
export type CheckReply =
  ({ id: number } & PageCheck) | { id: number; error: string };

let line: Promise<void> = Promise.resolve();

parentPort?.on('message', ({ id, html }: CheckRequest) => {
  line = line.then(async () => {
    let reply: CheckReply;
    try {
      reply = { id, ...(await checkPage(html)) };
    } catch (error) {
      reply = {
        id,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    parentPort?.postMessage(reply);
  });
});
