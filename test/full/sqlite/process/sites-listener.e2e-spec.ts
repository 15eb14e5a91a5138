import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startServer,
  type ServerProcess,
} from '../../../support/server-process';
import { freePort } from '../../../support/site-client';

/**
 * The built server's sites listener as a process concern: started by
 * main.ts beside the API (not in PROCESS_ROLE=worker), closed with it on
 * SIGTERM (a clean exit 0), and a port in use fails the start-up.
 */
describe('The sites listener of the built server', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'workspace-sites-'));
  const running: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(running.map((server) => server.kill()));
    rmSync(cwd, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string>) => {
    const server = await startServer(
      { DATABASE_URL: `file:${join(cwd, `${Date.now()}.sqlite`)}`, ...env },
      { cwd },
    );
    running.push(server);
    return server;
  };

  const answers = async (port: number) =>
    fetch(`http://127.0.0.1:${port}/019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20/`)
      .then((response) => response.status)
      .catch(() => 'refused' as const);

  it('answers on SITES_PORT beside the API, and stops with it', async () => {
    const port = await freePort();
    const server = await start({ SITES_PORT: String(port) });
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-security-policy')).toContain(
      "default-src 'none'",
    );
    expect(await server.stop()).toBe(0);
    expect(await answers(port)).toBe('refused');
  });

  it('is not started by a worker (PROCESS_ROLE=worker)', async () => {
    const port = await freePort();
    const worker = await start({
      SITES_PORT: String(port),
      PROCESS_ROLE: 'worker',
    });
    expect(await answers(port)).toBe('refused');
    expect(await worker.stop()).toBe(0);
  });

  it('a SITES_PORT in use fails the start-up', async () => {
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as { port: number };
    try {
      await expect(start({ SITES_PORT: String(port) })).rejects.toThrow(
        /exited before it was ready/,
      );
    } finally {
      taken.close();
    }
  });
});
