import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import request from 'supertest';
import { DevImageApi, Replies } from '../../../../dev-servers/image-api';
import { disableOwnSpans, enableOwnSpans } from '../../../../src/tracing/spans';
import { createProject } from '../../../support/project-fixtures';
import { createTestApp, type TestApp } from '../../../support/test-app';
import { TEST_DATABASE } from '../../../support/test-database';

/**
 * The service's own spans, read back from an in-memory exporter in the
 * test process: the logo flow's queue wait, each upstream attempt with its
 * status, the backoffs, and (on SQLite, which has no instrumentation of
 * its own) one span per statement. The instrumentations' spans — the
 * server span, the HTTP client span that carries traceparent upstream,
 * PostgreSQL's statements — patch modules as Node loads them, which Jest's
 * module registry bypasses: tracing.e2e-spec.ts checks those, and that
 * everything joins one trace, on the real process.
 */
describe('tracing, in process (in-memory exporter)', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  let api: DevImageApi;
  let t: TestApp;

  beforeAll(async () => {
    context.setGlobalContextManager(
      new AsyncLocalStorageContextManager().enable(),
    );
    trace.setGlobalTracerProvider(provider);
    enableOwnSpans();
    api = await DevImageApi.start({ defaultReply: Replies.success() });
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-in-process-tracing',
      IMAGE_API_URL: api.url,
      IMAGE_API_MAX_RETRIES: '2',
      IMAGE_API_RETRY_BASE_MS: '10',
      // No task workers: their once-a-second look for queued tasks would
      // add its statements to whichever request it falls beside.
      PROCESS_ROLE: 'api',
    });
  });

  afterAll(async () => {
    await t?.close();
    await api?.close();
    disableOwnSpans();
    await provider.shutdown();
    trace.disable();
    context.disable();
  });

  beforeEach(() => exporter.reset());

  const named = (name: string) =>
    exporter.getFinishedSpans().filter((span) => span.name === name);

  it('a logo request with two upstream 429s: the queue wait, three attempts with their numbers and statuses, two backoffs; no key in any span', async () => {
    api.respondNext(
      Replies.error(429, 'Rate limited'),
      Replies.error(429, 'Rate limited'),
    );
    await request(t.server)
      .post('/api/ai/generate-logo')
      .send({
        projectId: 'p',
        companyName: 'Acme',
        style: 'modern',
        colors: ['red'],
      })
      .expect(200);
    expect(named('logo.rate_limit')).toHaveLength(1);
    expect(named('logo.queue.wait')).toHaveLength(1);
    const attempts = named('image_api.call');
    expect(
      attempts.map((span) => [
        span.attributes['image_api.attempt'],
        span.attributes['http.response.status_code'],
      ]),
    ).toEqual([
      [1, 429],
      [2, 429],
      [3, 200],
    ]);
    const backoffs = named('image_api.backoff');
    expect(backoffs.map((span) => span.attributes['image_api.retry'])).toEqual([
      1, 2,
    ]);
    const exported = JSON.stringify(
      exporter.getFinishedSpans().map((span) => [span.attributes, span.events]),
    );
    expect(exported).not.toContain('sk-in-process-tracing');
  });

  it('a GPT image answer: spans for the decode (bytes, media type, inside the upstream attempt) and the store', async () => {
    const gpt = await createTestApp({
      IMAGE_API_KEY: 'sk-in-process-tracing',
      IMAGE_API_URL: api.url,
      IMAGE_MODEL: 'gpt-image-2',
    });
    try {
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
        'base64',
      );
      api.respondNext(Replies.base64(png));
      await request(gpt.server)
        .post('/api/ai/generate-logo')
        .send({
          projectId: 'p',
          companyName: 'Acme',
          style: 'modern',
          colors: ['red'],
        })
        .expect(200);
      const [decode] = named('logo.image.decode');
      expect(decode.attributes).toMatchObject({
        'logo.image.bytes': png.length,
        'logo.image.media_type': 'image/png',
      });
      const [store] = named('logo.image.store');
      expect(store.attributes['logo.image.bytes']).toBe(png.length);
      // The decode is part of the upstream attempt that read the answer.
      const [attempt] = named('image_api.call');
      expect(decode.spanContext().traceId).toBe(attempt.spanContext().traceId);
    } finally {
      await gpt.close();
    }
  });

  it(
    TEST_DATABASE === 'sqlite'
      ? 'a GET by id is one SQLite statement span, its text without the id'
      : 'a GET by id makes no span of our own on PostgreSQL (the pg instrumentation makes it)',
    async () => {
      const { id } = await createProject(t);
      exporter.reset();
      await request(t.server).get(`/api/projects/${id}`).expect(200);
      const statements = exporter
        .getFinishedSpans()
        .filter((span) => span.attributes['db.system.name'] === 'sqlite');
      if (TEST_DATABASE !== 'sqlite') {
        expect(statements).toHaveLength(0);
        return;
      }
      expect(statements).toHaveLength(1);
      const text = String(statements[0].attributes['db.query.text']);
      expect(text).toMatch(/^SELECT /);
      expect(text).not.toContain(id);
      expect(statements[0].attributes['db.operation.name']).toBe('SELECT');
    },
  );
});
