import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findFreePort, REPO_ROOT } from './server-process';

/** Where `npm run build` puts a dev server's entry. */
export const devServerEntry = (folder: string): string =>
  join(REPO_ROOT, 'dist-dev', 'dev-servers', folder, 'main.js');

const READY_TIMEOUT_MS = 15_000;

/** A dev server: its folder in dev-servers/, its variables' prefix, its name. */
export interface DevServerKind {
  folder: string;
  prefix: string;
  name: string;
}

export interface DevApiProcess {
  /** The URL the process printed it listens on. */
  readonly url: string;
  readonly stdout: string;
  stop(): Promise<void>;
}

/**
 * Runs a built dev server as its npm script does (`node
 * dist-dev/dev-servers/<folder>/main.js`) on a free port, with `env` added
 * (its `<prefix>*` variables of Jest's own environment are not passed on, so
 * a developer's latency or error setting cannot leak in), and waits for its
 * "Listening on" line.
 */
export async function startDevApiProcess(
  kind: DevServerKind,
  env: Record<string, string> = {},
): Promise<DevApiProcess> {
  const entry = devServerEntry(kind.folder);
  if (!existsSync(entry)) {
    throw new Error(`${entry} does not exist: run npm run build`);
  }
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith(kind.prefix),
    ),
  );
  const port = await findFreePort();
  const child = spawn(process.execPath, [entry], {
    cwd: REPO_ROOT,
    env: { ...inherited, [`${kind.prefix}PORT`]: String(port), ...env },
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
      reject(new Error(`The ${kind.name} did not start. stderr:\n${stderr}`));
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
        new Error(`The ${kind.name} exited (${code}). stderr:\n${stderr}`),
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
