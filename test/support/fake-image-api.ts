import { once } from 'node:events';
import {
  createServer,
  IncomingHttpHeaders,
  IncomingMessage,
  Server,
  ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON (undefined when it was not JSON). */
  body: unknown;
}

/** What the fake answers: a status with a JSON body, or raw text. */
export type FakeReply =
  { status: number; json: unknown } | { status: number; text: string };

export const FAKE_IMAGE_URL = 'https://images.example.test/generated/logo.png';

export const Replies = {
  success: (url = FAKE_IMAGE_URL): FakeReply => ({
    status: 200,
    json: { created: 1_700_000_000, data: [{ url }] },
  }),
  error: (status: number, message: string): FakeReply => ({
    status,
    json: { error: { message, type: 'invalid_request_error' } },
  }),
  errorWithoutMessage: (status: number): FakeReply => ({
    status,
    json: { error: {} },
  }),
  withoutImage: (): FakeReply => ({
    status: 200,
    json: { created: 1, data: [] },
  }),
  notJson: (status: number): FakeReply => ({
    status,
    text: '<html>upstream proxy error</html>',
  }),
};

/**
 * A real OpenAI-compatible image API on 127.0.0.1 (port 0) standing in for
 * the paid one. Each test chooses its reply; every request is recorded.
 */
export class FakeImageApi {
  readonly requests: RecordedRequest[] = [];
  private reply: FakeReply = Replies.success();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeImageApi> {
    // The handler runs only once a request arrives, after `fake` is set.
    const server = createServer((req, res) => fake.handle(req, res));
    const fake = new FakeImageApi(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return fake;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1/images/generations`;
  }

  respondWith(reply: FakeReply): void {
    this.reply = reply;
  }

  /** Back to a successful reply and an empty request log. */
  reset(): void {
    this.reply = Replies.success();
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      this.requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
      });
      const reply = this.reply;
      if ('json' in reply) {
        res.writeHead(reply.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(reply.json));
      } else {
        res.writeHead(reply.status, { 'Content-Type': 'text/html' });
        res.end(reply.text);
      }
    });
  }
}
