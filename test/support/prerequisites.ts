import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { DEBIAN_CHROMIUM } from './chromium';

/**
 * What `npm test` needs beyond `npm ci`, checked in a second before the
 * suites start, so a missing server is one line up front instead of a
 * failure ten minutes in.
 */

/**
 * The Node.js every npm script runs on: package.json's "node" devDependency,
 * an exact version whose package puts that runtime first on npm scripts'
 * PATH (node_modules/.bin/node).
 */
export function pinnedNodeVersion(repoRoot: string): string {
  const manifest = JSON.parse(
    readFileSync(join(repoRoot, 'package.json'), 'utf8'),
  ) as { devDependencies?: Record<string, string> };
  const pinned = manifest.devDependencies?.node;
  if (!pinned || !/^\d+\.\d+\.\d+$/.test(pinned)) {
    throw new Error(
      'package.json must pin the "node" devDependency to one exact version',
    );
  }
  return pinned;
}

/** Undefined when `running` (process.version) is the pinned one, else why not. */
export function runtimeProblem(
  running: string,
  pinned: string,
): string | undefined {
  if (running === `v${pinned}`) return undefined;
  return (
    `npm test runs on Node.js ${pinned} (package.json's "node" devDependency) and this is ${running}: ` +
    'run `npm ci` (without --ignore-scripts, which skips fetching it) and start the tests with npm'
  );
}

export const TEST_REDIS = { host: '127.0.0.1', port: 6379 };

export const REDIS_START_COMMAND =
  'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no';

/** Resolves to undefined when a Redis server answers PING, else the reason. */
export function redisProblem(
  host: string,
  port: number,
  timeoutMs = 2000,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (problem: string | undefined) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(timeoutMs, () => finish('no answer in time'));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(error.code ?? error.message),
    );
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) =>
      finish(
        data.toString().startsWith('+PONG')
          ? undefined
          : 'it did not answer PING',
      ),
    );
  });
}

/** Which Chromium the browser test will use (the same order as findChromium). */
export function chromiumSource(
  env: Record<string, string | undefined>,
  repoRoot: string,
): string {
  const configured = env.CHROMIUM_PATH?.trim();
  if (configured) return `CHROMIUM_PATH (${configured})`;
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  const packaged = join(repoRoot, 'node_modules', '@sparticuz', 'chromium');
  return existsSync(packaged)
    ? 'the @sparticuz/chromium package'
    : 'none found (run npm ci)';
}

/** "host:port" of a PostgreSQL URL, never its user or password. */
export function postgresTarget(url: string): string {
  try {
    const { hostname, port } = new URL(url);
    return `${hostname}:${port || '5432'}`;
  } catch {
    return 'an unparsable URL';
  }
}
