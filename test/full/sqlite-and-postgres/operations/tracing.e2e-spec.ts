import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DevImageApi, Replies } from '../../../../dev-servers/image-api';
import {
  OtlpReceiver,
  type ReceivedSpan,
} from '../../../support/otlp-receiver';
import {
  startServer,
  type ServerProcess,
} from '../../../support/server-process';
import {
  createTestDatabase,
  TEST_DATABASE,
  type TestDatabase,
} from '../../../support/test-database';

/**
 * Tracing in the real process (node dist/service/main.js, the SDK loaded before
 * the app), exporting OTLP/JSON to a receiver in this test: the caller's
 * traceparent is honoured and passed on to the image API, every upstream
 * attempt and backoff is a span, every statement is a span, nothing secret
 * is exported, and SIGTERM flushes what is buffered.
 */

const KEY = 'sk-tracing-test-0123456789';
const SERVER = 2;
const CLIENT = 3;

const LOGO = {
  projectId: 'any',
  companyName: 'Acme Rockets',
  style: 'modern',
  colors: ['#0044ff'],
};

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A caller's sampled trace context. */
function callerContext() {
  const traceId = hex(16);
  const parentId = hex(8);
  return { traceId, parentId, header: `00-${traceId}-${parentId}-01` };
}

/** A statement's span (pg also makes one for taking a pooled connection). */
const isDatabaseSpan = (span: ReceivedSpan) =>
  span.kind === CLIENT &&
  (span.attributes['db.query.text'] !== undefined ||
    span.attributes['db.statement'] !== undefined);

describe('tracing (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  let receiver: OtlpReceiver;
  let api: DevImageApi;
  let database: TestDatabase;
  let server: ServerProcess | undefined;

  beforeEach(async () => {
    receiver = await OtlpReceiver.start();
    api = await DevImageApi.start({ defaultReply: Replies.success() });
    database = await createTestDatabase();
    server = await startServer({
      DATABASE_URL: database.url,
      LOG_LEVEL: 'info',
      IMAGE_API_KEY: KEY,
      IMAGE_API_URL: api.url,
      IMAGE_API_MAX_RETRIES: '2',
      IMAGE_API_RETRY_BASE_MS: '10',
      IMAGE_API_RETRY_MAX_MS: '50',
      LOGO_RATE_LIMIT: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
  });

  afterEach(async () => {
    await server?.stop();
    await api?.close();
    await receiver?.close();
    await database?.drop();
  });

  it('puts a logo request with two upstream 429s into the caller’s trace: queue wait, three attempts with their statuses, two backoffs, traceparent sent upstream, flushed on SIGTERM', async () => {
    api.respondNext(
      Replies.error(429, 'Rate limit reached'),
      Replies.error(429, 'Rate limit reached'),
    );
    const caller = callerContext();
    await request(server!.baseUrl)
      .post('/api/ai/generate-logo')
      .set('traceparent', caller.header)
      .send(LOGO)
      .expect(200);
    // Straight away: the spans are still in the batch (it exports every
    // 5 s), so only the flush on SIGTERM can deliver them now.
    expect(await server!.stop()).toBe(0);
    server = undefined;

    const spans = receiver.trace(caller.traceId);
    const serverSpan = spans.find((span) => span.kind === SERVER);
    expect(serverSpan).toMatchObject({
      parentSpanId: caller.parentId,
      attributes: expect.objectContaining({
        'http.request.method': 'POST',
        'http.route': '/api/ai/generate-logo',
        'http.response.status_code': 200,
      }),
    });
    expect(spans.filter((s) => s.name === 'logo.queue.wait')).toHaveLength(1);
    expect(spans.filter((s) => s.name === 'logo.rate_limit')).toHaveLength(1);

    const attempts = spans
      .filter((span) => span.name === 'image_api.call')
      .map((span) => span.attributes)
      .sort(
        (a, b) =>
          Number(a['image_api.attempt']) - Number(b['image_api.attempt']),
      );
    expect(attempts).toEqual([
      expect.objectContaining({
        'image_api.attempt': 1,
        'http.response.status_code': 429,
        'image_api.outcome': 'error_response',
      }),
      expect.objectContaining({
        'image_api.attempt': 2,
        'http.response.status_code': 429,
        'image_api.outcome': 'error_response',
      }),
      expect.objectContaining({
        'image_api.attempt': 3,
        'http.response.status_code': 200,
        'image_api.outcome': 'success',
      }),
    ]);
    const upstreamCalls = spans.filter(
      (span) => span.kind === CLIENT && span.attributes['url.full'] === api.url,
    );
    expect(
      upstreamCalls
        .map((span) => span.attributes['http.response.status_code'])
        .sort(),
    ).toEqual([200, 429, 429]);
    const backoffs = spans.filter((span) => span.name === 'image_api.backoff');
    expect(
      backoffs.map((span) => span.attributes['image_api.retry']).sort(),
    ).toEqual([1, 2]);

    // Every upstream request carried a traceparent of the caller's trace,
    // naming one of those client spans as its parent.
    expect(api.requests).toHaveLength(3);
    for (const call of api.requests) {
      const [, traceId, parentId] = String(call.headers.traceparent).split('-');
      expect(traceId).toBe(caller.traceId);
      expect(upstreamCalls.map((span) => span.spanId)).toContain(parentId);
    }
  });

  it('exports no secret: neither the image API key nor an Authorization value appears in any span', async () => {
    api.respondNext(Replies.error(500, `Echoing ${KEY}`));
    await request(server!.baseUrl)
      .post('/api/ai/generate-logo')
      .send(LOGO)
      .expect(200);
    await request(server!.baseUrl)
      .get('/api/ai/generate-logo')
      .set('Authorization', 'Bearer caller-secret-value')
      .expect(200);
    await server!.stop();
    server = undefined;
    expect(receiver.spans.some((span) => span.name === 'image_api.call')).toBe(
      true,
    );
    const exported = receiver.bodies.join('\n');
    expect(exported).not.toContain(KEY);
    expect(exported).not.toContain('caller-secret-value');
    expect(exported.toLowerCase()).not.toContain('authorization');
    expect(exported).not.toContain('Acme Rockets');
  });

  it(`makes a GET by id one server span and one ${TEST_DATABASE} statement span, and logs its trace_id`, async () => {
    const created = await request(server!.baseUrl)
      .post('/api/projects')
      .send({ name: 'Traced', userId: 'user-1' })
      .expect(201);
    const caller = callerContext();
    await request(server!.baseUrl)
      .get(`/api/projects/${created.body.project.id}`)
      .set('traceparent', caller.header)
      .expect(200);
    await receiver.waitUntil(() =>
      receiver.trace(caller.traceId).some((span) => span.kind === SERVER),
    );
    const spans = receiver.trace(caller.traceId);
    const servers = spans.filter((span) => span.kind === SERVER);
    expect(servers).toHaveLength(1);
    // The route, not the path, names the server span; the controller method
    // is its child, and the statement runs inside the method.
    expect(servers[0]).toMatchObject({
      name: 'GET /api/projects/:id',
      attributes: expect.objectContaining({
        'http.route': '/api/projects/:id',
      }),
    });
    const handler = spans.find(
      (span) => span.name === 'ProjectsController.get',
    );
    expect(handler).toMatchObject({
      parentSpanId: servers[0].spanId,
      attributes: expect.objectContaining({
        'http.route': '/api/projects/:id',
        'nestjs.controller': 'ProjectsController',
        'nestjs.callback': 'get',
      }),
    });
    const statements = spans.filter(isDatabaseSpan);
    expect(statements).toHaveLength(1);
    const [statement] = statements;
    expect(statement.parentSpanId).toBe(handler!.spanId);
    const text = String(
      statement.attributes['db.query.text'] ??
        statement.attributes['db.statement'],
    );
    expect(text).toMatch(/^\s*SELECT/i);
    // The id is a bound parameter, never part of the recorded text.
    expect(text).not.toContain(created.body.project.id);
    expect(JSON.stringify(statement.attributes)).not.toContain(
      created.body.project.id,
    );

    const line = server!.stdout
      .split('\n')
      .find((l) => l.includes(caller.traceId));
    expect(JSON.parse(line!)).toMatchObject({
      msg: 'request completed',
      trace_id: caller.traceId,
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      requestId: expect.any(String),
    });
  });
});

describe('tracing off (no OTLP endpoint)', () => {
  it('adds no trace fields to log lines, even for a caller with a traceparent', async () => {
    const database = await createTestDatabase();
    const server = await startServer({
      DATABASE_URL: database.url,
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    try {
      await request(server.baseUrl)
        .get('/api/projects?limit=1')
        .set('traceparent', callerContext().header)
        .expect(200);
    } finally {
      await server.stop();
      await database.drop();
    }
    expect(server.stdout).toContain('request completed');
    expect(server.stdout).not.toContain('trace_id');
  });
});
