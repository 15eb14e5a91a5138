import request from 'supertest';
import { pollUntil } from './task-client';
import type { TestApp } from './test-app';

/** A run as its answer shows it. */
export interface RunBody {
  id: string;
  projectId: string;
  status: string;
  autoChoose: boolean;
  steps: Array<{
    type: string;
    taskId: string | null;
    status: string;
    attempt?: number;
  }>;
  quote: { imageCalls: number; textCalls: number; maxFixes: number };
  siteUrl?: string;
  error?: { code: string; message: string; step?: string };
  createdAt: string;
  updatedAt: string;
}

export const runsOf = (projectId: string) => `/api/projects/${projectId}/runs`;

/** POST /api/projects/{id}/runs. */
export const postRun = (t: TestApp, projectId: string, body: unknown = {}) =>
  request(t.server)
    .post(runsOf(projectId))
    .send(body as object);

/** POST …/runs, expected 202; the run it answers. */
export async function startRun(
  t: TestApp,
  projectId: string,
  body: unknown = {},
): Promise<RunBody> {
  const response = await postRun(t, projectId, body);
  if (response.status !== 202) throw new Error(JSON.stringify(response.body));
  return (response.body as { run: RunBody }).run;
}

export async function readRun(
  t: TestApp,
  projectId: string,
  runId: string,
): Promise<RunBody> {
  const response = await request(t.server)
    .get(`${runsOf(projectId)}/${runId}`)
    .expect(200);
  return (response.body as { run: RunBody }).run;
}

/** Polls the run until `done` holds (a hang guard, not a timing assertion). */
export const waitForRun = (
  t: TestApp,
  projectId: string,
  runId: string,
  done: (run: RunBody) => boolean = (run) =>
    ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(run.status),
) => pollUntil(() => readRun(t, projectId, runId), done, 600, 50);

export const cancelRun = (t: TestApp, projectId: string, runId: string) =>
  request(t.server).post(`${runsOf(projectId)}/${runId}/cancel`);
