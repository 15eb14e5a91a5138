import { connect, type Socket } from 'node:net';
import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { listen } from '../../../support/pending-request';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Large bodies (over 64 KB, or chunked) are read a few at a time, shared
 * between clients: one client that opens many sockets announcing large
 * bodies and then stalls holds one permit and two places in line, is
 * refused the rest at once, and its waiters are refused when their own
 * wait ends; other clients' bodies are read meanwhile.
 */

const FLOOD_SOCKETS = 65;
const ATTACKER = '203.0.113.66';
const LEGITIMATE = '198.51.100.5';
const WAIT_MS = 1_500;
const READ_TIMEOUT_MS = 3_000;

interface RawAnswer {
  status: number;
  body: unknown;
}

/**
 * A raw socket that sends the headers of a PATCH announcing `declared`
 * bytes and then nothing; resolves with the answer once the server closes
 * the connection (status 0 if it closed without one).
 */
function stalledPatch(
  port: number,
  path: string,
  declared: number,
  sockets: Socket[],
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = body;
      }
      resolve({ status, body: parsed });
    });
    socket.write(
      `PATCH ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `X-Forwarded-For: ${ATTACKER}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${declared}\r\n\r\n`,
    );
  });
}

/**
 * A raw socket from `localAddress` that announces `declared` bytes and then
 * sends one byte a second; resolves with the status the server answered
 * (0 if it closed without one).
 */
function tricklingPatch(
  port: number,
  path: string,
  localAddress: string,
  declared: number,
  sockets: Socket[],
): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    sockets.push(socket);
    const chunks: Buffer[] = [];
    const drip = setInterval(() => {
      if (socket.writable) socket.write('{');
    }, 1000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(drip);
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0));
    });
    socket.write(
      `PATCH ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
    );
  });
}

/** A PATCH with a JSON body, sent from `localAddress`; its status. */
function patchFrom(
  baseUrl: string,
  path: string,
  localAddress: string,
  body: unknown,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(`${baseUrl}${path}`, {
      method: 'PATCH',
      agent: false,
      localAddress,
      headers: { 'Content-Type': 'application/json' },
    });
    call.once('error', reject);
    call.once('response', (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    call.end(JSON.stringify(body));
  });
}

/** A PATCH whose body is sent chunked (no Content-Length). */
function chunkedPatch(
  baseUrl: string,
  path: string,
  body: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(`${baseUrl}${path}`, {
      method: 'PATCH',
      agent: false,
      headers: {
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
        'X-Forwarded-For': LEGITIMATE,
      },
    });
    call.once('error', reject);
    call.once('response', (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    call.write(body.slice(0, 5));
    call.end(body.slice(5));
  });
}

/** The value of `large_bodies_refused_total{reason}` on /metrics. */
async function refused(t: TestApp, reason: string): Promise<number> {
  const { text } = await request(t.server).get('/metrics').expect(200);
  const line = text
    .split('\n')
    .find((l) =>
      l.startsWith(`large_bodies_refused_total{reason="${reason}"}`),
    );
  return line === undefined ? 0 : Number(line.split(' ').pop());
}

describe('large bodies under a flood of stalled sockets from one client', () => {
  let t: TestApp;
  let base: string;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      TRUST_PROXY: 'loopback',
      LARGE_BODY_WAIT_MS: String(WAIT_MS),
      LARGE_BODY_READ_TIMEOUT_MS: String(READ_TIMEOUT_MS),
      // This suite is about the line; the byte-rate floor has its own below.
      LARGE_BODY_MIN_BYTES_PER_S: '0',
    });
    base = await listen(t);
    port = Number(new URL(base).port);
  });
  afterAll(() => t.close());

  it("serves another client's 100 KB PATCHes and chunked body while one client's 65 stalled sockets hold its share; the stalled waiters are refused with 503 at their own deadline and the stalled holder with 408", async () => {
    const created = await request(t.server)
      .post('/api/projects')
      .send({ name: 'Fair', description: 'd', userId: 'u-1' })
      .expect(201);
    const path = `/api/projects/${created.body.project.id as string}`;

    const sockets: Socket[] = [];
    let answered = 0;
    const flood = Array.from({ length: FLOOD_SOCKETS }, () =>
      stalledPatch(port, path, 200_000, sockets).then((answer) => {
        answered++;
        return answer;
      }),
    );
    // Every flood socket is either answered or still open on the server
    // before the legitimate client starts.
    const open = () =>
      new Promise<number>((resolve, reject) =>
        t.server.getConnections((error, count) =>
          error ? reject(error) : resolve(count),
        ),
      );
    while ((await open()) + answered < FLOOD_SOCKETS) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await request(t.server).get('/health/live').expect(200);

    const served: number[] = [];
    for (let n = 0; n < 12; n++) {
      const answer = await request(t.server)
        .patch(path)
        .set('X-Forwarded-For', LEGITIMATE)
        .send({ description: `${n}`.padEnd(100_000, 'x') });
      served.push(answer.status);
    }
    const chunked = await chunkedPatch(base, path, '{"name":"Chunked"}');

    process.stdout.write(
      `large-body flood: legitimate 100 KB PATCHes served ${served.filter((s) => s === 200).length}/12 (${served.join(',')}), chunked ${chunked}\n`,
    );
    expect(served).toEqual(Array(12).fill(200));
    expect(chunked).toBe(200);

    const answers = await Promise.all(flood);
    const statuses: Record<number, number> = {};
    for (const { status } of answers) {
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    process.stdout.write(
      `large-body flood: flood answers ${JSON.stringify(statuses)}\n`,
    );
    // 62 refused at once (over the client's share), 2 waiters at their
    // deadline, and the holder once its body did not come in time.
    expect(statuses).toEqual({ 503: 64, 408: 1 });
    expect(answers.filter((a) => a.status === 503)[0].body).toEqual({
      error: 'Too many large request bodies are being read; try again shortly',
      code: expect.any(String),
    });
    expect(answers.find((a) => a.status === 408)?.body).toEqual({
      error: 'Request body was not received in time',
      code: expect.any(String),
    });
    expect(await refused(t, 'share')).toBe(62);
    expect(await refused(t, 'deadline')).toBe(2);
    expect(await refused(t, 'read_timeout')).toBe(1);
    for (const socket of sockets) socket.destroy();
  });
});

describe('large bodies under trickling sockets from neighbouring addresses', () => {
  let t: TestApp;
  let base: string;
  let port: number;

  beforeAll(async () => {
    // Defaults: 4 permits, 3 s wait, 10 s to arrive, 1 KB/s after 2 s.
    t = await createTestApp({});
    base = await listen(t);
    port = Number(new URL(base).port);
  });
  afterAll(() => t.close());

  it('serves a 100 KB PATCH from another /24 while 4 addresses of one /24 trickle 2 bodies each at one byte a second, and cuts the tricklers with 408 once they fall under the byte-rate floor', async () => {
    const created = await request(t.server)
      .post('/api/projects')
      .send({ name: 'Neighbours', userId: 'u-net' })
      .expect(201);
    const path = `/api/projects/${created.body.project.id as string}`;

    const sockets: Socket[] = [];
    const tricklers = ['127.0.0.11', '127.0.0.12', '127.0.0.13', '127.0.0.14'];
    const trickled = tricklers.flatMap((address) => [
      tricklingPatch(port, path, address, 200_000, sockets),
      tricklingPatch(port, path, address, 200_000, sockets),
    ]);
    const open = () =>
      new Promise<number>((resolve, reject) =>
        t.server.getConnections((error, count) =>
          error ? reject(error) : resolve(count),
        ),
      );
    while ((await open()) < sockets.length) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await request(t.server).get('/health/live').expect(200);

    const served: number[] = [];
    for (let n = 0; n < 5; n++) {
      served.push(
        await patchFrom(base, path, '127.0.1.5', {
          description: `${n}`.padEnd(100_000, 'x'),
        }),
      );
    }
    process.stdout.write(
      `large-body neighbours: legitimate 100 KB PATCHes ${served.join(',')}\n`,
    );
    expect(served).toEqual([200, 200, 200, 200, 200]);

    const statuses = await Promise.all(trickled);
    // The network's share (2 permits) was cut for being too slow; the
    // others waited for a turn in vain (503) or were cut once they had one.
    expect(statuses.every((status) => status === 408 || status === 503)).toBe(
      true,
    );
    expect(await refused(t, 'too_slow')).toBeGreaterThanOrEqual(2);
    expect(await refused(t, 'read_timeout')).toBe(0);
    for (const socket of sockets) socket.destroy();
  });
});
