import { createServer, type Server } from 'node:net';
import {
  postgresTarget,
  redisProblem,
  runtimeProblem,
  testPlan,
} from '../../../support/prerequisites';
import { findFreePort } from '../../../support/server-process';

/** The check `npm test` runs before its suites (scripts/test-prerequisites.ts). */

function listen(answer: string): Promise<Server> {
  const server = createServer((socket) =>
    socket.once('data', () => socket.end(answer)),
  );
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(server)),
  );
}

const portOf = (server: Server) => (server.address() as { port: number }).port;

describe('npm test prerequisites', () => {
  it('accepts a Redis server that answers PING', async () => {
    const server = await listen('+PONG\r\n');
    try {
      expect(await redisProblem('127.0.0.1', portOf(server))).toBeUndefined();
    } finally {
      server.close();
    }
  });

  it('names the connection error when nothing listens', async () => {
    const port = await findFreePort();
    expect(await redisProblem('127.0.0.1', port)).toBe('ECONNREFUSED');
  });

  it('rejects a server that is not Redis', async () => {
    const server = await listen('HTTP/1.1 400 Bad Request\r\n\r\n');
    try {
      expect(await redisProblem('127.0.0.1', portOf(server))).toBe(
        'it did not answer PING',
      );
    } finally {
      server.close();
    }
  });

  it('accepts the pinned Node.js and refuses any other, saying how to get it', () => {
    expect(runtimeProblem('v26.12.1', '26.12.1')).toBeUndefined();
    const problem = runtimeProblem('v24.21.0', '26.12.1');
    expect(problem).toContain('Node.js 26.12.1');
    expect(problem).toContain('this is v24.21.0');
    expect(problem).toContain('npm ci');
    expect(runtimeProblem('v26.12.2', '26.12.1')).toBeDefined();
  });

  it('names the PostgreSQL host and port, never the credentials', () => {
    expect(postgresTarget('postgres://admin:s3cret@db.internal:6543/x')).toBe(
      'db.internal:6543',
    );
    expect(postgresTarget('postgres://postgres@127.0.0.1/postgres')).toBe(
      '127.0.0.1:5432',
    );
  });

  const REDIS = 'redis://127.0.0.1:6379';
  const POSTGRES = 'postgres://admin:s3cret@db.internal:6543/x';

  it('npm test says what it skips and how to run it', () => {
    const plan = testPlan('npm test', '26.12.1', {}, 'x');
    expect(plan.problem).toBeUndefined();
    expect(plan.line).toMatch(
      /^npm test runs on Node.js 26.12.1: .*the contract e2e suites on SQLite, the container test; skipped: /,
    );
    expect(plan.line).toContain(
      'the Redis suites (set TEST_REDIS_URL=redis://127.0.0.1:6379)',
    );
    expect(plan.line).toContain(
      'the PostgreSQL pass (set TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres)',
    );
    expect(plan.line).toContain('the full tier (npm run test:all)');
  });

  it('npm test adds the Redis suites and the PostgreSQL pass when their variable is set', () => {
    const plan = testPlan(
      'npm test',
      '26.12.1',
      { TEST_REDIS_URL: REDIS, TEST_POSTGRES_URL: POSTGRES },
      'x',
    );
    expect(plan.line).toContain('the Redis suites on 127.0.0.1:6379');
    expect(plan.line).toContain('the PostgreSQL pass on db.internal:6543');
    expect(plan.line).not.toContain('s3cret');
    expect(plan.line).toMatch(/; skipped: the full tier \(npm run test:all\)$/);
  });

  it('npm run test:all needs both servers, and says which variable is missing', () => {
    const withoutPostgres = testPlan(
      'npm run test:all',
      '26.12.1',
      { TEST_REDIS_URL: REDIS },
      'x',
    );
    expect(withoutPostgres.problem).toContain('TEST_POSTGRES_URL=');
    expect(withoutPostgres.problem).not.toContain('TEST_REDIS_URL=');
    const both = testPlan(
      'npm run test:all',
      '26.12.1',
      { TEST_REDIS_URL: REDIS, TEST_POSTGRES_URL: POSTGRES },
      'the @sparticuz/chromium package',
    );
    expect(both.problem).toBeUndefined();
    expect(both.line).toContain('the full tier on SQLite');
    expect(both.line).toContain(
      'Chromium from the @sparticuz/chromium package',
    );
    expect(both.line).not.toContain('skipped');
  });
});
