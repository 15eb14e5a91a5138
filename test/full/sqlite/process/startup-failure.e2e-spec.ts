import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findFreePort,
  runToExit,
  type ExitResult,
} from '../../../support/server-process';

/** The process's stdout, a line each. */
const logLines = (result: ExitResult) => result.stdout.trim().split('\n');

/** The error and fatal lines of the process's log. */
const failuresIn = (result: ExitResult) =>
  logLines(result)
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => line.level >= 50);

/**
 * A start-up that fails once configuration is valid (here: PostgreSQL
 * cannot be reached, or a port is taken) is logged like everything else —
 * JSON lines, no colours, no stack — and the failure itself is one line
 * that says what was tried, how it failed and that the process exits.
 */

describe('a start-up failure in the log', () => {
  let dir: string;
  let port: number;
  let result: ExitResult;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'startup-failure-'));
    port = await findFreePort();
    result = await runToExit(
      {
        DATABASE_URL: `postgres://app:hunter2@127.0.0.1:${port}/workspace`,
        LOG_LEVEL: 'info',
      },
      { cwd: dir },
    );
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const lines = () => logLines(result);

  it('exits with code 1 on its own', () => {
    expect({ code: result.code, signal: result.signal }).toEqual({
      code: 1,
      signal: null,
    });
  });

  it('writes only JSON lines, without colour codes, and nothing on stderr', () => {
    expect(lines().length).toBeGreaterThan(1);
    for (const line of lines()) expect(() => JSON.parse(line)).not.toThrow();
    expect(result.stdout).not.toContain('\u001b[');
    expect(result.stderr).toBe('');
  });

  it('reports the failure once: where, the error code, and no promise of a retry', () => {
    const failures = failuresIn(result);
    expect(failures).toHaveLength(1);
    expect(failures[0].msg).toBe(
      `Start-up failed: the database at 127.0.0.1:${port} could not be reached (ECONNREFUSED), and start-up does not retry; exiting with code 1`,
    );
    expect(result.stdout).not.toContain('Retrying');
    expect(result.stdout).not.toContain('hunter2');
  });
});

/** A port another process holds on 127.0.0.1. */
async function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

describe.each([
  ['the API', 'PORT'],
  ['the sites listener', 'SITES_PORT'],
])('a start-up whose port for %s is taken', (_listener, variable) => {
  let dir: string;
  let held: { server: Server; port: number };
  let result: ExitResult;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'startup-port-'));
    held = await holdPort();
    result = await runToExit(
      {
        DATABASE_URL: `file:${join(dir, 'workspace.db')}`,
        LOG_LEVEL: 'info',
        [variable]: String(held.port),
      },
      { cwd: dir },
    );
  });
  afterAll(async () => {
    await new Promise((resolve) => held?.server.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('exits with code 1, naming the port and not the database', () => {
    expect(result.code).toBe(1);
    const failures = failuresIn(result);
    expect(failures).toHaveLength(1);
    expect(failures[0].msg).toBe(
      `Start-up failed: nothing could listen on 127.0.0.1:${held.port} (EADDRINUSE): the port is taken or the address is not this machine's (PORT and HOST, or SITES_PORT and SITES_HOST); exiting with code 1`,
    );
    expect(result.stderr).toBe('');
  });
});
