import { request, type IncomingMessage } from 'node:http';
import { until } from './pending-request';

/** One server-sent event as the stream framed it. */
export interface StreamEvent {
  id?: string;
  event?: string;
  data?: string;
}

/** A change event's JSON (`data:` of every event but `reset`). */
export interface ChangeEventBody {
  id: string;
  type: string;
  projectId: string;
  userId: string;
  at: string;
  data: Record<string, unknown>;
}

/**
 * A text/event-stream reader for the tests, as a browser's EventSource
 * reads one: frames split on blank lines, `id:`, `event:`, `data:` and
 * `retry:` fields, comments kept apart. It can also stop reading (pause),
 * as a slow client does.
 */
export class EventStreamClient {
  readonly events: StreamEvent[] = [];
  readonly comments: string[] = [];
  readonly retries: number[] = [];
  status = 0;
  headers: IncomingMessage['headers'] = {};
  body = '';
  ended = false;
  private response?: IncomingMessage;
  private readonly closed: Promise<void>;
  private buffer = '';

  private constructor(
    url: string,
    headers: Record<string, string>,
    private readonly opened: (client: EventStreamClient) => void,
    failed: (error: Error) => void,
  ) {
    this.closed = new Promise((resolve) => {
      const req = request(url, { headers, agent: false }, (response) => {
        this.response = response;
        this.status = response.statusCode ?? 0;
        this.headers = response.headers;
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => this.read(chunk));
        response.on('close', () => {
          this.ended = true;
          resolve();
        });
        response.on('error', () => undefined);
        this.opened(this);
      });
      req.on('error', (error) => {
        this.ended = true;
        failed(error);
        resolve();
      });
      req.end();
    });
  }

  /** Opens `url` and resolves once the status and headers arrived. */
  static open(
    url: string,
    headers: Record<string, string> = {},
  ): Promise<EventStreamClient> {
    return new Promise((resolve, reject) => {
      new EventStreamClient(url, headers, resolve, reject);
    });
  }

  /** The change events received (every event but `reset`), parsed. */
  changes(): ChangeEventBody[] {
    return this.events
      .filter((event) => event.event !== 'reset' && event.data !== undefined)
      .map((event) => JSON.parse(event.data as string) as ChangeEventBody);
  }

  /** Waits until `count` change events have arrived (fails after 10 s). */
  async waitForChanges(count: number, what = `${count} events`): Promise<void> {
    await until(() => this.changes().length >= count || this.ended, what);
    if (this.changes().length < count) {
      throw new Error(
        `The stream ended before ${what} (got ${this.changes().length})`,
      );
    }
  }

  async waitForEnd(): Promise<void> {
    await this.closed;
  }

  /** Stops reading: what the server sends piles up (a slow client). */
  pause(): void {
    this.response?.pause();
  }

  close(): Promise<void> {
    this.response?.destroy();
    return this.closed;
  }

  private read(chunk: string): void {
    if (this.status !== 200) {
      this.body += chunk;
      return;
    }
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.frame(frame);
    }
  }

  private frame(text: string): void {
    const event: StreamEvent = {};
    for (const line of text.split('\n')) {
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
      else if (field === 'data')
        event.data =
          event.data === undefined ? value : `${event.data}\n${value}`;
      else if (field === 'retry') this.retries.push(Number(value));
    }
    if (event.data !== undefined || event.event !== undefined) {
      this.events.push(event);
    }
  }
}
