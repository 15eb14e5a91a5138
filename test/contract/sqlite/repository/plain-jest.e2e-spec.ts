import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * A suite runs the way Nest users run theirs: plain `npx jest --config
 * test/jest-e2e.json <file>`, with no Node.js flag typed. Jest loads Nest's
 * ES modules through require(), which needs --experimental-vm-modules;
 * .npmrc's node-options gives it to every node that npm and npx start.
 */

const run = promisify(execFile);

describe('npx jest', () => {
  it('runs an e2e suite with the project config and nothing else', async () => {
    // As a developer's shell starts it: without the flag that npm gave
    // this test's own process.
    const env = { ...process.env, NODE_OPTIONS: '' };
    const { stdout, stderr } = await run(
      'npx',
      [
        'jest',
        '--config',
        'test/jest-e2e.json',
        '--maxWorkers=1',
        'test/contract/sqlite-and-postgres/database/database-kind.e2e-spec.ts',
      ],
      { cwd: REPO_ROOT, env, maxBuffer: 16 * 1024 * 1024 },
    );
    expect(`${stdout}${stderr}`).toMatch(/Tests:\s+2 passed, 2 total/);
  }, 120_000);
});
