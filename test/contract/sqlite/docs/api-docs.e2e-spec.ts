import SwaggerParser from '@apidevtools/swagger-parser';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import * as ts from 'typescript';
import { spawnSync } from 'node:child_process';
import { OPENAPI_PLUGIN_OPTIONS } from '../../../../src/docs/openapi-plugin-options';
import { REPO_ROOT, startServer } from '../../../support/server-process';
import { createTestApp, type TestApp } from '../../../support/test-app';

const CLIENT_TYPES_FILE = join(REPO_ROOT, 'client', 'workspace-api.ts');
const OPENAPI_FILE = join(REPO_ROOT, 'client', 'openapi.json');

/**
 * The OpenAPI document (GET /docs-json) and the typed client generated from
 * it (npm run client:generate).
 */

interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<
    string,
    { content?: Record<string, MediaType>; headers?: Record<string, unknown> }
  >;
}
interface MediaType {
  schema?: { $ref?: string };
  example?: unknown;
  examples?: Record<string, unknown>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

/** Every status of docs/api.md, 408, 413, 415, 429, 431 and 503 included. */
const EXPECTED_STATUSES: [string, string, string[]][] = [
  [
    'post',
    '/api/projects',
    [
      '201',
      '400',
      '401',
      '403',
      '408',
      '409',
      '413',
      '415',
      '422',
      '429',
      '431',
      '500',
      '503',
    ],
  ],
  [
    'get',
    '/api/projects',
    ['200', '400', '401', '403', '429', '431', '500', '503'],
  ],
  [
    'get',
    '/api/projects/{id}',
    ['200', '304', '401', '404', '431', '500', '503'],
  ],
  [
    'patch',
    '/api/projects/{id}',
    ['200', '401', '403', '408', '412', '413', '415', '431', '500', '503'],
  ],
  ['delete', '/api/projects/{id}', ['200', '401', '412', '431', '500', '503']],
  [
    'post',
    '/api/ai/generate-logo',
    [
      '200',
      '400',
      '401',
      '408',
      '409',
      '413',
      '415',
      '422',
      '429',
      '431',
      '500',
      '503',
    ],
  ],
  ['get', '/api/ai/generate-logo', ['200', '401', '431', '503']],
  ['get', '/api/ai/models', ['200', '401', '431', '503']],
  ['get', '/api/usage', ['200', '401', '431', '503']],
  ['get', '/api/me', ['200', '401', '431', '503']],
  [
    'post',
    '/api/projects/{id}/logos',
    [
      '201',
      '400',
      '401',
      '404',
      '408',
      '409',
      '413',
      '415',
      '422',
      '429',
      '431',
      '500',
      '503',
    ],
  ],
  [
    'get',
    '/api/projects/{id}/assets/{assetId}',
    ['200', '401', '404', '431', '500', '503'],
  ],
  [
    'delete',
    '/api/projects/{id}/assets/{assetId}',
    ['200', '401', '404', '412', '431', '500', '503'],
  ],
  [
    'put',
    '/api/projects/{id}/sections/{sectionId}/selection',
    [
      '200',
      '400',
      '401',
      '404',
      '408',
      '409',
      '412',
      '413',
      '415',
      '431',
      '500',
      '503',
    ],
  ],
  [
    'delete',
    '/api/projects/{id}/sections/{sectionId}/selection',
    ['200', '401', '404', '409', '412', '431', '500', '503'],
  ],
  [
    'post',
    '/api/projects/{id}/tasks',
    [
      '202',
      '400',
      '401',
      '404',
      '408',
      '409',
      '413',
      '415',
      '422',
      '429',
      '431',
      '500',
      '503',
    ],
  ],
  [
    'get',
    '/api/projects/{id}/tasks',
    ['200', '400', '401', '404', '431', '500', '503'],
  ],
  [
    'get',
    '/api/projects/{id}/tasks/{taskId}',
    ['200', '401', '404', '431', '500', '503'],
  ],
  [
    'post',
    '/api/projects/{id}/tasks/{taskId}/cancel',
    [
      '200',
      '400',
      '401',
      '404',
      '408',
      '409',
      '413',
      '415',
      '431',
      '500',
      '503',
    ],
  ],
  [
    'post',
    '/api/projects/{id}/runs',
    [
      '202',
      '400',
      '401',
      '404',
      '408',
      '413',
      '415',
      '429',
      '431',
      '500',
      '503',
    ],
  ],
  [
    'get',
    '/api/projects/{id}/runs',
    ['200', '400', '401', '404', '431', '500', '503'],
  ],
  [
    'get',
    '/api/projects/{id}/runs/{runId}',
    ['200', '401', '404', '431', '500', '503'],
  ],
  [
    'post',
    '/api/projects/{id}/runs/{runId}/cancel',
    [
      '200',
      '400',
      '401',
      '404',
      '408',
      '409',
      '413',
      '415',
      '431',
      '500',
      '503',
    ],
  ],
  [
    'post',
    '/api/events/tickets',
    ['200', '400', '401', '404', '408', '413', '415', '431', '500', '503'],
  ],
];

/** Operations that answer something other than JSON on success. */
const BINARY_OPERATIONS: [string, string, string[]][] = [
  ['get', '/api/ai/logos/{file}', ['200', '304', '404', '431', '500']],
  [
    'get',
    '/api/projects/{id}/assets/{assetId}/content',
    ['200', '304', '400', '403', '404', '431', '500'],
  ],
  [
    'get',
    '/api/projects/{id}/brand-kit.zip',
    ['200', '401', '404', '431', '500', '503'],
  ],
  [
    'get',
    '/api/projects/{id}/site',
    ['200', '401', '404', '431', '500', '503'],
  ],
  [
    'post',
    '/api/projects/{id}/site/rollback',
    ['200', '400', '401', '404', '408', '413', '415', '431', '500', '503'],
  ],
  [
    'delete',
    '/api/projects/{id}/site',
    ['204', '401', '404', '431', '500', '503'],
  ],
  [
    'get',
    '/api/events',
    ['200', '400', '401', '403', '429', '431', '500', '503'],
  ],
  [
    'get',
    '/api/projects/{id}/events',
    ['200', '400', '401', '404', '429', '431', '500', '503'],
  ],
];

const ENUMS: Record<string, string[]> = {
  SectionType: [
    'LOGO',
    'ICONS',
    'GRAPHICS',
    'MARKETING',
    'WIREFRAME',
    'CODE',
    'TESTING',
    'DEPLOYMENT',
  ],
  SectionStatus: ['PENDING', 'IN_PROGRESS', 'REVIEW', 'DONE'],
  AgentType: ['CODE', 'MARKETING', 'DESIGN'],
  AgentProvider: ['CODE_PROVIDER', 'TEXT_PROVIDER', 'IMAGE_PROVIDER'],
  AgentStatus: ['IDLE', 'WORKING'],
  LogoStyle: [
    'modern',
    'minimalist',
    'vintage',
    'playful',
    'professional',
    'abstract',
    'geometric',
    'organic',
  ],
  LogoGeneratorStatus: ['configured', 'not_configured'],
};

/**
 * Runs a generator script as npm does, in a child process: its tools
 * (openapi-typescript, prettier) load ES modules, which Node does and Jest's
 * CommonJS runtime cannot.
 */
const runScript = (script: string, ...args: string[]) =>
  spawnSync(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', join('scripts', script), ...args],
    {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'test' },
    },
  );

const operation = (document: OpenApiDocument, method: string, path: string) =>
  document.paths[path]?.[method];

const schemaName = (media: MediaType | undefined) =>
  media?.schema?.$ref?.split('/').pop();

describe('OpenAPI document', () => {
  let t: TestApp;
  let document: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp();
    const res = await request(t.server).get('/docs-json').expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    document = res.body as OpenApiDocument;
  });

  afterAll(() => t.close());

  it('validates as an OpenAPI 3 document', async () => {
    expect(document.openapi).toMatch(/^3\./);
    // validate() dereferences in place: give it a copy.
    await expect(
      SwaggerParser.validate(structuredClone(document) as never),
    ).resolves.toBeDefined();
  });

  it('lists exactly the documented operations (health, metrics and docs stay out)', () => {
    const listed = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    expect(listed.sort()).toEqual(
      [...EXPECTED_STATUSES, ...BINARY_OPERATIONS]
        .map(([method, path]) => `${method} ${path}`)
        .sort(),
    );
  });

  it('documents the hosted logo as PNG, JPEG, WebP or SVG bytes, its 404 in the logo envelope, and no credentials in any mode', () => {
    const [[method, path, statuses]] = BINARY_OPERATIONS;
    const op = operation(document, method, path);
    expect(Object.keys(op?.responses ?? {}).sort()).toEqual(statuses);
    expect(Object.keys(op?.responses['200'].content ?? {}).sort()).toEqual([
      'image/jpeg',
      'image/png',
      'image/svg+xml',
      'image/webp',
    ]);
    const notFound = op?.responses['404'].content?.['application/json'];
    expect(schemaName(notFound)).toBe('LogoErrorResponseDto');
    expect(notFound?.example).toEqual({
      success: false,
      error: 'Logo not found',
      code: 'logo_not_found',
    });
    expect(op?.security).toEqual([]);
  });

  it.each(EXPECTED_STATUSES)(
    '%s %s documents the statuses %j, each with a JSON body schema and an example (304 has no body)',
    (method, path, statuses) => {
      const op = operation(document, method, path);
      expect(Object.keys(op?.responses ?? {}).sort()).toEqual(
        [...statuses].sort(),
      );
      for (const status of statuses.filter((s) => s !== '304')) {
        const media = op?.responses[status].content?.['application/json'];
        expect(schemaName(media)).toBeDefined();
        expect(media?.example).toBeDefined();
      }
    },
  );

  it('names an operationId for every operation (the generated client uses them)', () => {
    for (const [method, path] of EXPECTED_STATUSES) {
      expect(operation(document, method, path)?.operationId).toEqual(
        expect.any(String),
      );
    }
  });

  it.each([
    ['post', '/api/projects', 'CreateProjectDto'],
    ['patch', '/api/projects/{id}', 'UpdateProjectBodyDto'],
    ['post', '/api/ai/generate-logo', 'GenerateLogoDto'],
  ])(
    '%s %s has the request schema %s with an example',
    (method, path, schema) => {
      const media = operation(document, method, path)?.requestBody?.content[
        'application/json'
      ];
      expect(schemaName(media)).toBe(schema);
      expect(Object.keys(media?.examples ?? {})).not.toHaveLength(0);
    },
  );

  it('gives the request rules and limits in the schemas', () => {
    const { CreateProjectDto, GenerateLogoDto } = document.components
      .schemas as Record<string, { required: string[]; properties: never }>;
    expect(CreateProjectDto.required.sort()).toEqual(['name', 'userId']);
    expect(CreateProjectDto.properties).toMatchObject({
      name: { type: 'string', minLength: 1, maxLength: 100 },
      description: { type: 'string', maxLength: 500 },
    });
    expect(GenerateLogoDto.required.sort()).toEqual(
      ['colors', 'companyName', 'projectId', 'style'].sort(),
    );
    expect(GenerateLogoDto.properties).toMatchObject({
      companyName: { minLength: 1, maxLength: 100 },
      colors: { type: 'array', minItems: 1, maxItems: 5 },
      description: { maxLength: 500 },
      style: { allOf: [{ $ref: '#/components/schemas/LogoStyle' }] },
    });
  });

  it.each(Object.entries(ENUMS))(
    'lists the enum %s with its values',
    (name, values) => {
      expect(document.components.schemas[name]).toMatchObject({
        type: 'string',
        enum: values,
      });
    },
  );

  it('documents Retry-After on the 429 and the 503 of logo generation', () => {
    const responses = operation(
      document,
      'post',
      '/api/ai/generate-logo',
    )?.responses;
    expect(responses?.['429'].headers).toHaveProperty('Retry-After');
    expect(responses?.['503'].headers).toHaveProperty('Retry-After');
  });

  it("documents Retry-After and code too_many_tasks on a task's 429, and lists that code in the error body", () => {
    const tooMany = operation(document, 'post', '/api/projects/{id}/tasks')
      ?.responses['429'];
    expect(tooMany?.headers).toHaveProperty('Retry-After');
    expect(tooMany?.content?.['application/json']?.example).toMatchObject({
      code: 'too_many_tasks',
    });
    const errorBody = document.components.schemas.ErrorResponseDto as {
      properties: { code: { allOf: Array<{ $ref: string }> } };
    };
    expect(errorBody.properties.code.allOf).toEqual([
      { $ref: '#/components/schemas/ErrorCode' },
    ]);
    expect(
      (document.components.schemas.ErrorCode as { enum: string[] }).enum,
    ).toContain('too_many_tasks');
  });

  it("documents a task's body as one schema per task type, told apart by `type`, each with its own input", () => {
    const body = document.components.schemas.CreateTaskDto as {
      oneOf: { $ref: string }[];
      discriminator: { propertyName: string; mapping: Record<string, string> };
    };
    expect(body.discriminator.propertyName).toBe('type');
    expect(body.oneOf.map((schema) => schema.$ref)).toEqual(
      Object.values(body.discriminator.mapping),
    );
    const inputOf = (type: string) => {
      const member = document.components.schemas[
        body.discriminator.mapping[type].split('/').pop()!
      ] as {
        required: string[];
        properties: { input: { allOf: { $ref: string }[] } };
      };
      return {
        schema: member.properties.input.allOf[0].$ref,
        required: member.required.includes('input'),
      };
    };
    expect(
      Object.fromEntries(
        Object.keys(body.discriminator.mapping).map((type) => [
          type,
          inputOf(type),
        ]),
      ),
    ).toEqual({
      logo: { schema: '#/components/schemas/LogoTaskInputDto', required: true },
      'logo-edit': {
        schema: '#/components/schemas/LogoEditInputDto',
        required: true,
      },
      'marketing-copy': {
        schema: '#/components/schemas/MarketingCopyInputDto',
        required: false,
      },
      'landing-page': {
        schema: '#/components/schemas/LandingPageInputDto',
        required: false,
      },
      'brand-kit': {
        schema: '#/components/schemas/BrandKitInputDto',
        required: false,
      },
      wireframe: {
        schema: '#/components/schemas/WireframeInputDto',
        required: false,
      },
      'icon-set': {
        schema: '#/components/schemas/IconSetInputDto',
        required: true,
      },
      graphics: {
        schema: '#/components/schemas/GraphicsInputDto',
        required: false,
      },
      'site-check': {
        schema: '#/components/schemas/SiteCheckInputDto',
        required: false,
      },
      publish: {
        schema: '#/components/schemas/PublishInputDto',
        required: false,
      },
    });
  });

  it('documents the 400 of a body that is not JSON on the task routes that read one', () => {
    const created = operation(document, 'post', '/api/projects/{id}/tasks')
      ?.responses['400'].content?.['application/json'];
    expect(schemaName(created)).toBe('BodyValidationErrorResponseDto');
    expect(
      (
        document.components.schemas.BodyValidationErrorResponseDto as {
          properties: { error: { enum: string[] } };
        }
      ).properties.error.enum,
    ).toEqual(['Invalid input', 'Request body is not valid JSON']);
    expect(
      operation(document, 'post', '/api/projects/{id}/tasks/{taskId}/cancel')
        ?.responses['400'].content?.['application/json']?.example,
    ).toEqual({
      error: 'Request body is not valid JSON',
      code: 'invalid_json',
    });
  });

  it('documents pagination and list pages: limit, cursor, q, sort, order, view, includeTotal; nextCursor and total in the list', () => {
    const params = operation(document, 'get', '/api/projects')?.parameters;
    expect(params?.map((p) => `${p.in}:${p.name}`).sort()).toEqual([
      'query:cursor',
      'query:includeTotal',
      'query:limit',
      'query:order',
      'query:q',
      'query:sort',
      'query:userId',
      'query:view',
    ]);
    expect(
      document.components.schemas.ProjectListResponseDto.properties,
    ).toHaveProperty('nextCursor');
    expect(
      document.components.schemas.ProjectListResponseDto.properties,
    ).toHaveProperty('total');
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await request(t.server).get('/docs').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('swagger-ui');
  });

  it("lets Swagger UI's pages show image answers (blob: URLs), and only them", async () => {
    const imgSrc = (policy: unknown) =>
      String(policy)
        .split(';')
        .find((directive) => directive.trim().startsWith('img-src'))
        ?.trim();
    for (const path of ['/docs', '/docs/']) {
      const page = await request(t.server).get(path);
      expect(imgSrc(page.headers['content-security-policy'])).toBe(
        "img-src 'self' data: blob:",
      );
    }
    const api = await request(t.server).get('/api/projects');
    expect(imgSrc(api.headers['content-security-policy'])).toBe(
      "img-src 'self' data:",
    );
    const json = await request(t.server).get('/docs-json');
    expect(imgSrc(json.headers['content-security-policy'])).toBe(
      "img-src 'self' data:",
    );
  });

  it('names one relative server without PUBLIC_BASE_URL, so "Execute" reaches any host', () => {
    expect(
      (document as unknown as { servers: { url: string }[] }).servers.map(
        (server) => server.url,
      ),
    ).toEqual(['/']);
  });

  it('leaves unknown routes as 404 {error:"Not found"}, under /api and beside /docs', async () => {
    for (const path of ['/api/docs', '/api/docs-json', '/docs-nothing']) {
      const res = await request(t.server).get(path).expect(404);
      expect(res.body).toEqual({ error: 'Not found', code: 'not_found' });
    }
  });

  it('keeps src/generated/metadata.ts (the plugin metadata for ts-jest builds) up to date: npm run openapi:metadata', () => {
    const run = runScript('openapi-metadata.ts', '--check');
    // The CLI's type checker reports progress on stderr; only a stale file
    // or an error fails.
    expect(run.stderr).not.toMatch(/out of date|error/i);
    expect(run.status).toBe(0);
  }, 60_000);

  it('configures the compiler plugin in nest-cli.json with the options the metadata is generated with', () => {
    const cli = JSON.parse(
      readFileSync(join(REPO_ROOT, 'nest-cli.json'), 'utf8'),
    ) as { compilerOptions: { plugins: { name: string; options: object }[] } };
    expect(cli.compilerOptions.plugins).toEqual([
      { name: '@nestjs/swagger', options: OPENAPI_PLUGIN_OPTIONS },
    ]);
  });

  it('keeps client/openapi.json and client/workspace-api.ts up to date: npm run client:generate', () => {
    const run = runScript('api-client.ts', '--check');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);

  it('has the document served at /docs-json in client/openapi.json', () => {
    expect(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'))).toEqual(document);
  });
});

describe('The typed client (client/workspace-api.ts)', () => {
  const compilerOptions: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
    skipLibCheck: true,
  };

  const diagnosticsOf = (file: string): string[] =>
    ts
      .getPreEmitDiagnostics(ts.createProgram([file], compilerOptions))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));

  it('type-checks a frontend usage of it', () => {
    expect(
      diagnosticsOf(join(REPO_ROOT, 'test', 'client-usage', 'usage.ts')),
    ).toEqual([]);
  }, 60_000);

  it('rejects a logo request with a style the API does not offer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'client-usage-'));
    try {
      const file = join(dir, 'wrong.ts');
      writeFileSync(
        file,
        `import type { paths } from ${JSON.stringify(CLIENT_TYPES_FILE.replace(/\.ts$/, '.js'))};\n` +
          "type Body = paths['/api/ai/generate-logo']['post']['requestBody']['content']['application/json'];\n" +
          "export const body: Body = { projectId: 'p', companyName: 'A', style: 'baroque', colors: ['red'] };\n",
      );
      expect(diagnosticsOf(file).join('\n')).toContain('"baroque"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('The document of the built server', () => {
  it('is the same as the one of an app built from AppModule (the compiler plugin and src/generated/metadata.ts agree)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-process-'));
    const server = await startServer(
      { DATABASE_URL: `file:${join(dir, 'db.sqlite')}` },
      { cwd: dir },
    );
    const t = await createTestApp();
    try {
      const fromProcess = await request(server.baseUrl).get('/docs-json');
      const fromApp = await request(t.server).get('/docs-json');
      expect(fromProcess.status).toBe(200);
      expect(fromProcess.body).toEqual(fromApp.body);
    } finally {
      await server.stop();
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('The document for the running configuration', () => {
  const documentOf = async (env: Record<string, string>) => {
    const app = await createTestApp(env);
    try {
      return (await request(app.server).get('/docs-json').expect(200))
        .body as OpenApiDocument & { servers: { url: string }[] };
    } finally {
      await app.close();
    }
  };

  it('names PUBLIC_BASE_URL as its server when set', async () => {
    const document = await documentOf({
      PUBLIC_BASE_URL: 'https://api.example.com/workspace/',
    });
    expect(document.servers.map((server) => server.url)).toEqual([
      'https://api.example.com/workspace',
    ]);
  });

  it('with AUTH_MODE=oidc, gives no userId example: the token says who the caller is', async () => {
    const document = await documentOf({
      AUTH_MODE: 'oidc',
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
      AUTH_ISSUER: 'http://127.0.0.1:9/issuer',
      AUTH_AUDIENCE: 'workspace-api',
    });
    const create = operation(document, 'post', '/api/projects');
    const media = create?.requestBody?.content['application/json'];
    const examples = Object.values(media?.examples ?? {}) as {
      value: Record<string, unknown>;
    }[];
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      expect(example.value).toHaveProperty('name');
      expect(example.value).not.toHaveProperty('userId');
    }
    const createSchema = document.components.schemas.CreateProjectDto as {
      properties: { userId: Record<string, unknown> };
      required: string[];
    };
    expect(createSchema.required).not.toContain('userId');
    expect(createSchema.properties.userId).not.toHaveProperty('example');
    const userIdQuery = operation(
      document,
      'get',
      '/api/projects',
    )?.parameters?.find((parameter) => parameter.name === 'userId') as
      { description?: string; example?: unknown } | undefined;
    expect(userIdQuery).toBeDefined();
    expect(userIdQuery?.example).toBeUndefined();
    expect(userIdQuery?.description).not.toContain('user-1');
  });

  it('without AUTH_MODE=oidc, keeps the example user of the create example', async () => {
    const document = await documentOf({});
    const media = operation(document, 'post', '/api/projects')?.requestBody
      ?.content['application/json'];
    expect(JSON.stringify(media?.examples)).toContain('"userId":"user-1"');
  });
});
