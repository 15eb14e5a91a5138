import { Agent, request as httpRequest } from 'node:http';
import { listen } from './support/pending-request';
import { createTestApp, type TestApp } from './support/test-app';

interface Answer {
  status: number;
  connection: string | undefined;
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
      response.resume();
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          connection: response.headers.connection,
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
    expect(answer).toEqual({ status: 404, connection: 'close' });
  });

  it('keeps the connection after refusing a small body', async () => {
    const answer = await postPartly(
      baseUrl,
      '/api/no-such-route',
      100,
      100,
      agent,
    );
    expect(answer).toEqual({ status: 404, connection: 'keep-alive' });
  });
});
