import { request, type ClientRequest } from 'node:http';

/**
 * A minimal text/event-stream reader for the events bench: one connection
 * of its own (no agent), frames split on blank lines, and for each event
 * the time from its `at` (the server's commit) to this process parsing it.
 * Both clocks are this machine's.
 */
export class SseClient {
  /** Ids received, in order. */
  readonly ids: number[] = [];
  /** `at` -> parsed here, ms, one per event. */
  readonly lagsMs: number[] = [];
  /** Bytes of the events' frames, blank line included. */
  eventBytes = 0;
  /** The JSON of the last event received, as its `data:` line had it. */
  lastData: string | undefined;
  private req: ClientRequest | undefined;
  private buffer = '';
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor() {}

  /**
   * Opens the stream (`headers`: e.g. Last-Event-ID to resume); resolves
   * once its `retry:` line arrived (it is live).
   */
  static open(
    url: string,
    headers: Record<string, string> = {},
  ): Promise<SseClient> {
    const client = new SseClient();
    return new Promise((resolve, reject) => {
      const req = request(url, { agent: false, headers }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`GET ${url} answered ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        let opened = false;
        res.on('data', (chunk: string) => {
          client.take(chunk);
          // The first bytes are the `retry:` line: the stream is subscribed.
          if (!opened) {
            opened = true;
            resolve(client);
          }
        });
        res.on('error', () => undefined);
      });
      req.on('error', reject);
      req.end();
      client.req = req;
    });
  }

  /** Resolves once `count` events have been received. */
  received(count: number): Promise<void> {
    if (this.ids.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  close(): void {
    this.req?.destroy();
  }

  private take(chunk: string): void {
    const now = Date.now();
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) !== -1) {
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const data = frame.split('\n').find((line) => line.startsWith('data: '));
      if (!data) continue; // retry:, or a keep-alive comment
      this.eventBytes += Buffer.byteLength(frame) + 2;
      this.lastData = data.slice(6);
      const event = JSON.parse(this.lastData) as { id: string; at: string };
      const id = Number(event.id);
      this.ids.push(id);
      this.lagsMs.push(now - Date.parse(event.at));
      this.waiters = this.waiters.filter((waiter) => {
        if (waiter.count > this.ids.length) return true;
        waiter.resolve();
        return false;
      });
    }
  }
}
