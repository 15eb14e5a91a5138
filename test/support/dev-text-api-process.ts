import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findFreePort, REPO_ROOT } from './server-process';

export const DEV_TEXT_API_ENTRY = join(
  REPO_ROOT,
  'dist-dev',
  'dev-servers',
  'text-api',
  'main.js',
);

const READY_TIMEOUT_MS = 15_000;

export interface DevTextApiProcess {
  /** The base URL to set as TEXT_API_URL, as the process printed it. */
  readonly url: string;
  readonly stdout: string;
  stop(): Promise<void>;
}

/**
 * Runs the built dev text API as `npm run text-api:dev` does (`node
 * dist-dev/dev-servers/text-api/main.js`) on a free port, with `env` added
 * (TEXT_DEV_* variables of Jest's own environment are not passed on, so a
 * developer's latency or error setting cannot leak in), and waits for its
 * "Listening on" line.
 */
export async function startDevTextApiProcess(
  env: Record<string, string> = {},
): Promise<DevTextApiProcess> {
  if (!existsSync(DEV_TEXT_API_ENTRY)) {
    throw new Error(`${DEV_TEXT_API_ENTRY} does not exist: run npm run build`);
  }
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('TEXT_DEV_'),
    ),
  );
  const port = await findFreePort();
  const child = spawn(process.execPath, [DEV_TEXT_API_ENTRY], {
    cwd: REPO_ROOT,
    env: { ...inherited, TEXT_DEV_PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'close');

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The dev text API did not start. stderr:\n${stderr}`));
    }, READY_TIMEOUT_MS);
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      // Nest's logger may colour the line: take only the URL's characters.
      const match = /Listening on (http:\/\/[\w.:/-]+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(
        new Error(`The dev text API exited (${code}). stderr:\n${stderr}`),
      );
    });
  });

  return {
    url,
    get stdout() {
      return stdout;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
      }
      await exited;
    },
  };
}
