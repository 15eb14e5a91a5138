import request from 'supertest';
import { LOGO_REQUEST } from './asset-client';
import type { TestApp } from './test-app';

/** A task as the task routes answer it. */
export interface TaskBody {
  id: string;
  projectId: string;
  type: string;
  agentId: string | null;
  sectionId: string | null;
  status: string;
  input: Record<string, unknown>;
  assetIds: string[];
  progress: { done: number; total: number };
  error: { code: string; message: string } | null;
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** A project as GET /api/projects/{id} answers it, what the task suites read. */
export interface ProjectState {
  name: string;
  sections: Array<{
    id: string;
    type: string;
    status: string;
    selectedAssetId: string | null;
  }>;
  agents: Array<{ id: string; type: string; status: string }>;
  assets: Array<{
    id: string;
    sectionId: string | null;
    kind: string;
    contentType: string;
    url: string;
  }>;
  tasks: TaskBody[];
  etag: string;
}

export const LOGO_TASK_INPUT = { ...LOGO_REQUEST, count: 1 };

export const tasksOf = (projectId: string) =>
  `/api/projects/${projectId}/tasks`;

export const taskPath = (projectId: string, taskId: string) =>
  `${tasksOf(projectId)}/${taskId}`;

/** POST /api/projects/{id}/tasks. */
export const postTask = (
  t: TestApp,
  projectId: string,
  body: unknown = { type: 'logo', input: LOGO_TASK_INPUT },
) =>
  request(t.server)
    .post(tasksOf(projectId))
    .send(body as object);

/** POST …/tasks, expected 202; the task it answers. */
export async function startTask(
  t: TestApp,
  projectId: string,
  body: unknown = { type: 'logo', input: LOGO_TASK_INPUT },
): Promise<TaskBody> {
  const response = await postTask(t, projectId, body).expect(202);
  return (response.body as { task: TaskBody }).task;
}

export const cancelTask = (t: TestApp, projectId: string, taskId: string) =>
  request(t.server).post(`${taskPath(projectId, taskId)}/cancel`);

export async function readTask(
  t: TestApp,
  projectId: string,
  taskId: string,
): Promise<TaskBody> {
  const response = await request(t.server)
    .get(taskPath(projectId, taskId))
    .expect(200);
  return (response.body as { task: TaskBody }).task;
}

export async function readProject(
  t: TestApp,
  projectId: string,
): Promise<ProjectState> {
  const response = await request(t.server)
    .get(`/api/projects/${projectId}`)
    .expect(200);
  const { project } = response.body as { project: ProjectState };
  return { ...project, etag: response.headers.etag };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls until `done` holds for the value `read` gives: a hang guard of
 * `tries` reads (never a timing assertion), failing with the last value.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  tries = 400,
  everyMs = 50,
): Promise<T> {
  let value = await read();
  for (let i = 0; i < tries && !done(value); i++) {
    await pause(everyMs);
    value = await read();
  }
  if (!done(value)) {
    throw new Error(`Still not there: ${JSON.stringify(value)}`);
  }
  return value;
}

const FINISHED = ['SUCCEEDED', 'FAILED', 'CANCELLED'];

/** Polls GET …/tasks/{taskId} until the task has finished. */
export const waitForTask = (t: TestApp, projectId: string, taskId: string) =>
  pollUntil(
    () => readTask(t, projectId, taskId),
    (task) => FINISHED.includes(task.status),
  );

/** Polls until the task is RUNNING. */
export const waitUntilRunning = (
  t: TestApp,
  projectId: string,
  taskId: string,
) =>
  pollUntil(
    () => readTask(t, projectId, taskId),
    (task) => task.status !== 'QUEUED',
  );

export const sectionOf = (project: ProjectState, type: string) =>
  project.sections.find((section) => section.type === type)!;

export const agentOf = (project: ProjectState, type: string) =>
  project.agents.find((agent) => agent.type === type)!;

/** Rows of a table for a project, counted with SQL on either database. */
export async function rowsOf(
  t: TestApp,
  table: 'tasks' | 'assets',
  projectId: string,
): Promise<number> {
  const placeholder = t.dataSource.options.type === 'postgres' ? '$1' : '?';
  const rows = await t.dataSource.query<Array<{ n: number | string }>>(
    `SELECT COUNT(*) AS "n" FROM "${table}" WHERE "projectId" = ${placeholder}`,
    [projectId],
  );
  return Number(rows[0].n);
}
