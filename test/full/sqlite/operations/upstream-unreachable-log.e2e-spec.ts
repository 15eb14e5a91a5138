import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import {
  findFreePort,
  startServer,
  type ServerProcess,
} from '../../../support/server-process';

/**
 * When the image API cannot be reached, the client gets the short message
 * and the operator's log line says where and why: the URL's host and the
 * socket error code — never the key.
 */

const KEY = 'sk-unreachable-log-test';

/** The first stdout line holding `text`, waiting a moment for it. */
async function logLine(
  server: ServerProcess,
  text: string,
): Promise<string | undefined> {
  for (let i = 0; i < 50; i++) {
    const line = server.stdout.split('\n').find((l) => l.includes(text));
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

describe('an unreachable image API in the log', () => {
  let dir: string;
  let server: ServerProcess;
  let upstreamPort: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'unreachable-'));
    upstreamPort = await findFreePort();
    server = await startServer(
      {
        DATABASE_URL: `file:${join(dir, 'db.sqlite')}`,
        LOG_LEVEL: 'warn',
        IMAGE_API_KEY: KEY,
        IMAGE_API_URL: `http://127.0.0.1:${upstreamPort}/v1/images/generations`,
        IMAGE_API_MAX_RETRIES: '0',
      },
      { cwd: dir },
    );
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('names the host and the error code, not the key, while the client gets the short message', async () => {
    const res = await request(server.baseUrl)
      .post('/api/ai/generate-logo')
      .send({
        projectId: 'p',
        companyName: 'Acme',
        style: 'modern',
        colors: ['navy'],
      })
      .expect(500);
    expect(res.body).toEqual({
      success: false,
      error: 'The image service could not be reached',
      code: expect.any(String),
    });

    const line = await logLine(server, 'could not be reached');
    expect(line).toBeDefined();
    expect(JSON.parse(line ?? '{}').msg).toContain(
      `(host 127.0.0.1:${upstreamPort}, ECONNREFUSED)`,
    );
    expect(server.stdout + server.stderr).not.toContain(KEY);
  });
});
