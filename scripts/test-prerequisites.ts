import { join } from 'node:path';
import {
  REDIS_START_COMMAND,
  TEST_REDIS,
  chromiumSource,
  pinnedNodeVersion,
  postgresTarget,
  redisProblem,
  runtimeProblem,
} from '../test/support/prerequisites';

/**
 * The first step of `npm test`: one line saying what the run will use, or
 * one line saying what is missing and how to start it (exit code 1).
 */
async function main(): Promise<void> {
  const root = join(__dirname, '..');
  const pinned = pinnedNodeVersion(root);
  const wrongRuntime = runtimeProblem(process.version, pinned);
  if (wrongRuntime) {
    console.error(wrongRuntime);
    process.exit(1);
  }
  const redis = `${TEST_REDIS.host}:${TEST_REDIS.port}`;
  const problem = await redisProblem(TEST_REDIS.host, TEST_REDIS.port);
  if (problem) {
    console.error(
      `npm test needs Redis on ${redis} (the rate-limit suites) and none answered (${problem}); start one: ${REDIS_START_COMMAND}`,
    );
    process.exit(1);
  }
  const postgresUrl = process.env.TEST_POSTGRES_URL?.trim();
  const postgres = postgresUrl
    ? `PostgreSQL pass on ${postgresTarget(postgresUrl)}`
    : 'no PostgreSQL pass (TEST_POSTGRES_URL is not set)';
  const chromium = chromiumSource(process.env, root);
  console.log(
    `npm test uses: Node.js ${pinned}, SQLite (built in), Redis on ${redis}, Chromium from ${chromium}, ${postgres}`,
  );
}

void main();
