import { join } from 'node:path';
import { nodeBinaryProblem } from '../src/runtime/node-binary';
import {
  REDIS_START_COMMAND,
  chromiumSource,
  pinnedNodeVersion,
  redisProblem,
  runtimeProblem,
  serverTarget,
  testPlan,
  type TestCommand,
} from '../test/support/prerequisites';

/**
 * The first step of `npm test` (and, with --all, of `npm run test:all`):
 * one line saying what the run covers and what it leaves out, or one line
 * saying what is missing and how to get it (exit code 1).
 */
async function main(): Promise<void> {
  const root = join(__dirname, '..');
  const command: TestCommand = process.argv.includes('--all')
    ? 'npm run test:all'
    : 'npm test';
  const pinned = pinnedNodeVersion(root);
  // The version first (a wrong one needs no hash), then the bytes.
  const wrongRuntime =
    runtimeProblem(process.version, pinned) ?? nodeBinaryProblem(root);
  if (wrongRuntime) {
    console.error(wrongRuntime);
    process.exit(1);
  }
  const plan = testPlan(
    command,
    pinned,
    process.env,
    chromiumSource(process.env, root),
  );
  if (plan.problem) {
    console.error(plan.problem);
    process.exit(1);
  }
  const redisUrl = process.env.TEST_REDIS_URL?.trim();
  if (redisUrl) {
    const { hostname, port } = new URL(redisUrl);
    const problem = await redisProblem(hostname, Number(port || 6379));
    if (problem) {
      console.error(
        `TEST_REDIS_URL names Redis on ${serverTarget(redisUrl, 6379)} and none answered (${problem}); start one: ${REDIS_START_COMMAND}`,
      );
      process.exit(1);
    }
  }
  console.log(plan.line);
}

void main();
