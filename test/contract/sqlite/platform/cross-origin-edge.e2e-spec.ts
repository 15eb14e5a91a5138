import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DevImageApi, Replies } from '../../../../dev-servers/image-api';
import {
  BROWSER_ONLY_RESPONSE_HEADERS,
  EXPOSED_HEADERS,
  SAFELISTED_RESPONSE_HEADERS,
} from '../../../../src/platform/cors';
import { parseRawAnswer, sendRaw } from '../../../support/http-client';
import { listen } from '../../../support/pending-request';
import { createProject } from '../../../support/project-fixtures';
import { LOGO_REQUEST } from '../../../support/asset-client';
import {
  LOGO_TASK_INPUT,
  readTask,
  startTask,
  taskPath,
} from '../../../support/task-client';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * What a browser app on another origin needs of the HTTP edge, with
 * CORS_ORIGINS set: POSTs whose body is optional sent without a body (and
 * so without a Content-Type, as generated clients send them), every
 * response header it reads exposed, and Location headers it can follow
 * from any origin.
 */

const ORIGIN = 'http://localhost:5173';

/** A request written byte for byte, so that no client adds a header. */
async function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
) {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: close',
    `Origin: ${ORIGIN}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  const answer = parseRawAnswer(
    // The connection stays open until the answer (Connection: close): a
    // client that half-closes first is one that left.
    await sendRaw(port, `${lines.join('\r\n')}\r\n\r\n${body}`, 20_000),
  );
  if (answer === undefined) throw new Error(`${method} ${path}: no answer`);
  return answer;
}

describe('The HTTP edge for a browser app on another origin', () => {
  let images: DevImageApi;
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    images = await DevImageApi.start();
    t = await createTestApp({
      CORS_ORIGINS: ORIGIN,
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: images.url,
      TASK_CANCEL_CHECK_MS: '100',
    });
    await listen(t);
    port = (t.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
    await images?.close();
  });
  beforeEach(() => images.reset());

  /** A task that stays unfinished until it is cancelled. */
  async function unfinishedTask() {
    images.respondWith(Replies.slow(Replies.image(), 20_000));
    const project = await createProject(t);
    const task = await startTask(t, project.id);
    return { projectId: project.id, taskId: task.id };
  }

  describe('POSTs whose body is optional, sent without one', () => {
    it.each([
      ['Content-Length: 0', { 'Content-Length': '0' }],
      ['neither Content-Length nor Transfer-Encoding', {}],
    ])(
      'cancels a task with no Content-Type (%s), as generated clients send it',
      async (_label, headers: Record<string, string>) => {
        const { projectId, taskId } = await unfinishedTask();
        const answer = await raw(
          port,
          'POST',
          `${taskPath(projectId, taskId)}/cancel`,
          headers,
        );
        expect(answer.status).toBe(200);
        expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN);
        expect(JSON.parse(answer.text)).toMatchObject({
          task: { id: taskId, status: 'CANCELLED' },
        });
      },
    );

    it('still refuses a cancel that carries a body without a JSON Content-Type: 415, and the task is not cancelled', async () => {
      const { projectId, taskId } = await unfinishedTask();
      const path = `${taskPath(projectId, taskId)}/cancel`;
      const untyped = await raw(
        port,
        'POST',
        path,
        { 'Content-Length': '2' },
        '{}',
      );
      expect(untyped.status).toBe(415);
      expect(JSON.parse(untyped.text)).toEqual({
        error: 'Unsupported media type',
        code: 'unsupported_media_type',
      });
      const plain = await raw(
        port,
        'POST',
        path,
        { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' },
        '2\r\n{}\r\n0\r\n\r\n',
      );
      expect(plain.status).toBe(415);
      expect((await readTask(t, projectId, taskId)).status).not.toBe(
        'CANCELLED',
      );
      // A body sent as JSON is read (and ignored), as before.
      const typed = await raw(
        port,
        'POST',
        path,
        { 'Content-Type': 'application/json', 'Content-Length': '2' },
        '{}',
      );
      expect(typed.status).toBe(200);
    });

    it('answers a stream ticket without a body or Content-Type, as for {}; a text/plain body is still 415', async () => {
      const bodiless = await raw(port, 'POST', '/api/events/tickets', {
        'Content-Length': '0',
      });
      expect(bodiless.status).toBe(200);
      expect(JSON.parse(bodiless.text)).toMatchObject({
        url: expect.stringContaining('/api/events'),
      });
      const plain = await raw(
        port,
        'POST',
        '/api/events/tickets',
        { 'Content-Type': 'text/plain', 'Content-Length': '2' },
        '{}',
      );
      expect(plain.status).toBe(415);
    });

    it('still refuses a POST whose body is required, sent without one and without a Content-Type (415)', async () => {
      const answer = await raw(port, 'POST', '/api/projects', {
        'Content-Length': '0',
      });
      expect(answer.status).toBe(415);
    });

    it('declares exactly that in the OpenAPI document: cancel has no body, the ticket an optional one', async () => {
      const document = (await request(t.server).get('/docs-json').expect(200))
        .body as {
        paths: Record<
          string,
          Record<string, { requestBody?: { required?: boolean } }>
        >;
      };
      const cancel =
        document.paths['/api/projects/{id}/tasks/{taskId}/cancel'].post;
      expect(cancel.requestBody).toBeUndefined();
      expect(JSON.stringify(cancel)).not.toContain(
        'send `Content-Type: application/json` even without a body',
      );
      expect(document.paths['/api/events/tickets'].post.requestBody).toEqual(
        expect.objectContaining({ required: false }),
      );
    });
  });

  describe('Access-Control-Expose-Headers', () => {
    const exposed = async () => {
      const answer = await request(t.server)
        .get('/api/projects')
        .set('Origin', ORIGIN)
        .expect(200);
      return String(answer.headers['access-control-expose-headers'])
        .split(',')
        .map((name) => name.trim().toLowerCase());
    };

    it('exposes every header a page reads: Location, ETag, Retry-After, Content-Disposition, the replay and request ids, WWW-Authenticate, X-Total-Count and the rate-limit fields', async () => {
      expect(await exposed()).toEqual(
        expect.arrayContaining(
          [
            'Location',
            'ETag',
            'Retry-After',
            'Content-Disposition',
            'Idempotent-Replayed',
            'X-Request-Id',
            'WWW-Authenticate',
            'X-Total-Count',
            'RateLimit',
            'RateLimit-Policy',
          ].map((name) => name.toLowerCase()),
        ),
      );
    });

    it('exposes every response header the OpenAPI document declares, but the CORS-safelisted ones and those only the browser acts on', async () => {
      const document = (await request(t.server).get('/docs-json').expect(200))
        .body as {
        paths: Record<
          string,
          Record<string, { responses?: Record<string, { headers?: object }> }>
        >;
      };
      const declared = new Set<string>();
      for (const operations of Object.values(document.paths)) {
        for (const operation of Object.values(operations)) {
          for (const answer of Object.values(operation.responses ?? {})) {
            for (const name of Object.keys(answer.headers ?? {})) {
              declared.add(name.toLowerCase());
            }
          }
        }
      }
      const safelisted = [
        ...SAFELISTED_RESPONSE_HEADERS,
        ...BROWSER_ONLY_RESPONSE_HEADERS,
      ].map((name) => name.toLowerCase());
      const needed = [...declared].filter((name) => !safelisted.includes(name));
      expect(needed.length).toBeGreaterThan(3);
      expect(await exposed()).toEqual(expect.arrayContaining(needed));
      expect(EXPOSED_HEADERS.length).toBeGreaterThanOrEqual(needed.length);
    });
  });

  describe('Location', () => {
    it('is absolute on the request’s own origin, for a created project, a queued task and a kept logo, and each one reads', async () => {
      const created = await request(t.server)
        .post('/api/projects')
        .set('Host', 'api.example.test:8080')
        .send({ name: 'P', userId: 'u' })
        .expect(201);
      const project = (created.body as { project: { id: string } }).project;
      expect(created.headers.location).toBe(
        `http://api.example.test:8080/api/projects/${project.id}`,
      );
      await request(t.server)
        .get(new URL(created.headers.location).pathname)
        .expect(200);

      images.respondWith(Replies.slow(Replies.image(), 20_000));
      const queued = await request(t.server)
        .post(`/api/projects/${project.id}/tasks`)
        .send({ type: 'logo', input: LOGO_TASK_INPUT })
        .expect(202);
      const task = (queued.body as { task: { id: string } }).task;
      expect(queued.headers.location).toBe(
        `http://127.0.0.1:${port}${taskPath(project.id, task.id)}`,
      );
      await request(t.server)
        .post(`${taskPath(project.id, task.id)}/cancel`)
        .set('Content-Type', 'application/json')
        .expect(200);

      images.respondWith(Replies.image());
      const kept = await request(t.server)
        .post(`/api/projects/${project.id}/logos`)
        .send(LOGO_REQUEST)
        .expect(201);
      const asset = (kept.body as { asset: { id: string; url: string } }).asset;
      const location = String(kept.headers.location);
      expect(location).toBe(
        `http://127.0.0.1:${port}/api/projects/${project.id}/assets/${asset.id}`,
      );
      // Built as the body's URLs are: the same origin and path prefix.
      expect(asset.url.startsWith(`${location}/`)).toBe(true);
    });

    it('starts with PUBLIC_BASE_URL when set, path prefix included, also on the replay of an Idempotency-Key', async () => {
      const behind = await createTestApp({
        PUBLIC_BASE_URL: 'https://api.example.com/workspace',
      });
      try {
        const send = () =>
          request(behind.server)
            .post('/api/projects')
            .set('Idempotency-Key', 'location-1')
            .send({ name: 'P', userId: 'u' })
            .expect(201);
        const first = await send();
        const id = (first.body as { project: { id: string } }).project.id;
        const expected = `https://api.example.com/workspace/api/projects/${id}`;
        expect(first.headers.location).toBe(expected);
        const replay = await send();
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.headers.location).toBe(expected);
      } finally {
        await behind.close();
      }
    });
  });
});
