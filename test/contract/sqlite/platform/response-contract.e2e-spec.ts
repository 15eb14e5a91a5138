import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { answerProblems } from '../../../support/answer-contract';
import {
  ResponseContract,
  loadOpenApiDocument,
  type OpenApiDocument,
} from '../../../support/openapi-responses';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * The check every e2e response goes through (support/validate-responses
 * .setup.ts): it fails a test on a body or status the document does not
 * describe.
 */

function serverAnswering(status: number, body: unknown): Server {
  return createServer((_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  });
}

/**
 * The /api operations without credentials in any mode: an `<img>` sends
 * none, so their URL is the proof (a hosted logo's unguessable id, an
 * asset's signature).
 */
const PUBLIC_OPERATIONS = [
  'get /api/ai/logos/{file}',
  'get /api/projects/{id}/assets/{assetId}/content',
];

describe('responses are checked against the OpenAPI document', () => {
  it('fails a supertest request whose body breaks the documented schema', async () => {
    const server = serverAnswering(200, { projects: 5 });
    await expect(request(server).get('/api/projects')).rejects.toThrow(
      'GET /api/projects answered 200 with a body the OpenAPI document does not allow',
    );
  });

  it('fails a supertest request answered with a status the document does not list', async () => {
    const server = serverAnswering(418, { error: 'teapot' });
    await expect(request(server).get('/api/projects/abc')).rejects.toThrow(
      'GET /api/projects/{id} answered 418, a status the OpenAPI document does not list',
    );
  });

  it('leaves paths the document does not describe alone', async () => {
    const server = serverAnswering(200, { anything: true });
    await request(server).get('/health/live').expect(200);
  });

  it("applies the document in the reliability drivers' checker too", () => {
    const info = {
      service: 'Image-model logo generator',
      status: 'configured',
      message: 'Logo generator is ready',
      supportedStyles: ['modern'],
      maxColors: 5.5,
    };
    const problems = answerProblems('logoInfo', {
      status: 200,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify(info),
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          'GET /api/ai/generate-logo answered 200 with a body the OpenAPI document does not allow',
        ),
      ]),
    );
  });

  it("accepts the reliability drivers' 429 on create (with Retry-After) and 415 on every body route", () => {
    const json = { 'content-type': 'application/json' };
    expect(
      answerProblems('create', {
        status: 429,
        headers: { ...json, 'retry-after': '12' },
        text: JSON.stringify({
          error: 'Too many requests, retry later',
          code: 'rate_limited',
        }),
      }),
    ).toEqual([]);
    for (const operation of ['create', 'patch'] as const) {
      expect(
        answerProblems(operation, {
          status: 415,
          headers: json,
          text: JSON.stringify({
            error: 'Unsupported media type',
            code: 'unsupported_media_type',
          }),
        }),
      ).toEqual([]);
    }
    expect(
      answerProblems('logo', {
        status: 415,
        headers: json,
        text: JSON.stringify({
          success: false,
          error: 'Unsupported media type',
          code: 'unsupported_media_type',
        }),
      }),
    ).toEqual([]);
  });

  it('refuses a 429 without Retry-After, and a 415 on a route without a body', () => {
    const json = { 'content-type': 'application/json' };
    expect(
      answerProblems('create', {
        status: 429,
        headers: json,
        text: JSON.stringify({
          error: 'Too many requests, retry later',
          code: 'rate_limited',
        }),
      }),
    ).toContain('no Retry-After seconds header');
    expect(
      answerProblems('delete', {
        status: 415,
        headers: json,
        text: JSON.stringify({
          error: 'Unsupported media type',
          code: 'unsupported_media_type',
        }),
      }),
    ).not.toEqual([]);
  });

  it('fails a response carrying a header the document does not list for its status (X-Request-Id, Location, ...)', () => {
    const document = loadOpenApiDocument();
    const created = document.paths['/api/projects']?.post?.responses['201'] as {
      headers: Record<string, unknown>;
    };
    delete created.headers['X-Request-Id'];
    delete created.headers.Location;
    const problem = new ResponseContract(document).problem(
      'POST',
      '/api/projects',
      201,
      undefined,
      { 'x-request-id': 'r-1', location: '/api/projects/p-1' },
    );
    expect(problem).toContain('x-request-id, location');
  });

  it('fails any answer but 404 at an /api path the document does not have (a trailing slash)', async () => {
    const server = serverAnswering(200, { projects: [] });
    await expect(request(server).get('/api/projects/')).rejects.toThrow(
      'GET /api/projects/ answered 200, but the OpenAPI document has no such path',
    );
  });

  describe('the document itself', () => {
    const document = loadOpenApiDocument();
    const apiOperations = Object.entries(document.paths).flatMap(
      ([path, item]) =>
        (['get', 'post', 'patch', 'delete'] as const)
          .filter((method) => item?.[method] !== undefined)
          .map((method) => ({ name: `${method} ${path}`, op: item![method]! })),
    );

    it('lets every /api operation send a bearer token or none (an empty requirement alone makes SDKs drop the token)', () => {
      for (const { name, op } of apiOperations) {
        if (PUBLIC_OPERATIONS.includes(name)) continue;
        expect([name, op.security]).toEqual([name, [{ bearer: [] }, {}]]);
      }
    });

    it.each(PUBLIC_OPERATIONS)(
      'asks no credentials for %s (an <img> sends none; its URL is the proof)',
      (name) => {
        const open = apiOperations.find((operation) => operation.name === name);
        expect(open?.op.security).toEqual([]);
      },
    );

    it('documents X-Request-Id on every response of every operation', () => {
      for (const { name, op } of apiOperations) {
        for (const [status, response] of Object.entries(op.responses)) {
          expect([
            name,
            status,
            'headers' in response && response.headers,
          ]).toEqual([
            name,
            status,
            expect.objectContaining({ 'X-Request-Id': expect.any(Object) }),
          ]);
        }
      }
    });

    it('gives no optional parameter an example, which Swagger UI would fill in and send', () => {
      for (const { name, op } of apiOperations) {
        for (const parameter of op.parameters ?? []) {
          if ('$ref' in parameter || parameter.required) continue;
          const schema = parameter.schema as { example?: unknown } | undefined;
          expect([
            name,
            parameter.name,
            parameter.example,
            schema?.example,
          ]).toEqual([name, parameter.name, undefined, undefined]);
        }
      }
    });
  });

  describe('the document of a server with AUTH_MODE=oidc', () => {
    let app: TestApp;
    let document: OpenApiDocument;
    beforeAll(async () => {
      app = await createTestApp({
        AUTH_MODE: 'oidc',
        ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
        AUTH_ISSUER: 'http://127.0.0.1:9',
        AUTH_AUDIENCE: 'workspace-api',
      });
      document = (await request(app.server).get('/docs-json').expect(200))
        .body as OpenApiDocument;
    });
    afterAll(async () => app?.close());

    it("requires a bearer token on every /api operation but a hosted logo and an asset's bytes", () => {
      for (const [path, item] of Object.entries(document.paths)) {
        for (const method of ['get', 'post', 'patch', 'delete'] as const) {
          const op = item?.[method];
          if (op)
            expect([method, path, op.security]).toEqual([
              method,
              path,
              PUBLIC_OPERATIONS.includes(`${method} ${path}`)
                ? []
                : [{ bearer: [] }],
            ]);
        }
      }
    });

    it("makes userId optional on create (the token's user fills it in)", () => {
      const create = document.components?.schemas?.CreateProjectDto as {
        required: string[];
        properties: Record<string, { description?: string }>;
      };
      expect(create.required).toEqual(['name']);
      expect(create.properties.userId.description).toContain('Optional');
    });
  });

  describe('against the running service', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await createTestApp();
    });
    afterAll(async () => app?.close());

    it("would catch a validation code missing from the document's enum (custom, for a bad cursor)", async () => {
      const res = await request(app.server)
        .get('/api/projects?limit=2&cursor=abc')
        .expect(400);
      const document = loadOpenApiDocument();
      const issue = document.components?.schemas?.ValidationIssueDto as {
        properties: { code: { enum: string[] } };
      };
      issue.properties.code.enum = issue.properties.code.enum.filter(
        (code) => code !== 'custom',
      );
      expect(
        new ResponseContract(document).problem(
          'GET',
          '/api/projects',
          res.status,
          res.body,
        ),
      ).toContain('does not allow');
    });
  });
});
