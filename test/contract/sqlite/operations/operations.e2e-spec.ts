import request from 'supertest';
import { ShutdownState } from '../../../../src/health/shutdown-state';
import { FakeImageApi, Replies } from '../../../support/fake-image-api';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * What operators and browsers see besides the API: request ids, security
 * headers, CORS, health probes and metrics — on an app built from
 * AppModule alone.
 */

const LOGO = '/api/ai/generate-logo';
const VALID_LOGO = {
  projectId: 'p',
  companyName: 'Acme',
  style: 'modern',
  colors: ['navy'],
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The value of one sample line of the Prometheus text, or undefined. */
function sample(
  text: string,
  name: string,
  labels: string,
): number | undefined {
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith(`${name}{`) &&
        labels.split(',').every((label) => l.includes(label)),
    );
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('Operations (app built from AppModule)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('request ids', () => {
    it('echoes the X-Request-Id the caller sent', async () => {
      const res = await request(t.server)
        .get('/api/projects')
        .set('X-Request-Id', 'frontend-1234');
      expect(res.headers['x-request-id']).toBe('frontend-1234');
    });

    it('generates a UUID request id when the caller sent none, also for unknown routes', async () => {
      const res = await request(t.server).get('/api/nowhere').expect(404);
      expect(res.headers['x-request-id']).toMatch(UUID);
      expect(res.body).toEqual({ error: 'Not found', code: 'not_found' });
    });
  });

  describe('hardening', () => {
    it.each(['/api/projects', '/health/live', '/api/nowhere'])(
      'sends helmet headers and no X-Powered-By on %s',
      async (path) => {
        const res = await request(t.server).get(path);
        expect(res.headers['x-powered-by']).toBeUndefined();
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
        expect(res.headers['content-security-policy']).toContain(
          "default-src 'self'",
        );
      },
    );

    it('answers no CORS headers when CORS_ORIGINS is unset', async () => {
      const res = await request(t.server)
        .get('/api/projects')
        .set('Origin', 'https://app.example.com')
        .expect(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('health probes (outside /api)', () => {
    it('GET /health/live answers 200 {status:"ok"} as JSON', async () => {
      const res = await request(t.server).get('/health/live').expect(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toMatchObject({ status: 'ok' });
    });

    it('GET /health/ready answers 200 with the database up', async () => {
      const res = await request(t.server).get('/health/ready').expect(200);
      expect(res.body).toMatchObject({
        status: 'ok',
        info: { database: { status: 'up' }, shutdown: { status: 'up' } },
      });
    });
  });

  describe('metrics', () => {
    it('GET /metrics answers the Prometheus text format with process metrics', async () => {
      const res = await request(t.server).get('/metrics').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toContain(
        '# TYPE process_cpu_user_seconds_total counter',
      );
      expect(res.text).toContain('nodejs_eventloop_lag_seconds');
    });

    it('exposes the event-loop delay gauges docs/operations.md pages on (p99 and max)', async () => {
      const { text } = await request(t.server).get('/metrics');
      for (const gauge of [
        'nodejs_eventloop_lag_p99_seconds',
        'nodejs_eventloop_lag_max_seconds',
        'nodejs_eventloop_lag_mean_seconds',
      ]) {
        expect(text).toContain(`# TYPE ${gauge} gauge`);
        // A number of seconds (prom-client writes "Nan" when two scrapes
        // come within the sampler's 10 ms resolution: no sample between).
        expect(text).toMatch(new RegExp(`^${gauge} (\\d|Nan)`, 'm'));
      }
    });

    it('times requests by method, route template and status', async () => {
      await request(t.server).get('/api/projects/some-id').expect(404);
      await request(t.server).get('/api/projects/other-id').expect(404);
      const { text } = await request(t.server).get('/metrics');
      expect(
        sample(
          text,
          'http_request_duration_seconds_count',
          'method="GET",route="/api/projects/:id",status_code="404"',
        ),
      ).toBeGreaterThanOrEqual(2);
      // Concrete ids never become label values.
      expect(text).not.toContain('some-id');
    });

    it('counts requests no route matched under one "unmatched" route', async () => {
      await request(t.server).get('/api/no/such/route').expect(404);
      const { text } = await request(t.server).get('/metrics');
      expect(text).toContain('route="unmatched",status_code="404"');
      expect(text).not.toContain('/api/no/such/route');
    });

    it('shows the logo line at rest: nothing in flight, nothing queued', async () => {
      const { text } = await request(t.server).get('/metrics');
      expect(text).toMatch(/^logo_requests_in_flight 0$/m);
      expect(text).toMatch(/^logo_requests_queued 0$/m);
    });
  });

  describe('readiness while shutting down', () => {
    it('answers 503 on /health/ready once shutdown has begun, while /health/live stays 200', async () => {
      const local = await createTestApp();
      try {
        local.app.get(ShutdownState).beforeApplicationShutdown('SIGTERM');
        const res = await request(local.server)
          .get('/health/ready')
          .expect(503);
        expect(res.body).toMatchObject({
          status: 'error',
          error: { shutdown: { status: 'down' } },
        });
        expect(res.headers.connection).toBe('close');
        await request(local.server).get('/health/live').expect(200);
      } finally {
        await local.close();
      }
    });

    it('answers 503 on /health/ready when the database does not answer', async () => {
      const local = await createTestApp();
      try {
        await local.dataSource.destroy();
        const res = await request(local.server)
          .get('/health/ready')
          .expect(503);
        expect(res.body).toMatchObject({
          status: 'error',
          error: { database: { status: 'down' } },
        });
        expect(JSON.stringify(res.body)).not.toMatch(/sqlite|\/tmp|\.db/i);
      } finally {
        await local.close().catch(() => undefined);
      }
    });
  });
});

describe('CORS_ORIGINS', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      CORS_ORIGINS: 'https://app.example.com,http://localhost:5173',
    });
  });
  afterAll(() => t.close());

  it('allows a listed origin and exposes Retry-After, X-Request-Id, ETag and Idempotent-Replayed', async () => {
    const res = await request(t.server)
      .get('/api/projects')
      .set('Origin', 'http://localhost:5173')
      .expect(200);
    expect(res.headers['access-control-allow-origin']).toBe(
      'http://localhost:5173',
    );
    expect(
      String(res.headers['access-control-expose-headers']).split(','),
    ).toEqual(
      expect.arrayContaining([
        'Retry-After',
        'X-Request-Id',
        'ETag',
        'Idempotent-Replayed',
      ]),
    );
  });

  it('allows Idempotency-Key, If-Match and If-None-Match in a preflight', async () => {
    const res = await request(t.server)
      .options('/api/projects/x')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'PATCH')
      .set(
        'Access-Control-Request-Headers',
        'content-type,idempotency-key,if-match,if-none-match',
      )
      .expect(204);
    expect(
      String(res.headers['access-control-allow-headers']).split(','),
    ).toEqual(
      expect.arrayContaining(['Idempotency-Key', 'If-Match', 'If-None-Match']),
    );
  });

  it('allows Authorization and Last-Event-ID in the preflight of a fetch-based live-change client resuming a stream', async () => {
    const res = await request(t.server)
      .options('/api/projects/x')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization,last-event-id')
      .expect(204);
    expect(
      String(res.headers['access-control-allow-headers']).split(','),
    ).toEqual(expect.arrayContaining(['Authorization', 'Last-Event-ID']));
  });

  it('answers a preflight for a listed origin with 204', async () => {
    const res = await request(t.server)
      .options('/api/projects')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe(
      'https://app.example.com',
    );
    expect(res.headers['access-control-allow-methods']).toContain('PATCH');
    expect(res.headers['access-control-allow-methods']).toContain('PUT');
  });

  it('does not allow an origin that is not listed', async () => {
    const res = await request(t.server)
      .get('/api/projects')
      .set('Origin', 'https://evil.example.com')
      .expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  describe('refuses bodies a browser sends without a CORS preflight with 415, in the route envelope, and stores nothing', () => {
    const cases: Array<[string, string | undefined]> = [
      ['text/plain', 'text/plain;charset=UTF-8'],
      [
        'application/x-www-form-urlencoded',
        'application/x-www-form-urlencoded',
      ],
      ['multipart/form-data', 'multipart/form-data; boundary=x'],
      ['no Content-Type at all', undefined],
    ];
    const send = (
      test: request.Test,
      contentType: string | undefined,
      body: unknown,
    ) => {
      const text = JSON.stringify(body);
      return contentType === undefined
        ? test.send(Buffer.from(text))
        : test.set('Content-Type', contentType).send(text);
    };
    const projectNames = async () =>
      (
        await t.dataSource.query<Array<{ name: string }>>(
          'SELECT name FROM projects',
        )
      ).map((row) => row.name);

    it.each(cases)('POST /api/projects with %s', async (_label, type) => {
      const response = await send(
        request(t.server).post('/api/projects'),
        type,
        { name: 'From a web page', userId: 'u' },
      ).expect(415);
      expect(response.body).toEqual({
        error: 'Unsupported media type',
        code: 'unsupported_media_type',
      });
      expect(await projectNames()).not.toContain('From a web page');
    });

    it.each(cases)('PATCH /api/projects/{id} with %s', async (_label, type) => {
      const created = await request(t.server)
        .post('/api/projects')
        .send({ name: 'Mine', userId: 'u' })
        .expect(201);
      const id = (created.body as { project: { id: string } }).project.id;
      const response = await send(
        request(t.server).patch(`/api/projects/${id}`),
        type,
        { name: 'Renamed by a web page' },
      ).expect(415);
      expect(response.body).toEqual({
        error: 'Unsupported media type',
        code: 'unsupported_media_type',
      });
      expect(await projectNames()).not.toContain('Renamed by a web page');
    });

    it.each(cases)(
      'POST /api/ai/generate-logo with %s',
      async (_label, type) => {
        const response = await send(
          request(t.server).post('/api/ai/generate-logo'),
          type,
          {
            projectId: 'p',
            companyName: 'A',
            style: 'modern',
            colors: ['red'],
          },
        ).expect(415);
        expect(response.body).toEqual({
          success: false,
          error: 'Unsupported media type',
          code: 'unsupported_media_type',
        });
      },
    );

    it('still reads application/json (and +json types)', async () => {
      await request(t.server)
        .post('/api/projects')
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ name: 'P', userId: 'u' }))
        .expect(201);
      await request(t.server)
        .post('/api/projects')
        .set('Content-Type', 'application/merge-patch+json')
        .send(JSON.stringify({ name: 'P', userId: 'u' }))
        .expect(201);
    });
  });

  it('without CORS_ORIGINS reads a text/plain body as JSON, as before', async () => {
    const plain = await createTestApp();
    try {
      await request(plain.server)
        .post('/api/projects')
        .set('Content-Type', 'text/plain')
        .send(JSON.stringify({ name: 'P', userId: 'u' }))
        .expect(201);
    } finally {
      await plain.close();
    }
  });

  it('allows any origin with CORS_ORIGINS=*', async () => {
    const any = await createTestApp({ CORS_ORIGINS: '*' });
    try {
      const res = await request(any.server)
        .get('/api/projects')
        .set('Origin', 'https://anywhere.example.com');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    } finally {
      await any.close();
    }
  });
});

describe('Upstream metrics and the rate limit', () => {
  let t: TestApp;
  let upstream: FakeImageApi;

  beforeAll(async () => {
    upstream = await FakeImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-metrics-key',
      IMAGE_API_URL: upstream.url,
      LOGO_RATE_LIMIT: '1',
    });
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it('counts upstream calls by outcome, with their duration', async () => {
    await request(t.server).post(LOGO).send(VALID_LOGO).expect(200);
    const { text } = await request(t.server).get('/metrics');
    expect(sample(text, 'image_api_calls_total', 'outcome="success"')).toBe(1);
    expect(
      sample(
        text,
        'image_api_call_duration_seconds_count',
        'outcome="success"',
      ),
    ).toBe(1);
  });

  it('never rate-limits health, metrics or docs, and they do not use up the logo budget', async () => {
    for (let i = 0; i < 5; i++) {
      await request(t.server).get('/health/ready').expect(200);
      await request(t.server).get('/metrics').expect(200);
      await request(t.server).get('/docs-json').expect(200);
    }
    // The one logo request of the window was spent above: the next is 429,
    // as before this issue.
    const res = await request(t.server).post(LOGO).send(VALID_LOGO).expect(429);
    expect(res.body).toEqual({
      success: false,
      error: 'Too many logo requests, retry later',
      code: 'rate_limited',
    });
  });

  it('shows logo requests in flight and queued while they wait for a slow upstream', async () => {
    const busy = await createTestApp({
      IMAGE_API_KEY: 'sk-metrics-key',
      IMAGE_API_URL: upstream.url,
      IMAGE_API_CONCURRENCY: '1',
    });
    try {
      upstream.respondNext(
        Replies.slow(Replies.success(), 1500),
        Replies.slow(Replies.success(), 1500),
      );
      const answers = Promise.all([
        request(busy.server).post(LOGO).send(VALID_LOGO),
        request(busy.server).post(LOGO).send(VALID_LOGO),
      ]);
      let text = '';
      for (let i = 0; i < 50 && !/^logo_requests_queued 1$/m.test(text); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        text = (await request(busy.server).get('/metrics')).text;
      }
      expect(text).toMatch(/^logo_requests_in_flight 1$/m);
      expect(text).toMatch(/^logo_requests_queued 1$/m);
      expect((await answers).map((res) => res.status)).toEqual([200, 200]);
    } finally {
      await busy.close();
    }
  });

  it('counts an upstream error answer as error_response', async () => {
    const other = await createTestApp({
      IMAGE_API_KEY: 'sk-metrics-key',
      IMAGE_API_URL: upstream.url,
    });
    try {
      upstream.respondNext(Replies.error(400, 'Your prompt was rejected'));
      await request(other.server).post(LOGO).send(VALID_LOGO).expect(500);
      const { text } = await request(other.server).get('/metrics');
      expect(
        sample(text, 'image_api_calls_total', 'outcome="error_response"'),
      ).toBe(1);
      expect(
        sample(text, 'image_api_calls_total', 'outcome="success"'),
      ).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
