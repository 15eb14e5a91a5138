import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findFreePort, REPO_ROOT } from './server-process';

export const DEV_IMAGE_API_ENTRY = join(
  REPO_ROOT,
  'dist-dev',
  'dev-servers',
  'image-api',
  'main.js',
);

const READY_TIMEOUT_MS = 15_000;

export interface DevImageApiProcess {
  /** The generation endpoint, as the process printed it. */
  readonly url: string;
  readonly stdout: string;
  stop(): Promise<void>;
}

/**
 * Runs the built dev image API as `npm run image-api:dev` does (`node
 * dist-dev/dev-servers/image-api/main.js`) on a free port, with `env` added to
 * (IMAGE_DEV_* variables of Jest's own environment are not passed on), and
 * waits for its "listening" line.
 */
export async function startDevImageApiProcess(
  env: Record<string, string> = {},
): Promise<DevImageApiProcess> {
  if (!existsSync(DEV_IMAGE_API_ENTRY)) {
    throw new Error(`${DEV_IMAGE_API_ENTRY} does not exist: run npm run build`);
  }
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('IMAGE_DEV_'),
    ),
  );
  const port = await findFreePort();
  const child = spawn(process.execPath, [DEV_IMAGE_API_ENTRY], {
    cwd: REPO_ROOT,
    env: { ...inherited, IMAGE_DEV_PORT: String(port), ...env },
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
      reject(new Error(`The dev image API did not start. stderr:\n${stderr}`));
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
        new Error(`The dev image API exited (${code}). stderr:\n${stderr}`),
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
