import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * A GET as a pipelining client writes it, byte for byte; `requestId`, sent
 * as X-Request-Id, comes back on its answer.
 */
export const rawGet = (path: string, requestId?: string): string =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
  (requestId ? `X-Request-Id: ${requestId}\r\n` : '') +
  '\r\n';

/** A POST with a JSON body, as a pipelining client writes it. */
export function rawPost(path: string, body: unknown): string {
  const json = JSON.stringify(body);
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`
  );
}

/**
 * Opens a raw TCP connection and writes `requests` in one go, without
 * waiting for any answer. The socket starts paused: nothing is read until
 * the test calls readAnswers.
 */
export async function pipeline(
  port: number,
  requests: string[],
): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  await once(socket, 'connect');
  socket.write(requests.join(''));
  return socket;
}

/**
 * Reads every answer until the server closes the connection or `expected`
 * answers have arrived. Bodies are Content-Length delimited (every answer
 * the requests here get); a chunked one fails the read.
 */
export async function readAnswers(
  socket: Socket,
  expected: number,
): Promise<{ answers: RawAnswer[]; closed: boolean }> {
  const answers: RawAnswer[] = [];
  let buffer = Buffer.alloc(0);
  let closed = false;
  const parse = () => {
    for (;;) {
      const headEnd = buffer.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const [statusLine, ...lines] = buffer
        .subarray(0, headEnd)
        .toString('latin1')
        .split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line
          .slice(colon + 1)
          .trim();
      }
      if (headers['content-length'] === undefined) {
        throw new Error(`an answer without Content-Length: ${statusLine}`);
      }
      const end = headEnd + 4 + Number(headers['content-length']);
      if (buffer.length < end) return;
      answers.push({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: buffer.subarray(headEnd + 4, end).toString('utf8'),
      });
      buffer = buffer.subarray(end);
    }
  };
  await new Promise<void>((resolve, reject) => {
    const done = () => {
      socket.removeAllListeners('data');
      resolve();
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      try {
        parse();
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (answers.length >= expected) done();
    });
    socket.once('close', () => {
      closed = true;
      done();
    });
    socket.once('error', reject);
    socket.resume();
  });
  return { answers, closed };
}
