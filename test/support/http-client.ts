import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { Answer } from './answer-contract';

export interface HttpCall {
  method: string;
  /** Path and query, already percent-encoded where a client would encode. */
  path: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
}

const REQUEST_TIMEOUT_MS = 30_000;

/** A request that failed on a kept-alive connection the server had closed. */
class StaleConnectionError extends Error {
  constructor(cause: Error) {
    super(`kept-alive connection closed by the server: ${cause.message}`, {
      cause,
    });
  }
}

/**
 * Sends requests as an ordinary client does (keep-alive connections), with
 * any method, header set and body bytes. supertest cannot send a body
 * without its own Content-Type handling, duplicated headers or raw bytes.
 */
export class HttpClient {
  private readonly agent: Agent;

  constructor(
    private readonly baseUrl: string,
    maxSockets = 8,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  /**
   * A keep-alive connection the server closed as idle (5 s, plus Node's
   * 1 s of grace) is normally dropped by the agent first. When this
   * process's own loop was held past that moment (a long GC in a Jest
   * worker that has run many suites), the request goes out on the closed
   * connection and fails with ECONNRESET before the server read any of it.
   * Node's documentation gives the remedy: send it again, once, on a new
   * connection.
   */
  async send(call: HttpCall): Promise<Answer> {
    try {
      return await this.sendOnce(call);
    } catch (error) {
      if (!(error instanceof StaleConnectionError)) throw error;
      return this.sendOnce(call, false);
    }
  }

  private sendOnce(
    call: HttpCall,
    agent: Agent | false = this.agent,
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${this.baseUrl}${call.path}`, {
        method: call.method,
        agent,
        headers: call.headers,
        timeout: REQUEST_TIMEOUT_MS,
      });
      req.once('timeout', () =>
        req.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)),
      );
      req.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          req.reusedSocket && error.code === 'ECONNRESET'
            ? new StaleConnectionError(error)
            : error,
        ),
      );
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('error', reject);
        res.once('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      });
      req.end(call.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * Writes `bytes` on a fresh connection exactly as given (a request line no
 * client library would build, a body shorter than its Content-Length, a
 * broken chunked encoding), half-closes after `holdMs`, and reads what comes
 * back until the server closes. Resolves with the raw answer ('' when the
 * server just closed the connection).
 */
export function sendRaw(
  port: number,
  bytes: Buffer | string,
  holdMs = 0,
): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), REQUEST_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.write(bytes);
    setTimeout(() => socket.end(), holdMs);
  });
}

/** Reads a raw HTTP/1.1 answer (Content-Length or chunked). */
export function parseRawAnswer(raw: string): Answer | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line
      .slice(colon + 1)
      .trim();
  }
  let body = Buffer.from(raw.slice(end + 4), 'latin1');
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = body.indexOf('\r\n', at);
      const size = parseInt(body.subarray(at, lineEnd).toString(), 16);
      if (!size) break;
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  return { status, headers, text: body.toString('utf8') };
}
