import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startServer } from '../../../support/server-process';

/**
 * The built server warms itself up between listening and reporting ready
 * (src/start/warm-up.ts, driven by main.ts): by the first 200 of
 * /health/ready the warm-up has finished, and its requests (reads, a live
 * stream opened and closed, writes refused before writing) left no request
 * log line, no metric and no row.
 */

const sleep = (ms: number) =>
  new Promise<void>((resolvePromise) => setTimeout(resolvePromise, ms));

interface LogLine {
  msg?: string;
  context?: string;
  url?: string;
  route?: string;
  status?: number;
}

describe('Warm-up of the built server', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'warm-up-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finishes before the first ready answer and leaves no log line, metric or row', async () => {
    const env = { DATABASE_URL: `file:${join(dir, 'db.sqlite')}` };
    // A project for the warm-up to read, written by an earlier process.
    const first = await startServer(env);
    let projectId: string;
    try {
      const created = await request(first.baseUrl)
        .post('/api/projects')
        .send({ name: 'Warm', userId: 'warm-up-owner' })
        .expect(201);
      projectId = created.body.project.id as string;
    } finally {
      await first.stop();
    }

    const server = await startServer({ ...env, LOG_LEVEL: 'debug' });
    try {
      let ready = 0;
      for (let i = 0; i < 400 && ready !== 200; i += 1) {
        ready = (await request(server.baseUrl).get('/health/ready')).status;
        if (ready !== 200) await sleep(25);
      }
      expect(ready).toBe(200);

      const readLines = () =>
        server.stdout
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as LogLine);
      const isReadyLine = (line: LogLine) =>
        line.route === '/health/ready' && line.status === 200;
      // Log lines are written asynchronously: wait for the 200's.
      for (let i = 0; i < 200 && !readLines().some(isReadyLine); i += 1) {
        await sleep(25);
      }
      const lines = readLines();
      const finished = lines.findIndex(
        (line) =>
          line.context === 'WarmUp' &&
          line.msg?.startsWith('Warm-up finished: '),
      );
      const firstReady = lines.findIndex(isReadyLine);
      expect(finished).toBeGreaterThanOrEqual(0);
      expect(firstReady).toBeGreaterThan(finished);
      const summary = JSON.parse(
        lines[finished].msg!.slice('Warm-up finished: '.length),
      ) as { requests: number; statuses: Record<string, number> };
      // It read the project written above, many times over, and went
      // through the writes' paths up to their refusals: a create that fails
      // validation (400), a PATCH whose If-Match names no version (412).
      expect(summary.statuses['200']).toBeGreaterThan(10);
      expect(Object.keys(summary.statuses).sort()).toEqual([
        '200',
        '400',
        '404',
        '412',
      ]);
      // No failure was logged either (a 5xx would be).
      expect(lines.filter((line) => line.context === 'Failure')).toEqual([]);

      // Every request line so far is one of this test's (startServer polls
      // GET /api/ai/generate-logo until the server listens): none of the
      // warm-up's reads of /api/projects.
      const requestLines = lines.filter((line) => line.url !== undefined);
      expect(requestLines.length).toBeGreaterThan(0);
      expect(
        requestLines.filter((line) => line.url?.startsWith('/api/projects')),
      ).toEqual([]);
      const metrics = (await request(server.baseUrl).get('/metrics')).text;
      expect(metrics).toMatch(/route="\/health\/ready"/);
      expect(metrics).not.toMatch(/route="\/api\/projects/);

      const list = await request(server.baseUrl)
        .get('/api/projects?limit=10')
        .expect(200);
      expect(list.body.projects.map((p: { id: string }) => p.id)).toEqual([
        projectId,
      ]);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
