import fc from 'fast-check';
import { DevTextApi } from '../../../dev-servers/text-api';
import { leakProblems, type Answer } from '../../support/answer-contract';
import { FakeImageApi, Replies } from '../../support/fake-image-api';
import { HttpClient } from '../../support/http-client';
import {
  ResponseContract,
  loadOpenApiDocument,
} from '../../support/openapi-responses';
import { listen } from '../../support/pending-request';
import {
  createProject,
  type ProjectBody,
} from '../../support/project-fixtures';
import { byScale, reliabilitySeed } from '../../support/reliability';
import { createTestApp, type TestApp } from '../../support/test-app';
import { assertProperty } from '../assert-property';

/**
 * Random requests to the four task routes and the two selection routes:
 * random bodies (JSON of any shape, broken JSON, other media types, bodies
 * over BODY_LIMIT), ids (real ones, another project's, malformed, encoded
 * junk) and queries. Every answer is one the API documents for the route,
 * a JSON object of the documented shape without a stack, SQL, a path or
 * the key, and the service still answers afterwards.
 */

const SECRET = 'sk-fuzz-tasks-93b1c7d2e4';
const BODY_LIMIT = 16 * 1024;
const RUNS = byScale(250, 8_000);

type Route =
  | 'createTask'
  | 'listTasks'
  | 'getTask'
  | 'cancelTask'
  | 'putSelection'
  | 'deleteSelection';

/** What the routes may answer (docs/api.md; 422 only with an Idempotency-Key, never sent here). */
const DOCUMENTED: Record<Route, readonly number[]> = {
  createTask: [202, 400, 404, 409, 413, 415, 429],
  listTasks: [200, 400, 404],
  getTask: [200, 404],
  cancelTask: [200, 400, 404, 409, 413, 415],
  putSelection: [200, 400, 404, 409, 413, 415],
  deleteSelection: [200, 404, 409],
};

const isJson = (text: string | undefined): boolean => {
  try {
    JSON.parse(text ?? '');
    return true;
  } catch {
    return false;
  }
};

interface Pool {
  projects: ProjectBody[];
  taskIds: string[];
  assetIds: string[];
}

interface FuzzCase {
  route: Route;
  project: number | string;
  item: number | string;
  body:
    | { kind: 'json'; value: unknown }
    | { kind: 'raw'; text: string; contentType?: string }
    | { kind: 'huge' }
    | { kind: 'none' };
  query: Record<string, string>;
}

const JUNK_IDS = [
  'not-an-id',
  '00000000-0000-0000-0000-000000000000',
  '019aa8f4-1c2d-7e3f-8a4b-5c6d7e8f9a0b',
  "1' OR '1'='1",
  '%00',
  '..%2F..%2Fetc%2Fpasswd',
  '%F0%9F%92%A9',
  'a'.repeat(300),
];

const idArbitrary = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 50 }) },
  { weight: 1, arbitrary: fc.constantFrom(...JUNK_IDS) },
  {
    weight: 1,
    arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent),
  },
);

/** Bodies the route takes, so that tasks run and are read and cancelled. */
const validTaskBody = fc.constantFrom(
  {
    type: 'logo',
    input: {
      companyName: 'Fuzz Co',
      style: 'modern',
      colors: ['#000000'],
      count: 2,
    },
  },
  { type: 'marketing-copy', input: { tone: 'dry' } },
  { type: 'landing-page' },
  { type: 'wireframe', input: { pages: ['home', 'pricing'], notes: 'Fuzz' } },
  { type: 'icon-set', input: { names: ['search', 'cart'], style: 'duotone' } },
  { type: 'graphics', input: { formats: ['og'], headline: 'Fuzz <&> "Co"' } },
  // 409 until a page is chosen, then a check of it.
  { type: 'site-check' },
  // Refused at creation while no landing page is chosen (409 nothing_chosen).
  { type: 'publish', input: { force: true } },
);

const taskBody = fc.oneof(
  fc.record(
    {
      type: fc.oneof(
        fc.constantFrom(
          'logo',
          'marketing-copy',
          'landing-page',
          'wireframe',
          'icon-set',
          'graphics',
          'site-check',
          'publish',
        ),
        fc.jsonValue(),
      ),
      input: fc.oneof(
        fc.constant({
          companyName: 'Fuzz Co',
          style: 'modern',
          colors: ['#000000'],
        }),
        fc.record(
          {
            companyName: fc.oneof(fc.string(), fc.jsonValue()),
            style: fc.oneof(
              fc.constantFrom(
                'modern',
                'playful',
                'outline',
                'solid',
                'duotone',
              ),
              fc.string(),
            ),
            colors: fc.oneof(
              fc.array(fc.string(), { maxLength: 6 }),
              fc.jsonValue(),
            ),
            count: fc.oneof(fc.integer({ min: -2, max: 8 }), fc.jsonValue()),
            tone: fc.string({ maxLength: 80 }),
            force: fc.oneof(fc.boolean(), fc.jsonValue()),
            pages: fc.oneof(
              fc.array(
                fc.oneof(
                  fc.constantFrom('home', 'pricing', 'Home', 'a'.repeat(41)),
                  fc.string({ maxLength: 50 }),
                ),
                { maxLength: 8 },
              ),
              fc.jsonValue(),
            ),
            notes: fc.oneof(
              fc.string({ maxLength: 2100 }),
              fc.constant('n'.repeat(2001)),
              fc.jsonValue(),
            ),
            names: fc.oneof(
              fc.array(
                fc.oneof(
                  fc.constantFrom('search', 'cart', 'house', 'a--b', 'Cart'),
                  fc.string({ maxLength: 45 }),
                ),
                { maxLength: 30 },
              ),
              fc.jsonValue(),
            ),
            formats: fc.oneof(
              fc.array(
                fc.oneof(
                  fc.constantFrom('og', 'x', 'story', 'hero', 'banner'),
                  fc.string(),
                ),
                { maxLength: 8 },
              ),
              fc.jsonValue(),
            ),
            headline: fc.oneof(fc.string({ maxLength: 140 }), fc.jsonValue()),
            assetId: fc.oneof(fc.constantFrom(...JUNK_IDS), fc.jsonValue()),
            fixReportId: fc.oneof(fc.constantFrom(...JUNK_IDS), fc.jsonValue()),
            __proto__: fc.jsonValue(),
          },
          { requiredKeys: [] },
        ),
        fc.jsonValue(),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

const bodyArbitrary: fc.Arbitrary<FuzzCase['body']> = fc.oneof(
  {
    weight: 3,
    arbitrary: validTaskBody.map((value) => ({ kind: 'json' as const, value })),
  },
  {
    weight: 6,
    arbitrary: taskBody.map((value) => ({ kind: 'json' as const, value })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ assetId: fc.oneof(fc.nat({ max: 20 }), fc.jsonValue()) })
      .map((value) => ({ kind: 'json' as const, value })),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('raw' as const),
      text: fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.constant('{"type": "logo",'),
      ),
      contentType: fc.option(
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=latin1',
        ),
        { nil: undefined },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'huge' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
);

const caseArbitrary: fc.Arbitrary<FuzzCase> = fc.record({
  route: fc.constantFrom<Route>(
    'createTask',
    'listTasks',
    'getTask',
    'cancelTask',
    'putSelection',
    'deleteSelection',
  ),
  project: idArbitrary,
  item: idArbitrary,
  body: bodyArbitrary,
  query: fc.dictionary(
    fc.constantFrom('limit', 'cursor', 'page', 'x'),
    fc.oneof(
      fc.integer({ min: -5, max: 1000 }).map(String),
      fc.string({ maxLength: 30 }),
      fc.constant('WyIyMDI2LTExLTIyVDAzOjM5OjA5LjMyMVoiLCJ4Il0'),
    ),
    { maxKeys: 3 },
  ),
});

describe('Fuzzing the task and selection routes', () => {
  let t: TestApp;
  let images: FakeImageApi;
  let texts: DevTextApi;
  let client: HttpClient;
  const pool: Pool = { projects: [], taskIds: [], assetIds: [] };
  const contract = new ResponseContract(loadOpenApiDocument());

  beforeAll(async () => {
    images = await FakeImageApi.start();
    images.respondWith(Replies.slow(Replies.image(), 200));
    texts = await DevTextApi.start();
    t = await createTestApp({
      BODY_LIMIT: String(BODY_LIMIT),
      IMAGE_API_KEY: SECRET,
      IMAGE_API_URL: images.url,
      TEXT_API_URL: texts.url,
      TEXT_API_KEY: SECRET,
      TASK_MAX_QUEUED_PER_PROJECT: '3',
      TASK_RETRY_DELAY_MS: '50',
      TASK_CANCEL_CHECK_MS: '100',
    });
    client = new HttpClient(await listen(t));
    for (let i = 0; i < 3; i++) {
      pool.projects.push(await createProject(t, { name: `Fuzz ${i}` }));
    }
  });
  afterAll(async () => {
    client?.close();
    await t?.close();
    await images?.close();
    await texts?.close();
  });

  const pick = <T>(list: T[], value: number | string): T | string =>
    typeof value === 'number'
      ? list.length > 0
        ? list[value % list.length]
        : String(value)
      : value;

  function build(fuzz: FuzzCase) {
    const project = pick(pool.projects, fuzz.project);
    const projectId = typeof project === 'string' ? project : project.id;
    const sectionIds =
      typeof project === 'string' ? [] : project.sections.map((s) => s.id);
    const base = `/api/projects/${projectId}`;
    const query = new URLSearchParams(fuzz.query).toString();
    const path = {
      createTask: `${base}/tasks`,
      listTasks: `${base}/tasks${query ? `?${query}` : ''}`,
      getTask: `${base}/tasks/${pick(pool.taskIds, fuzz.item)}`,
      cancelTask: `${base}/tasks/${pick(pool.taskIds, fuzz.item)}/cancel`,
      putSelection: `${base}/sections/${pick(sectionIds, fuzz.item)}/selection`,
      deleteSelection: `${base}/sections/${pick(sectionIds, fuzz.item)}/selection`,
    }[fuzz.route];
    const method = {
      createTask: 'POST',
      listTasks: 'GET',
      getTask: 'GET',
      cancelTask: 'POST',
      putSelection: 'PUT',
      deleteSelection: 'DELETE',
    }[fuzz.route];
    const sendsBody = ['createTask', 'cancelTask', 'putSelection'].includes(
      fuzz.route,
    );
    let body: string | undefined;
    const headers: Record<string, string> = {};
    if (sendsBody) {
      switch (fuzz.body.kind) {
        case 'json': {
          let value = fuzz.body.value;
          // An asset of the pool in place of a number, for real selections.
          if (
            fuzz.route === 'putSelection' &&
            typeof value === 'object' &&
            value !== null &&
            typeof (value as { assetId?: unknown }).assetId === 'number'
          ) {
            value = {
              assetId: pick(
                pool.assetIds,
                (value as { assetId: number }).assetId,
              ),
            };
          }
          body = JSON.stringify(value) ?? 'null';
          headers['content-type'] = 'application/json';
          break;
        }
        case 'raw':
          body = fuzz.body.text;
          if (fuzz.body.contentType) {
            headers['content-type'] = fuzz.body.contentType;
          }
          break;
        case 'huge':
          body = JSON.stringify({
            type: 'logo',
            input: { companyName: 'x'.repeat(BODY_LIMIT * 2) },
          });
          headers['content-type'] = 'application/json';
          break;
        case 'none':
          break;
      }
    }
    if (body !== undefined) {
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    return { method, path, headers, body };
  }

  /** Keeps what the service made, so later cases name real tasks and assets. */
  function remember(route: Route, answer: Answer) {
    if (answer.status !== 202 && answer.status !== 200) return;
    try {
      const parsed = JSON.parse(answer.text) as {
        task?: { id: string; assetIds: string[] };
        tasks?: Array<{ id: string; assetIds: string[] }>;
      };
      for (const task of [
        ...(parsed.task ? [parsed.task] : []),
        ...(parsed.tasks ?? []),
      ]) {
        if (!pool.taskIds.includes(task.id)) pool.taskIds.push(task.id);
        for (const id of task.assetIds) {
          if (!pool.assetIds.includes(id)) pool.assetIds.push(id);
        }
      }
    } catch {
      // Checked below.
    }
    void route;
  }

  function problemsOf(
    route: Route,
    request: ReturnType<typeof build>,
    answer: Answer,
  ): string[] {
    const problems: string[] = [];
    // As PATCH /api/projects/{id} does, choosing a result answers a body
    // that is not JSON with the route's documented 500 (section-selection
    // suite); only then.
    const unreadableSelection =
      route === 'putSelection' &&
      answer.status === 500 &&
      answer.text ===
        '{"error":"Failed to choose result","code":"invalid_json"}' &&
      !isJson(request.body);
    if (!DOCUMENTED[route].includes(answer.status) && !unreadableSelection) {
      problems.push(`status ${answer.status} is not documented for ${route}`);
    }
    const contentType = String(answer.headers['content-type'] ?? '');
    if (!contentType.startsWith('application/json')) {
      problems.push(`content-type is "${contentType}"`);
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      problems.push(`the body is not JSON: ${answer.text.slice(0, 200)}`);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      problems.push('the body is not a JSON object');
    } else {
      const undocumented = contract.problem(
        request.method,
        new URL(request.path, 'http://x').pathname,
        answer.status,
        body,
        answer.headers,
      );
      if (undocumented) problems.push(undocumented);
      // A task's input echoes what the client sent: data, not a leak.
      const own = JSON.stringify(body, (key, value: unknown) =>
        ['input', 'name', 'prompt', 'url'].includes(key) ? '' : value,
      );
      problems.push(
        ...leakProblems(own, `${request.path} ${request.body ?? ''}`),
      );
    }
    if (answer.text.includes(SECRET)) problems.push('the key is in the answer');
    if (answer.status === 429 && !answer.headers['retry-after']) {
      problems.push('a 429 without Retry-After');
    }
    return problems;
  }

  it('answers every random request to the task and selection routes as documented, and stays up', async () => {
    const seed = reliabilitySeed('fuzz-tasks');
    const statuses = new Map<string, number>();
    await assertProperty(
      fc.asyncProperty(caseArbitrary, async (fuzz) => {
        const request = build(fuzz);
        const answer = await client.send(request);
        const key = `${fuzz.route} ${answer.status}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        remember(fuzz.route, answer);
        const problems = problemsOf(fuzz.route, request, answer);
        if (problems.length > 0) {
          throw new Error(
            `${request.method} ${request.path} → ${answer.status} ${answer.text.slice(0, 300)}\n${problems.join('\n')}`,
          );
        }
      }),
      { seed, numRuns: RUNS, endOnFailure: true },
    );
    // The run reached the routes' own answers, not only their refusals.
    const seen = [...statuses.keys()];
    expect(seen).toEqual(
      expect.arrayContaining(['createTask 202', 'listTasks 200']),
    );
    const health = await client.send({ method: 'GET', path: '/health/live' });
    expect(health.status).toBe(200);
  });
});
