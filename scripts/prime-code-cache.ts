import { spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shippedCodeCache } from '../src/start/code-cache';

/**
 * Ships V8's compiled code with the bundle, so that a new pod's first start
 * runs from it too (docs/decisions.md). The bundle is started as the image
 * starts it, on a scratch SQLite file: once to hold one project (the
 * warm-up reads, lists, streams and PATCHes it, so those paths are in the
 * cache), then again, and the cache that second start saves after its
 * warm-up is copied beside the bundle as `app.v8cache`. The image runs the
 * same Node.js as this build (the pinned runtime); a cache V8 refuses at
 * run time only costs the start that then saves its own.
 */

const READY_WITHIN_MS = 60_000;

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

async function waitForReady(base: string, exited: () => boolean) {
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline && !exited()) {
    const status = await fetch(`${base}/health/ready`)
      .then((res) => res.status)
      .catch(() => 0);
    if (status === 200) return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
  throw new Error('the bundle did not become ready');
}

/** Starts the bundle, runs `whileReady`, then stops it with SIGTERM. */
async function withService(
  bundleDir: string,
  scratch: string,
  whileReady: (base: string) => Promise<void>,
): Promise<void> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(bundleDir, 'main.js')], {
    cwd: scratch,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      // The published-sites listener on a port of its own choosing.
      SITES_PORT: '0',
      DATABASE_URL: `file:${join(scratch, 'prime.db')}`,
      NODE_COMPILE_CACHE: join(scratch, 'cache'),
      // Nothing is called: a refused connection at once, never a wait.
      IMAGE_API_URL: 'http://127.0.0.1:9/v1/images/generations',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  const exit = new Promise<void>((resolveExit) =>
    child.once('exit', () => {
      exited = true;
      resolveExit();
    }),
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForReady(base, () => exited);
    await whileReady(base);
  } finally {
    child.kill('SIGTERM');
    await exit;
  }
}

export async function primeCodeCache(bundleDir: string): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'prime-code-cache-'));
  try {
    await withService(bundleDir, scratch, async (base) => {
      const created = await fetch(`${base}/api/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Warm-up', userId: 'build' }),
      });
      if (created.status !== 201) {
        throw new Error(`creating a project answered ${created.status}`);
      }
    });
    // The second start finds the project; only its cache is kept.
    rmSync(join(scratch, 'cache'), { recursive: true, force: true });
    await withService(bundleDir, scratch, () => Promise.resolve());
    const saved = readdirSync(join(scratch, 'cache')).filter(
      (name) => name.startsWith('app-') && name.endsWith('.v8cache'),
    );
    if (saved.length !== 1) {
      throw new Error(`expected one saved cache, found ${saved.length}`);
    }
    const shipped = shippedCodeCache(join(bundleDir, 'app.js'));
    copyFileSync(join(scratch, 'cache', saved[0]), shipped);
    const mib = statSync(shipped).size / 2 ** 20;
    console.log(`dist/service/app.v8cache: ${mib.toFixed(1)} MiB`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
