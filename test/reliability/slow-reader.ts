import { get, type IncomingMessage } from 'node:http';

/**
 * A client that asks for a url, takes its first chunk and then stops
 * reading, so the server meets TCP backpressure, as with a phone on a bad
 * network. `finish` reads the rest.
 */
export interface SlowReader {
  status: number;
  /** Bytes taken so far. */
  readonly received: number;
  /** Reads the rest and resolves with every byte of the answer. */
  finish(): Promise<Buffer>;
}

export function openSlowReader(url: string): Promise<SlowReader> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const ended = new Promise<Buffer>((done, fail) => {
        res.once('end', () => done(Buffer.concat(chunks)));
        res.once('error', fail);
      });
      ended.catch(() => undefined);
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
      });
      res.once('data', () => {
        res.pause();
        resolve({
          status: res.statusCode ?? 0,
          get received() {
            return received;
          },
          finish: () => {
            res.resume();
            return ended;
          },
        });
      });
    });
    request.once('error', reject);
  });
}
