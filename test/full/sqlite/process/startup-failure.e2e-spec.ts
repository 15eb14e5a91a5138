import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findFreePort,
  runToExit,
  type ExitResult,
} from '../../../support/server-process';

/**
 * A start-up that fails once configuration is valid (here: PostgreSQL
 * cannot be reached) is logged like everything else — JSON lines, no
 * colours, no stack — and the failure itself is one line that says what was
 * tried, how it failed and that the process exits.
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

  const lines = () => result.stdout.trim().split('\n');

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
    const failures = lines()
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((line) => line.level >= 50);
    expect(failures).toHaveLength(1);
    expect(failures[0].msg).toBe(
      `Start-up failed: the database at 127.0.0.1:${port} could not be reached (ECONNREFUSED), and start-up does not retry; exiting with code 1`,
    );
    expect(result.stdout).not.toContain('Retrying');
    expect(result.stdout).not.toContain('hunter2');
  });
});
