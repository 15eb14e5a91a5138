import { request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { TestApp } from './test-app';

export interface PendingRequest {
  /** The status and parsed body; rejects if the request was aborted. */
  readonly response: Promise<{ status: number; body: unknown }>;
  /** Disconnects, as a browser tab that is closed does. */
  abort(): void;
}

/**
 * A POST whose caller can hang up halfway: supertest cannot. The app must
 * be listening (see listen()). No keep-alive: hanging up closes the socket.
 */
export function startPost(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): PendingRequest {
  const req = httpRequest(`${baseUrl}${path}`, {
    method: 'POST',
    agent: false,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
  const response = new Promise<{ status: number; body: unknown }>(
    (resolve, reject) => {
      req.once('error', reject);
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('error', reject);
        res.once('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            body: text === '' ? undefined : (JSON.parse(text) as unknown),
          });
        });
      });
    },
  );
  // An aborted request's rejection is expected; tests that care await it.
  response.catch(() => undefined);
  req.end(JSON.stringify(body));
  return { response, abort: () => req.destroy() };
}

/** Makes the app listen on a free port of 127.0.0.1; returns its base URL. */
export async function listen(t: TestApp): Promise<string> {
  // Once listening, the same address (a second listen would throw).
  if (!t.server.listening) await t.app.listen(0, '127.0.0.1');
  const { port } = t.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/**
 * Polls `condition` every 5 ms until it holds; rejects after `timeoutMs`
 * so a test fails with a message instead of hanging.
 */
export async function until(
  condition: () => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Sends the head of a POST announcing a 1 MB body and only its first bytes,
 * and resolves with the first bytes of the answer: a server that waited for
 * the body would never answer (the socket is closed after 10 s).
 */
export function answerBeforeBody(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const lines = Object.entries({
        Host: 'localhost',
        'Content-Type': 'application/json',
        'Content-Length': String(1024 * 1024),
        ...headers,
      }).map(([name, value]) => `${name}: ${value}`);
      socket.write(`POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n[1,`);
    });
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(answer || 'no answer');
    }, 10_000);
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n\r\n')) {
        clearTimeout(timer);
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', reject);
  });
}
