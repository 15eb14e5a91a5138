import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, findFreePort } from '../../../support/server-process';

/**
 * `npm start` as a developer or a naive supervisor runs it: a signal sent
 * to the npm process reaches the server, which drains and exits, instead
 * of leaving it running without a parent.
 */

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor(check: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe('npm start', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'npm-start-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'passes %s on to the server, which exits with the npm process',
    async (signal) => {
      const port = await findFreePort();
      const npm = spawn('npm', ['start', '--silent'], {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          PORT: String(port),
          DATABASE_URL: `file:${join(dir, `${signal}.sqlite`)}`,
          LOG_LEVEL: 'info',
        },
      });
      let output = '';
      npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = once(npm, 'exit');
      let serverPid = 0;
      try {
        // The server's own pid, from its JSON start-up line.
        const listening = () =>
          /"pid":(\d+)[^\n]*"msg":"Listening on /.exec(output);
        expect(await waitFor(() => listening() !== null, 20_000)).toBe(true);
        serverPid = Number(listening()?.[1]);
        expect(serverPid).not.toBe(npm.pid);

        npm.kill(signal);
        await exited;
        expect(await waitFor(() => !isRunning(serverPid), 10_000)).toBe(true);
      } finally {
        npm.kill('SIGKILL');
        // A server left behind by a failing run must not outlive the test.
        if (serverPid && isRunning(serverPid))
          process.kill(serverPid, 'SIGKILL');
      }
    },
    40_000,
  );
});
