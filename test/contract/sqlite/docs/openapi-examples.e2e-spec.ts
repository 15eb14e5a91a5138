import request from 'supertest';
import { loadOpenApiDocument } from '../../../support/openapi-responses';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * What the OpenAPI document says matches what the service does: its
 * examples are values the service accepts (Swagger UI's "Try it out" sends
 * them), and its schemas state the rules the service enforces.
 */

interface Schema {
  type?: string;
  maxLength?: number;
  pattern?: string;
  additionalProperties?: boolean;
  example?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
}
interface Parameter {
  name: string;
  in: string;
  description?: string;
  example?: unknown;
  schema?: Schema;
}

const document = loadOpenApiDocument() as unknown as {
  servers: { url: string }[];
  security: unknown[];
  paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
  components: { schemas: Record<string, Schema> };
};
const schema = (name: string) => document.components.schemas[name];
const parameter = (path: string, method: string, name: string) =>
  document.paths[path][method].parameters?.find((p) => p.name === name);
const example = (p: Parameter | undefined) => p?.example ?? p?.schema?.example;
/**
 * An optional parameter's example, given in its description (Swagger UI
 * would send an `example`): "… Example: `20`".
 */
const describedExample = (p: Parameter | undefined) =>
  /Example: `([^`]*)`/.exec(p?.description ?? '')?.[1];

describe('the OpenAPI document matches the service', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app?.close());

  it('gives a cursor example the service accepts, with the limit example', async () => {
    const cursor = describedExample(
      parameter('/api/projects', 'get', 'cursor'),
    );
    const limit = describedExample(parameter('/api/projects', 'get', 'limit'));
    expect(cursor).toEqual(expect.any(String));
    expect(limit).toBe('20');
    await request(app.server)
      .get('/api/projects')
      .query({ limit, cursor })
      .expect(200);
  });

  it('gives a nextCursor example the service accepts as a cursor', async () => {
    const nextCursor = schema('ProjectListResponseDto').properties?.nextCursor
      ?.example as string;
    await request(app.server)
      .get('/api/projects')
      .query({ limit: 1, cursor: nextCursor })
      .expect(200);
  });

  describe('the task routes', () => {
    const TASK_ID = '019aa8f4-1c2d-7e3f-8a4b-5c6d7e8f9a0b';
    const newProject = async (server: TestApp['server']) =>
      (
        await request(server)
          .post('/api/projects')
          .send({ name: 'P', userId: 'u' })
          .expect(201)
      ).body.project.id as string;
    const documented400 = () =>
      (
        document.paths['/api/projects/{id}/tasks'].post as unknown as {
          responses: Record<
            string,
            { content: Record<string, { example: unknown }> }
          >;
        }
      ).responses['400'].content['application/json'].example;

    it("answers create's documented 400 example to the input it describes", async () => {
      const id = await newProject(app.server);
      const res = await request(app.server)
        .post(`/api/projects/${id}/tasks`)
        .send({
          type: 'logo',
          input: {
            companyName: 'Acme',
            style: 'modern',
            colors: ['#0044ff'],
            count: 5,
          },
        })
        .expect(400);
      expect(res.body).toEqual(documented400());
    });

    it('answers the documented 400 to a body that is not JSON, on create and on cancel', async () => {
      const tasks = `/api/projects/${await newProject(app.server)}/tasks`;
      for (const path of [tasks, `${tasks}/${TASK_ID}/cancel`]) {
        const res = await request(app.server)
          .post(path)
          .set('Content-Type', 'application/json')
          .send('{not json')
          .expect(400);
        expect(res.body).toEqual({
          error: 'Request body is not valid JSON',
          code: 'invalid_json',
        });
      }
    });

    it('with CORS_ORIGINS, reads a cancel without a body and without Content-Type as documented (no body declared), and answers one with a text/plain body the documented 415', async () => {
      const cors = await createTestApp({
        CORS_ORIGINS: 'https://app.example.com',
      });
      try {
        const path = `/api/projects/${await newProject(cors.server)}/tasks/${TASK_ID}/cancel`;
        const res = await request(cors.server).post(path).expect(404);
        expect(res.body).toEqual({
          error: 'Task not found',
          code: 'task_not_found',
        });
        await request(cors.server)
          .post(path)
          .set('Content-Type', 'text/plain')
          .send('{}')
          .expect(415);
        await request(cors.server)
          .post(path)
          .set('Content-Type', 'application/json')
          .expect(404);
      } finally {
        await cors.close();
      }
    });

    it('answers a project over its task limit the documented 429, Retry-After and code too_many_tasks', async () => {
      // No workers (PROCESS_ROLE=api): the first task stays QUEUED.
      const limited = await createTestApp({
        PROCESS_ROLE: 'api',
        TASK_MAX_QUEUED_PER_PROJECT: '1',
      });
      try {
        const tasks = `/api/projects/${await newProject(limited.server)}/tasks`;
        const body = { type: 'marketing-copy', input: {} };
        await request(limited.server).post(tasks).send(body).expect(202);
        const res = await request(limited.server)
          .post(tasks)
          .send(body)
          .expect(429);
        expect(res.headers['retry-after']).toBe('10');
        expect(res.body).toEqual({
          error:
            'The project already has 1 unfinished tasks, the most allowed; retry once one finishes',
          code: 'too_many_tasks',
        });
      } finally {
        await limited.close();
      }
    });
  });

  it('gives the path parameter id an example', () => {
    for (const method of ['get', 'patch', 'delete']) {
      expect(example(parameter('/api/projects/{id}', method, 'id'))).toEqual(
        expect.any(String),
      );
    }
  });

  it("states userId's 255-character limit and the no-NUL rule the service enforces on create", async () => {
    const userId = schema('CreateProjectDto').properties?.userId;
    expect(userId?.maxLength).toBe(255);
    expect(new RegExp(userId?.pattern ?? '').test('a\u0000b')).toBe(false);
    await request(app.server)
      .post('/api/projects')
      .send({ name: 'P', userId: 'x'.repeat(256) })
      .expect(400);
    await request(app.server)
      .post('/api/projects')
      .send({ name: 'P', userId: 'a\u0000b' })
      .expect(400);
  });

  it('closes the PATCH body to properties the service cannot apply', async () => {
    expect(schema('UpdateProjectBodyDto').additionalProperties).toBe(false);
    const created = await request(app.server)
      .post('/api/projects')
      .send({ name: 'P', userId: 'u' })
      .expect(201);
    await request(app.server)
      .patch(`/api/projects/${created.body.project.id}`)
      .send({ x_unknown_field: 'red' })
      .expect(500);
  });

  it('types maxColors as an integer', () => {
    expect(schema('LogoGeneratorInfoDto').properties?.maxColors?.type).toBe(
      'integer',
    );
  });

  it('shows "Invalid input" as the error of a logo validation failure', () => {
    const error = schema('LogoValidationErrorResponseDto').properties?.error;
    expect(error?.example).toBe('Invalid input');
    expect(error?.enum).toEqual(['Invalid input']);
  });

  it('lists every validation code the service sends', () => {
    expect(
      schema('ValidationIssueDto').properties?.code?.enum?.slice().sort(),
    ).toEqual(
      [
        'custom',
        'invalid_enum_value',
        'invalid_string',
        'invalid_type',
        'too_big',
        'too_small',
      ].sort(),
    );
  });

  it('names a relative server (no PUBLIC_BASE_URL), and no document-wide authentication', () => {
    expect(document.servers.map((server) => server.url)).toEqual(['/']);
    expect(document.security).toEqual([]);
  });
});
