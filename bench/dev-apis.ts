import { join } from 'node:path';
import { hasExited, sleep, spawnPinned, stopProcess } from './processes';
import { freePort, probe } from './service';
import { LOAD_CORE, REPO_ROOT } from './settings';

/**
 * The service's own dev image and text APIs (`npm run image-api:dev`,
 * `npm run text-api:dev`, built in dist-dev/), started as processes on the
 * load core so that what they do (drawing a PNG, writing JSON) never lands
 * on the server's core.
 */

export interface DevApi {
  /** What the service's IMAGE_API_URL / TEXT_API_URL is set to. */
  url: string;
  stop(): Promise<void>;
}

const DEV_DIST = join(REPO_ROOT, 'dist-dev', 'dev-servers');

async function startDevServer(
  entry: string,
  env: Record<string, string>,
  port: number,
): Promise<void> {
  const child = spawnPinned(LOAD_CORE, process.execPath, [entry], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  // Any answer (a 404 on /) means it listens.
  while ((await probe(`http://127.0.0.1:${port}/`)) === 0) {
    if (hasExited(child) || Date.now() > deadline) {
      await stopProcess(child);
      throw new Error(`${entry} did not start on port ${port}`);
    }
    await sleep(50);
  }
  running.set(port, () => stopProcess(child));
}

const running = new Map<number, () => Promise<void>>();

/** The dev image API, answering every generation after `latencyMs`. */
export async function startDevImageApi(latencyMs: number): Promise<DevApi> {
  const port = await freePort();
  await startDevServer(
    join(DEV_DIST, 'image-api', 'main.js'),
    { IMAGE_DEV_PORT: String(port), IMAGE_DEV_LATENCY_MS: String(latencyMs) },
    port,
  );
  return {
    url: `http://127.0.0.1:${port}/v1/images/generations`,
    stop: () => running.get(port)!(),
  };
}

/** The dev text API, answering every chat completion after `latencyMs`. */
export async function startDevTextApi(latencyMs: number): Promise<DevApi> {
  const port = await freePort();
  await startDevServer(
    join(DEV_DIST, 'text-api', 'main.js'),
    { TEXT_DEV_PORT: String(port), TEXT_DEV_LATENCY_MS: String(latencyMs) },
    port,
  );
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stop: () => running.get(port)!(),
  };
}
