import { get } from 'node:http';

/**
 * One GET on a new connection: its status and how long it took, timed from
 * this process (so its own pauses count too).
 */
export function timedGet(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      res.resume();
      res.once('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - started,
        }),
      );
    }).once('error', reject);
  });
}
