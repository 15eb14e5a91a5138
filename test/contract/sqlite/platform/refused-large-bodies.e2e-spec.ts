import { Agent, request as httpRequest } from 'node:http';
import { listen } from '../../../support/pending-request';
import { createTestApp, type TestApp } from '../../../support/test-app';

interface Answer {
  status: number;
  connection: string | undefined;
  body: unknown;
}

/**
 * Sends the headers of a POST declaring `declaredBytes` and only the first
 * `sentBytes` of it, then reads the answer (as a flooding client that the
 * service refuses before reading its body would).
 */
function postPartly(
  baseUrl: string,
  path: string,
  declaredBytes: number,
  sentBytes: number,
  agent: Agent,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(`${baseUrl}${path}`, {
      method: 'POST',
      agent,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(declaredBytes),
      },
    });
    call.once('error', reject);
    call.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          connection: response.headers.connection,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
        }),
      );
    });
    call.write(Buffer.alloc(sentBytes, ' '));
    // The rest is never sent when only part was asked for: the answer must
    // come without it.
    if (sentBytes === declaredBytes) call.end();
  });
}

describe('Refused requests with large bodies', () => {
  let app: TestApp;
  let baseUrl: string;
  let agent: Agent;

  beforeAll(async () => {
    app = await createTestApp();
    baseUrl = await listen(app);
  });
  beforeEach(() => {
    agent = new Agent({ keepAlive: true });
  });
  afterEach(() => agent.destroy());
  afterAll(async () => app?.close());

  it('closes the connection after refusing a large body it has not read, instead of reading and dropping the rest', async () => {
    const answer = await postPartly(
      baseUrl,
      '/api/no-such-route',
      1_000_000,
      1024,
      agent,
    );
    expect(answer).toEqual({
      status: 404,
      connection: 'close',
      body: { error: 'Not found', code: 'not_found' },
    });
  });

  it('keeps the connection after refusing a small body', async () => {
    const answer = await postPartly(
      baseUrl,
      '/api/no-such-route',
      100,
      100,
      agent,
    );
    expect(answer).toEqual({
      status: 404,
      connection: 'keep-alive',
      body: { error: 'Not found', code: 'not_found' },
    });
  });

  it('answers 408 in the route envelope, and closes the connection, when a large body does not arrive within 10 s of its turn', async () => {
    const answer = await postPartly(
      baseUrl,
      '/api/projects',
      1_000_000,
      100_000,
      agent,
    );
    expect(answer).toEqual({
      status: 408,
      connection: 'close',
      body: {
        error: 'Request body was not received in time',
        code: 'body_timeout',
      },
    });
  }, 30_000);
});
