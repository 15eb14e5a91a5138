import request from 'supertest';
import { loadOpenApiDocument } from './support/openapi-responses';
import { createTestApp, type TestApp } from './support/test-app';

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
      .send({ color: 'red' })
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

  it('names a relative server and the default local one, and no document-wide authentication', () => {
    expect(document.servers.map((server) => server.url)).toEqual([
      '/',
      'http://127.0.0.1:3000',
    ]);
    expect(document.security).toEqual([]);
  });
});
