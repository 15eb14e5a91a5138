import { join } from 'node:path';
import {
  REDIS_START_COMMAND,
  TEST_REDIS,
  chromiumSource,
  postgresTarget,
  redisProblem,
} from '../test/support/prerequisites';

/**
 * The first step of `npm test`: one line saying what the run will use, or
 * one line saying what is missing and how to start it (exit code 1).
 */
async function main(): Promise<void> {
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
  const chromium = chromiumSource(process.env, join(__dirname, '..'));
  console.log(
    `npm test uses: SQLite (built in), Redis on ${redis}, Chromium from ${chromium}, ${postgres}`,
  );
}

void main();
