import fc from 'fast-check';
import {
  answerProblems,
  isAssetOperation,
  OPERATIONS,
  type Answer,
  type Operation,
} from '../../support/answer-contract';
import { CapturingLogger } from '../../support/capturing-logger';
import { FakeImageApi, Replies } from '../../support/fake-image-api';
import { HttpClient, parseRawAnswer, sendRaw } from '../../support/http-client';
import { listen } from '../../support/pending-request';
import {
  byScale,
  recordReliability,
  reliabilitySeed,
} from '../../support/reliability';
import { createTestApp, type TestApp } from '../../support/test-app';
import { assertProperty } from '../assert-property';
import { AssetPool, FUZZ_PNG, type ResolvedRequest } from '../fuzz-asset-pool';
import { requestArbitrary, type FuzzRequest } from '../fuzz-requests';

const SECRET = 'sk-reliability-fuzz-5f0c2a9e7d41b8';
const BODY_LIMIT = 256 * 1024;
/**
 * Generated requests per operation: 1,800 in all in `npm test`; in the long
 * run 78,000 per database, over 150,000 in all.
 */
const RUNS_PER_OPERATION = byScale(150, 6_500);

type Loose = Record<string, unknown>;

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype)
  .sort()
  .join();

/** Prototype pollution as any later code would observe it. */
function pollutionProblems(): string[] {
  const probe = {} as Loose;
  const problems: string[] = [];
  for (const key of ['polluted', 'isAdmin']) {
    if (
      probe[key] !== undefined ||
      ([] as unknown as Loose)[key] !== undefined
    ) {
      problems.push(`({}).${key} is observable`);
    }
  }
  if (
    Object.getOwnPropertyNames(Object.prototype).sort().join() !==
    PROTOTYPE_KEYS
  ) {
    problems.push('Object.prototype gained properties');
  }
  return problems;
}

function parseJson(body: Buffer | undefined): { ok: boolean; value?: unknown } {
  try {
    return {
      ok: true,
      value: JSON.parse((body ?? Buffer.alloc(0)).toString('utf8')),
    };
  } catch {
    return { ok: false };
  }
}

/** The media type the API reads `multipart/form-data` from (any case, any parameters). */
function isMultipart(contentType: string | string[] | undefined): boolean {
  return (
    typeof contentType === 'string' &&
    contentType.split(';', 1)[0].trim().toLowerCase() === 'multipart/form-data'
  );
}

/**
 * What this fuzz run knows beyond the documented statuses: a readable body
 * is never "failed" on create or logo (the upstream is healthy), reads never
 * fail, a body over the limit is always 413 and only then, and a 2xx
 * stores exactly what was sent.
 */
function expectationProblems(
  request: FuzzRequest,
  path: string,
  answer: Answer,
  resolved?: ResolvedRequest,
): string[] {
  const problems: string[] = [];
  const { operation } = request;
  // Node refuses request headers over 16 KB (the URL is part of them) with
  // 431 before any route runs; well under that, never.
  const urlLength = path.length;
  if (urlLength > 16 * 1024) {
    return answer.status === 431
      ? []
      : [`a ${urlLength}-character URL answered ${answer.status}, not 431`];
  }
  if (answer.status === 431) {
    return urlLength < 12 * 1024
      ? [`431 for a ${urlLength}-character URL`]
      : [];
  }
  const size = request.body?.length ?? 0;
  const bodyRoute =
    operation === 'create' ||
    operation === 'logo' ||
    operation === 'patch' ||
    operation === 'keepLogo';
  // A multipart body on the upload route is read by its own parser,
  // bounded by ASSET_UPLOAD_MAX_BYTES (5 MiB), not by BODY_LIMIT: one a
  // little over BODY_LIMIT is an upload like any other (a malformed one is
  // 400 invalid_upload).
  const upload =
    operation === 'keepLogo' && isMultipart(request.headers['content-type']);
  if (bodyRoute && size > BODY_LIMIT && !upload) {
    return answer.status === 413
      ? []
      : [`a ${size}-byte body answered ${answer.status}, not 413`];
  }
  if (answer.status === 413) problems.push(`413 for a ${size}-byte body`);
  const parsed = parseJson(request.body);
  if (operation === 'create' || operation === 'logo') {
    // A key's retry can also meet its first request still in progress
    // (409) or reused with another body (422).
    const keyed = 'idempotency-key' in request.headers ? [409, 422] : [];
    const allowed = !parsed.ok
      ? [500]
      : operation === 'create'
        ? [201, 400, ...keyed]
        : [200, 400, ...keyed];
    if (!allowed.includes(answer.status)) {
      problems.push(
        `${parsed.ok ? 'a readable' : 'an unreadable'} body answered ${answer.status}`,
      );
    }
  }
  if ((operation === 'get' || operation === 'list') && answer.status === 500) {
    problems.push('a read failed');
  }
  if (isAssetOperation(operation)) {
    problems.push(
      ...assetExpectationProblems(request, answer, parsed, resolved),
    );
  }
  if (
    ((operation === 'create' && answer.status === 201) ||
      (operation === 'patch' && answer.status === 200)) &&
    parsed.ok
  ) {
    const sent = parsed.value as Loose;
    const project = (JSON.parse(answer.text) as { project: Loose }).project;
    for (const field of ['name', 'userId', 'description']) {
      if (
        field in sent &&
        typeof sent[field] === 'string' &&
        project[field] !== sent[field]
      ) {
        problems.push(
          `${field} was stored as ${JSON.stringify(project[field])}`,
        );
      }
    }
  }
  return problems;
}

/**
 * The asset routes with a healthy upstream answering a PNG: a readable logo
 * body is kept or refused as documented, never "failed"; reads and deletes
 * never fail; without AUTH_MODE=oidc no url is refused (403), and an asset
 * named with its own project always answers (its bytes, their length).
 */
function assetExpectationProblems(
  request: FuzzRequest,
  answer: Answer,
  parsed: { ok: boolean },
  resolved: ResolvedRequest | undefined,
): string[] {
  const { operation, headers } = request;
  const { status } = answer;
  if (operation === 'keepLogo') {
    const keyed = 'idempotency-key' in headers ? [409, 422] : [];
    const allowed = parsed.ok ? [201, 400, 404, 409, ...keyed] : [400, 500];
    const problems = allowed.includes(status)
      ? []
      : [
          `${parsed.ok ? 'a readable' : 'an unreadable'} logo body answered ${status}`,
        ];
    if (status === 201 && answer.headers['idempotent-replayed'] !== 'true') {
      const { asset } = JSON.parse(answer.text) as {
        asset: { byteSize: number };
      };
      if (asset.byteSize !== FUZZ_PNG.length) {
        problems.push(`kept ${asset.byteSize} bytes, not the upstream's`);
      }
    }
    return problems;
  }
  const problems: string[] = [];
  if (status === 500) problems.push(`${operation} failed`);
  if (status === 403) problems.push('a url refused without AUTH_MODE=oidc');
  const conditional =
    'if-match' in headers || 'if-none-match' in headers ? [304, 412] : [];
  if (resolved?.asset && ![200, ...conditional].includes(status)) {
    problems.push(`an existing asset answered ${status}`);
  }
  if (
    resolved?.asset &&
    operation === 'assetContent' &&
    status === 200 &&
    answer.headers['content-length'] !== String(resolved.asset.byteSize)
  ) {
    problems.push(
      `served ${String(answer.headers['content-length'])} bytes of ${resolved.asset.byteSize}`,
    );
  }
  return problems;
}

describe('Fuzzing every operation (reliability)', () => {
  let t: TestApp;
  let upstream: FakeImageApi;
  let client: HttpClient;
  let port: number;
  const logger = new CapturingLogger();
  const pool: string[] = [];
  const assetPool = new AssetPool();
  const seed = reliabilitySeed('fuzz');

  beforeAll(async () => {
    upstream = await FakeImageApi.start();
    t = await createTestApp(
      {
        BODY_LIMIT: String(BODY_LIMIT),
        IMAGE_API_KEY: SECRET,
        IMAGE_API_URL: upstream.url,
        // Small, so that kept logos fill projects up (409) in a short run.
        ASSET_MAX_PER_PROJECT: '1',
      },
      { logger },
    );
    const baseUrl = await listen(t);
    port = Number(new URL(baseUrl).port);
    client = new HttpClient(baseUrl);
    for (let i = 0; i < 10; i++) pool.push(await createPoolProject(i));
    for (let i = 0; i < 3; i++) await keepPoolLogo(i);
  });

  afterAll(async () => {
    client?.close();
    await t?.close();
    await upstream?.close();
  });

  async function createPoolProject(i: number): Promise<string> {
    const answer = await client.send({
      method: 'POST',
      path: '/api/projects',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Pool ${i}`, userId: 'fuzz-pool' }),
    });
    return (JSON.parse(answer.text) as { project: { id: string } }).project.id;
  }

  /** Keeps a logo (the upstream answers FUZZ_PNG) in a project of its own. */
  async function keepPoolLogo(i: number): Promise<void> {
    const projectId = await createPoolProject(i);
    upstream.respondNext(Replies.base64(FUZZ_PNG));
    const answer = await client.send(AssetPool.keepCall(projectId));
    if (answer.status !== 201) throw new Error(`pool logo: ${answer.text}`);
    assetPool.add(answer);
  }

  /** Keeps the pool of existing projects in step with what the fuzz did. */
  function track(request: FuzzRequest, path: string, answer: Answer): void {
    const id = /^\/api\/projects\/([^/?]+)/.exec(path)?.[1];
    if (request.operation === 'delete' && answer.status === 200 && id) {
      pool.splice(pool.indexOf(id), 1);
    }
    if (request.operation === 'create' && answer.status === 201) {
      pool.push(
        (JSON.parse(answer.text) as { project: { id: string } }).project.id,
      );
    }
  }

  it.each(OPERATIONS.map((operation, index) => [operation, index] as const))(
    'answers every generated %s request with a documented status and body, no leak and no pollution',
    async (operation: Operation, index: number) => {
      let cases = 0;
      let previous = 'none';
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      // Kept logos need the image itself: a base64 PNG, not a URL.
      if (operation === 'keepLogo') {
        upstream.respondWith(Replies.base64(FUZZ_PNG));
      }
      try {
        await assertProperty(
          fc.asyncProperty(
            requestArbitrary(operation, { bodyLimit: BODY_LIMIT }),
            async (request) => {
              cases++;
              if (pool.length < 5) pool.push(await createPoolProject(cases));
              if (isAssetOperation(operation) && assetPool.assets.length < 3) {
                await keepPoolLogo(cases);
              }
              const resolved = assetPool.resolve(request, pool);
              const { path } = resolved;
              const description = describeRequest(request, path);
              const answer = await client
                .send({
                  method: request.method,
                  path,
                  headers: request.headers,
                  body: request.body,
                })
                .catch((error: { message?: string }) => {
                  throw new Error(
                    `${error.message} for ${description} (the one before: ${previous})`,
                  );
                });
              previous = `${description} → ${answer.status}`;
              statuses.set(
                answer.status,
                (statuses.get(answer.status) ?? 0) + 1,
              );
              track(request, path, answer);
              assetPool.track(request, resolved, answer);
              const requestText = `${decodeURIComponentSafe(path)} ${path} ${request.body?.toString('utf8') ?? ''}`;
              const problems = [
                ...answerProblems(operation, answer, {
                  requestText,
                  secret: SECRET,
                }),
                ...expectationProblems(request, path, answer, resolved),
                ...pollutionProblems(),
              ];
              if (problems.length > 0) {
                const summary = `${request.method} ${path.slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 300)}: ${problems.join('; ')}`;
                failures.push(summary);
                throw new Error(summary);
              }
            },
          ),
          { seed: seed + index, numRuns: RUNS_PER_OPERATION },
        );
        process.stdout.write(
          `[reliability] fuzz ${operation}: ${JSON.stringify(Object.fromEntries(statuses))}\n`,
        );
      } finally {
        upstream.respondWith(Replies.success());
        recordReliability({
          driver: 'fuzz',
          item: operation,
          count: cases,
          failures: failures.length,
          seed: seed + index,
        });
      }
    },
    byScale(120_000, 1_800_000),
  );

  it('answers raw, malformed HTTP with a JSON body or by closing, and keeps serving', async () => {
    const long = 'a'.repeat(20_000);
    const cases: Array<[string, string, number[]]> = [
      ['a garbage request line', 'GARBAGE\r\n\r\n', [400]],
      [
        'headers over the size limit',
        `GET /api/projects?userId=${long} HTTP/1.1\r\nHost: x\r\n\r\n`,
        [431],
      ],
      [
        'two different Content-Lengths',
        'POST /api/projects HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n{}',
        [400],
      ],
      [
        'a broken chunked body',
        'POST /api/projects HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
        [400],
      ],
      [
        'a space in the path',
        'GET /api/projects/a b HTTP/1.1\r\nHost: x\r\n\r\n',
        [400],
      ],
      [
        'raw bytes in the path',
        'GET /api/projects/\xff\xfe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        [400, 404],
      ],
      [
        'a body cut short of its Content-Length',
        'POST /api/projects HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"name":',
        [400, 500],
      ],
      [
        'an unknown HTTP version',
        'GET /api/projects HTTP/9.9\r\nHost: x\r\n\r\n',
        [400, 505],
      ],
    ];
    const failures: string[] = [];
    for (const [label, bytes, statuses] of cases) {
      const raw = await sendRaw(port, Buffer.from(bytes, 'latin1'), 200);
      if (raw === '') continue; // closing the connection is an answer too
      const answer = parseRawAnswer(raw);
      const body = answer ? safeJson(answer.text) : undefined;
      if (
        !answer ||
        !statuses.includes(answer.status) ||
        typeof body !== 'object' ||
        body === null ||
        typeof (body as Loose).error !== 'string'
      ) {
        failures.push(`${label}: ${JSON.stringify(raw.slice(0, 200))}`);
      }
    }
    const after = await client.send({
      method: 'GET',
      path: '/api/ai/generate-logo',
    });
    recordReliability({
      driver: 'fuzz',
      item: 'raw HTTP',
      count: cases.length,
      failures: failures.length,
    });
    expect(failures).toEqual([]);
    expect(after.status).toBe(200);
  });

  it('keeps answering correctly after the fuzz, with no prototype pollution observable', async () => {
    expect(pollutionProblems()).toEqual([]);
    const created = await client.send({
      method: 'POST',
      path: '/api/projects',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After fuzz', userId: 'after-fuzz' }),
    });
    expect(created.status).toBe(201);
    const project = (JSON.parse(created.text) as { project: Loose }).project;
    expect(project.polluted).toBeUndefined();
    const listed = await client.send({
      method: 'GET',
      path: '/api/projects?userId=after-fuzz',
    });
    const projects = (JSON.parse(listed.text) as { projects: Loose[] })
      .projects;
    expect(projects.map((p) => [p.name, p.polluted, p.isAdmin])).toEqual([
      ['After fuzz', undefined, undefined],
    ]);
  });

  it('never writes the image-API key in a log line', () => {
    expect(logger.lines.filter((line) => line.includes(SECRET))).toEqual([]);
  });
});

function describeRequest(request: FuzzRequest, path: string): string {
  const body = request.body;
  return `${request.method} ${path.slice(0, 200)} ${JSON.stringify(request.headers)} ${
    body
      ? `${body.length} bytes ${JSON.stringify(body.toString('utf8').slice(0, 200))}`
      : 'no body'
  }`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The content types a browser sends cross-origin without a preflight. */
const PREFLIGHT_FREE_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
];

/** What README documents: one of those, or no (or an empty) Content-Type. */
function sentWithoutPreflight(request: FuzzRequest): boolean {
  const type = request.headers['content-type'];
  if (type === undefined) return true;
  const essence = String(type).split(';')[0].trim().toLowerCase();
  return essence === '' || PREFLIGHT_FREE_TYPES.includes(essence);
}

/**
 * The body routes as deployed for browsers and untrusted clients:
 * CORS_ORIGINS and PROJECT_CREATE_RATE_LIMIT set. Every answer is still a
 * documented one; a body a browser may send without a preflight is always
 * 415 and nothing else, and only create is ever 429.
 */
describe('Fuzzing the body routes with CORS_ORIGINS and PROJECT_CREATE_RATE_LIMIT set (reliability)', () => {
  const operations = ['create', 'patch', 'logo'] as const;
  let t: TestApp;
  let upstream: FakeImageApi;
  let client: HttpClient;
  const pool: string[] = [];
  let poolCreates = 0;
  const seed = reliabilitySeed('fuzz-guarded');

  beforeAll(async () => {
    upstream = await FakeImageApi.start();
    t = await createTestApp({
      BODY_LIMIT: String(BODY_LIMIT),
      IMAGE_API_KEY: SECRET,
      IMAGE_API_URL: upstream.url,
      CORS_ORIGINS: 'https://app.example.com',
      PROJECT_CREATE_RATE_LIMIT: '1',
      // The pool's projects are created from addresses of their own, so
      // the fuzz's budget is its own.
      TRUST_PROXY: 'loopback',
    });
    client = new HttpClient(await listen(t));
    for (let i = 0; i < 5; i++) pool.push(await createPoolProject());
  });

  afterAll(async () => {
    client?.close();
    await t?.close();
    await upstream?.close();
  });

  async function createPoolProject(): Promise<string> {
    poolCreates++;
    const answer = await client.send({
      method: 'POST',
      path: '/api/projects',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `198.51.100.${poolCreates % 250}`,
      },
      body: JSON.stringify({ name: 'Pool', userId: 'fuzz-guarded-pool' }),
    });
    return (JSON.parse(answer.text) as { project: { id: string } }).project.id;
  }

  function guardedProblems(
    request: FuzzRequest,
    path: string,
    answer: Answer,
  ): string[] {
    // Headers over Node's limit come before any route (see
    // expectationProblems, which also knows when 431 is expected).
    if (answer.status === 431 || path.length > 16 * 1024) {
      return expectationProblems(request, path, answer);
    }
    if (sentWithoutPreflight(request)) {
      return answer.status === 415
        ? []
        : [
            `Content-Type ${JSON.stringify(request.headers['content-type'])} answered ${answer.status}, not 415`,
          ];
    }
    if (answer.status === 415) {
      return [
        `415 for Content-Type ${JSON.stringify(request.headers['content-type'])}`,
      ];
    }
    if (answer.status === 429) {
      return request.operation === 'create' ? [] : ['429 outside create'];
    }
    return expectationProblems(request, path, answer);
  }

  it.each(operations.map((operation, index) => [operation, index] as const))(
    'answers every generated %s request as documented',
    async (operation, index) => {
      let cases = 0;
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      try {
        await assertProperty(
          fc.asyncProperty(
            requestArbitrary(operation, { bodyLimit: BODY_LIMIT }),
            async (request) => {
              cases++;
              const path = request.idChoice
                ? request.path.replace(
                    '{id}',
                    'existing' in request.idChoice
                      ? pool[request.idChoice.existing % pool.length]
                      : request.idChoice.segment,
                  )
                : request.path;
              const answer = await client.send({
                method: request.method,
                path,
                headers: request.headers,
                body: request.body,
              });
              statuses.set(
                answer.status,
                (statuses.get(answer.status) ?? 0) + 1,
              );
              const requestText = `${decodeURIComponentSafe(path)} ${path} ${request.body?.toString('utf8') ?? ''}`;
              const problems = [
                ...answerProblems(operation, answer, {
                  requestText,
                  secret: SECRET,
                }),
                ...guardedProblems(request, path, answer),
                ...pollutionProblems(),
              ];
              if (problems.length > 0) {
                const summary = `${describeRequest(request, path)} → ${answer.status} ${answer.text.slice(0, 300)}: ${problems.join('; ')}`;
                failures.push(summary);
                throw new Error(summary);
              }
            },
          ),
          { seed: seed + index, numRuns: byScale(60, 1_000) },
        );
        process.stdout.write(
          `[reliability] fuzz-guarded ${operation}: ${JSON.stringify(Object.fromEntries(statuses))}\n`,
        );
        // The refusal this setting exists for was exercised.
        expect(statuses.get(415)).toBeGreaterThan(0);
      } finally {
        recordReliability({
          driver: 'fuzz',
          item: `${operation} (CORS_ORIGINS, PROJECT_CREATE_RATE_LIMIT set)`,
          count: cases,
          failures: failures.length,
          seed: seed + index,
        });
      }
    },
    byScale(120_000, 1_800_000),
  );
});
