import type { Page } from 'playwright-core';

/** An event as a reader in the page received it. */
export interface PageEvent {
  /** The frame's `id:` (EventSource: the event's lastEventId). */
  id: string;
  /** The frame's `event:`. */
  type: string;
  /** The frame's `data:`, parsed. */
  data: { projectId?: string; userId?: string; [key: string]: unknown };
}

/** What a reader in the page has seen so far. */
export interface PageReader {
  events: PageEvent[];
  /** Times it opened (EventSource: `open` events; fetch: answers). */
  opened: number;
  /** Errors it met (EventSource: `error` events; fetch: the message). */
  errors: string[];
  /** The fetch reader's answer status. */
  status?: number;
}

/**
 * The little of the page's EventSource and streams that the readers use:
 * this project compiles for Node, without the DOM's types.
 */
interface PageMessage {
  lastEventId: string;
  data: string;
}
interface PageEventSource {
  onopen: (() => void) | null;
  onerror: (() => void) | null;
  addEventListener(type: string, listener: (event: PageMessage) => void): void;
  close(): void;
}
interface PageGlobals {
  EventSource: new (url: string) => PageEventSource;
  readers?: Record<string, PageReader>;
  closers?: Record<string, () => void>;
}

/** Every event type a stream sends, `reset` included. */
export const STREAM_EVENT_TYPES = [
  'project.created',
  'project.updated',
  'project.deleted',
  'asset.created',
  'asset.deleted',
  'task.updated',
  'section.updated',
  'agent.updated',
  'run.updated',
  'reset',
];

/**
 * Readers of live-change streams inside a page, each under a name: the
 * browser's own EventSource (as a frontend without a token, or with a
 * ticket, opens it) and a fetch-based reader that sends a bearer token and
 * parses the text/event-stream body itself. What they received stays in
 * the page; `reader()` reads it from there.
 */
export class EventStreamPage {
  constructor(private readonly page: Page) {}

  /** `new EventSource(url)` in the page; resolves once it is open. */
  async openEventSource(name: string, url: string): Promise<void> {
    await this.page.evaluate(
      ({ name, url, types }) =>
        new Promise<void>((resolve) => {
          const g = globalThis as unknown as PageGlobals;
          const reader: PageReader = { events: [], opened: 0, errors: [] };
          (g.readers ??= {})[name] = reader;
          const source = new g.EventSource(url);
          (g.closers ??= {})[name] = () => source.close();
          for (const type of types) {
            source.addEventListener(type, (event) =>
              reader.events.push({
                id: event.lastEventId,
                type,
                data: JSON.parse(event.data) as PageEvent['data'],
              }),
            );
          }
          source.onopen = () => {
            reader.opened++;
            resolve();
          };
          // A refused stream never opens: resolve, the test reads `errors`.
          source.onerror = () => {
            reader.errors.push('error');
            resolve();
          };
        }),
      { name, url, types: STREAM_EVENT_TYPES },
    );
  }

  /**
   * A reader built on fetch (it can send Authorization, which EventSource
   * cannot): reads the body as it comes and splits it into frames.
   * Resolves once the answer's head arrived.
   */
  async openFetchReader(
    name: string,
    url: string,
    headers: Record<string, string>,
  ): Promise<void> {
    await this.page.evaluate(
      async ({ name, url, headers }) => {
        const g = globalThis as unknown as PageGlobals;
        const reader: PageReader = { events: [], opened: 0, errors: [] };
        (g.readers ??= {})[name] = reader;
        const abort = new AbortController();
        (g.closers ??= {})[name] = () => abort.abort();
        let response: Response;
        try {
          response = await fetch(url, { headers, signal: abort.signal });
        } catch (error) {
          reader.errors.push(String(error));
          return;
        }
        reader.status = response.status;
        if (!response.ok || !response.body) return;
        reader.opened++;
        const chunks = response.body
          .pipeThrough(new TextDecoderStream())
          .getReader();
        const frame = (block: string) => {
          let id = '';
          let type = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            // A comment (": keep-alive") or a `retry:` carries no event.
            const colon = line.indexOf(':');
            if (colon <= 0) continue;
            const field = line.slice(0, colon);
            const value = line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') id = value;
            else if (field === 'event') type = value;
            else if (field === 'data') data.push(value);
          }
          if (data.length === 0) return;
          reader.events.push({
            id,
            type,
            data: JSON.parse(data.join('\n')) as PageEvent['data'],
          });
        };
        // Reads in the background; the test polls `readers`.
        void (async () => {
          let buffer = '';
          try {
            for (;;) {
              const { done, value } = await chunks.read();
              if (done) return;
              buffer += value;
              let end: number;
              while ((end = buffer.indexOf('\n\n')) !== -1) {
                frame(buffer.slice(0, end));
                buffer = buffer.slice(end + 2);
              }
            }
          } catch (error) {
            reader.errors.push(String(error));
          }
        })();
      },
      { name, url, headers },
    );
  }

  /** Closes a reader (EventSource.close(), or aborts the fetch). */
  async close(name: string): Promise<void> {
    await this.page.evaluate((name) => {
      (globalThis as unknown as PageGlobals).closers?.[name]?.();
    }, name);
  }

  /** Closes every reader the page opened (a test's leftovers reconnect otherwise). */
  async closeAll(): Promise<void> {
    await this.page.evaluate(() => {
      for (const close of Object.values(
        (globalThis as unknown as PageGlobals).closers ?? {},
      )) {
        close();
      }
    });
  }

  async reader(name: string): Promise<PageReader> {
    const reader = await this.page.evaluate(
      (name) => (globalThis as unknown as PageGlobals).readers?.[name],
      name,
    );
    if (!reader) throw new Error(`no reader ${name} in the page`);
    return reader;
  }

  /** Waits until reader `name` received the event `id`; says what it has when it did not. */
  async waitForEvent(
    name: string,
    id: string,
    timeoutMs = 10_000,
  ): Promise<void> {
    try {
      await this.page.waitForFunction(
        ({ name, id }) =>
          (globalThis as unknown as PageGlobals).readers?.[name]?.events.some(
            (event) => event.id === id,
          ) === true,
        { name, id },
        { timeout: timeoutMs, polling: 20 },
      );
    } catch (error) {
      const reader = await this.reader(name).catch(() => undefined);
      throw new Error(
        `reader ${name} did not receive event ${id}: ${JSON.stringify(reader)}`,
        { cause: error },
      );
    }
  }
}
