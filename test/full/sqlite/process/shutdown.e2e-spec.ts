import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import {
  startDevImageApiProcess,
  type DevImageApiProcess,
} from '../../../support/dev-image-api-process';
import {
  startServer,
  type ServerProcess,
} from '../../../support/server-process';

/**
 * Graceful shutdown of the real server process: SIGTERM in the middle of a
 * slow logo request.
 */

const LOGO_REQUEST = JSON.stringify({
  projectId: 'any',
  companyName: 'Acme',
  style: 'modern',
  colors: ['navy'],
});

interface Answer {
  status?: number;
  body?: string;
  /** Set when the connection ended without an answer. */
  error?: string;
}

/** POSTs a logo request on its own connection; never rejects. */
function postLogo(baseUrl: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = httpRequest(
      `${baseUrl}/api/ai/generate-logo`,
      {
        method: 'POST',
        agent: false,
        headers: { 'Content-Type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body }));
        res.on('error', (error) => resolve({ error: error.message }));
      },
    );
    req.on('error', (error) => resolve({ error: error.message }));
    req.end(LOGO_REQUEST);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the upstream has received `count` calls. */
async function upstreamCalls(upstream: DevImageApiProcess, count: number) {
  const admin = new URL(upstream.url).origin;
  for (let i = 0; i < 200; i++) {
    const res = await request(admin).get('/_dev');
    if ((res.body as { requests: number }).requests >= count) return;
    await sleep(25);
  }
  throw new Error('The upstream never received the call');
}

describe('Graceful shutdown (SIGTERM)', () => {
  let dir: string;
  let upstream: DevImageApiProcess;
  let server: ServerProcess | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shutdown-'));
  });

  afterEach(async () => {
    await server?.stop();
    await upstream?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (latencyMs: number, env: Record<string, string> = {}) => {
    upstream = await startDevImageApiProcess({
      IMAGE_DEV_LATENCY_MS: String(latencyMs),
    });
    server = await startServer(
      {
        DATABASE_URL: `file:${join(dir, 'db.sqlite')}`,
        IMAGE_API_KEY: 'sk-shutdown-test',
        IMAGE_API_URL: upstream.url,
        IMAGE_API_MAX_RETRIES: '0',
        ...env,
      },
      { cwd: dir },
    );
    return server;
  };

  it('answers a logo request that was waiting on the upstream, refuses new connections, and exits 0', async () => {
    const running = await start(3000);
    const answer = postLogo(running.baseUrl);
    await upstreamCalls(upstream, 1);

    process.kill(running.pid, 'SIGTERM');
    await sleep(300);
    // The listener is closed: a new connection is refused.
    const late = await postLogo(running.baseUrl);
    expect(late.error).toMatch(/ECONNREFUSED|socket hang up|ECONNRESET/);

    const { status, body } = await answer;
    expect(status).toBe(200);
    expect(JSON.parse(body ?? '{}')).toMatchObject({
      success: true,
      message: 'Logo generated successfully!',
    });
    expect(await running.waitForExit()).toBe(0);
  }, 60_000);

  it('after SHUTDOWN_TIMEOUT_MS closes a request still running, and still exits 0 in time', async () => {
    const running = await start(30_000, { SHUTDOWN_TIMEOUT_MS: '1000' });
    const answer = postLogo(running.baseUrl);
    await upstreamCalls(upstream, 1);

    const signalled = Date.now();
    process.kill(running.pid, 'SIGTERM');
    const result = await answer;
    // No answer can be given: the connection is closed.
    expect(result.status).toBeUndefined();
    expect(result.error).toMatch(/socket hang up|ECONNRESET/);
    expect(await running.waitForExit()).toBe(0);
    // Well before the 30 s the upstream would have taken.
    expect(Date.now() - signalled).toBeLessThan(15_000);
  }, 60_000);
});
