import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { PNG_SIGNATURE } from '../../../../dev-servers/image-api/png-encoder';
import { ImageBlobStore } from '../../../../src/image-store/image-blob-store';
import { HostedLogos } from '../../../../src/logo/hosted-logos';
import { CapturingLogger } from '../../../support/capturing-logger';
import { DevImageApi, Replies } from '../../../support/fake-image-api';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * GPT image models answer the image itself (base64); the service keeps it
 * for LOGO_URL_TTL_S and answers a URL of its own. Runs on SQLite and
 * PostgreSQL.
 */
const PATH = '/api/ai/generate-logo';
const LOGO_URL =
  /^http:\/\/127\.0\.0\.1:\d+\/api\/ai\/logos\/[0-9a-f]{32}\.png$/;
const body = {
  projectId: 'p1',
  companyName: 'Acme Rockets',
  style: 'geometric',
  colors: ['navy', 'gold'],
};

/** A small real PNG (1x1, opaque red). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

const countImages = async (t: TestApp) => {
  const [row] = await t.dataSource.query<Array<{ n: number | string }>>(
    'SELECT COUNT(*) AS "n" FROM "stored_images"',
  );
  return Number(row.n);
};

/** The path of an absolute logoUrl, to ask the app under test for it. */
const pathOf = (logoUrl: string) => new URL(logoUrl).pathname;

const getBytes = (t: TestApp, path: string) =>
  request(t.server)
    .get(path)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

describe('Logos answered as base64 are hosted by the service', () => {
  let api: DevImageApi;
  let t: TestApp;
  let logger: CapturingLogger;

  beforeAll(async () => {
    api = await DevImageApi.start();
    logger = new CapturingLogger();
    t = await createTestApp(
      {
        IMAGE_API_KEY: 'sk-gpt',
        IMAGE_API_URL: api.url,
        IMAGE_MODEL: 'gpt-image-2',
      },
      { logger },
    );
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });
  beforeEach(async () => {
    api.reset();
    await t.reset();
  });

  it('a GPT image model gets the GPT-image request, without response_format; gpt-image-2, which refuses transparency, an opaque background', async () => {
    await request(t.server).post(PATH).send(body).expect(200);
    expect(api.requests).toHaveLength(1);
    const sent = api.requests[0].body as Record<string, unknown>;
    expect(sent).not.toHaveProperty('response_format');
    expect(sent).toEqual({
      model: 'gpt-image-2',
      prompt: expect.any(String),
      n: 1,
      size: '1024x1024',
      quality: 'auto',
      background: 'opaque',
      output_format: 'png',
    });
  });

  it('answers {success, logoUrl, message, expiresAt} with an absolute URL of this service that serves the exact bytes the upstream sent', async () => {
    const before = Date.now();
    const response = await request(t.server).post(PATH).send(body).expect(200);
    expect(response.body).toEqual({
      success: true,
      logoUrl: expect.stringMatching(LOGO_URL),
      message: 'Logo generated successfully!',
      expiresAt: expect.stringMatching(
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
      ),
    });
    // The stored image's own expiry: LOGO_URL_TTL_S (an hour) from now.
    const { expiresAt } = response.body as { expiresAt: string };
    const stored = await t.dataSource.query<Array<{ expiresAt: unknown }>>(
      'SELECT "expiresAt" FROM "stored_images"',
    );
    expect(stored.map((row) => Number(row.expiresAt))).toContain(
      Date.parse(expiresAt),
    );
    expect(Date.parse(expiresAt) - before).toBeGreaterThanOrEqual(3_600_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(3_600_000);
    const { logoUrl } = response.body as { logoUrl: string };
    const served = await getBytes(t, pathOf(logoUrl)).expect(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const bytes = served.body as Buffer;
    // The dev image API drew a real 1024x1024 PNG.
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(bytes.readUInt32BE(16)).toBe(1024);
    expect(bytes.readUInt32BE(20)).toBe(1024);
    expect(Number(served.headers['content-length'])).toBe(bytes.length);

    api.respondNext(Replies.base64(TINY_PNG));
    const exact = await request(t.server).post(PATH).send(body).expect(200);
    const again = await getBytes(t, pathOf(exact.body.logoUrl)).expect(200);
    expect((again.body as Buffer).equals(TINY_PNG)).toBe(true);
  });

  it('the hosted image carries an ETag and a Cache-Control no longer than its time left, and answers 304 to its ETag', async () => {
    api.respondNext(Replies.base64(TINY_PNG));
    const { body: answer } = await request(t.server).post(PATH).send(body);
    const served = await getBytes(t, pathOf(answer.logoUrl)).expect(200);
    const maxAge = /^private, max-age=(\d+)$/.exec(
      served.headers['cache-control'],
    );
    expect(maxAge).not.toBeNull();
    expect(Number(maxAge![1])).toBeGreaterThan(3500);
    expect(Number(maxAge![1])).toBeLessThanOrEqual(3600);
    const etag = served.headers.etag;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const cached = await request(t.server)
      .get(pathOf(answer.logoUrl))
      .set('If-None-Match', etag)
      .expect(304);
    expect(cached.text ?? '').toBe('');
  });

  it('answers 304 to a list of entity-tags or a weak one that names the image, as for projects', async () => {
    api.respondNext(Replies.base64(TINY_PNG));
    const { body: answer } = await request(t.server).post(PATH).send(body);
    const served = await getBytes(t, pathOf(answer.logoUrl)).expect(200);
    const etag = served.headers.etag;
    for (const condition of [`"other", ${etag}`, `W/${etag}`, '*']) {
      await request(t.server)
        .get(pathOf(answer.logoUrl))
        .set('If-None-Match', condition)
        .expect(304);
    }
    await request(t.server)
      .get(pathOf(answer.logoUrl))
      .set('If-None-Match', '"other"')
      .expect(200);
  });

  it('answers HEAD with the image headers and no body', async () => {
    api.respondNext(Replies.base64(TINY_PNG));
    const { body: answer } = await request(t.server).post(PATH).send(body);
    const head = await request(t.server)
      .head(pathOf(answer.logoUrl))
      .expect(200);
    expect(head.headers['content-type']).toBe('image/png');
    expect(Number(head.headers['content-length'])).toBe(TINY_PNG.length);
    expect(head.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it('an unknown, malformed or mis-typed logo name is a 404 in the logo envelope', async () => {
    api.respondNext(Replies.base64(TINY_PNG));
    const { body: answer } = await request(t.server).post(PATH).send(body);
    const known = pathOf(answer.logoUrl);
    for (const path of [
      `/api/ai/logos/${'0'.repeat(32)}.png`,
      '/api/ai/logos/not-an-id.png',
      known.replace(/\.png$/, '.webp'),
      `${known}.png`,
    ]) {
      const response = await request(t.server).get(path).expect(404);
      expect(response.body).toEqual({
        success: false,
        error: 'Logo not found',
        code: 'not_found',
      });
    }
  });

  it('a base64 answer that is not a PNG, JPEG or WebP is a 500 starting "Invalid response", and nothing is stored', async () => {
    api.respondNext(Replies.base64(Buffer.from('<svg onload="alert(1)"/>')));
    const response = await request(t.server).post(PATH).send(body).expect(500);
    expect(response.body.success).toBe(false);
    expect(response.body.error).toMatch(/^Invalid response/);
    expect(await countImages(t)).toBe(0);
  });

  it('an answer without b64_json is a 500 starting "Invalid response"', async () => {
    api.respondNext(Replies.success());
    const response = await request(t.server).post(PATH).send(body).expect(500);
    expect(response.body.error).toMatch(/^Invalid response/);
  });

  it('an Idempotency-Key replay answers the same logoUrl without a second upstream call', async () => {
    const first = await request(t.server)
      .post(PATH)
      .set('Idempotency-Key', 'hosted-logo-1')
      .send(body)
      .expect(200);
    const replay = await request(t.server)
      .post(PATH)
      .set('Idempotency-Key', 'hosted-logo-1')
      .send(body)
      .expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.logoUrl).toBe(first.body.logoUrl);
    expect(api.requests).toHaveLength(1);
    await request(t.server).get(pathOf(replay.body.logoUrl)).expect(200);
  });

  it('a Host header that is not a host is invalid input (400), before any upstream call', async () => {
    const response = await request(t.server)
      .post(PATH)
      .set('Host', 'evil.example/path')
      .send(body)
      .expect(400);
    expect(response.body).toEqual({
      success: false,
      error: 'Invalid input',
      details: [
        {
          path: ['Host'],
          message: 'The Host header must be a host name or address',
          code: 'invalid_string',
        },
      ],
      code: 'invalid_input',
    });
    expect(api.requests).toHaveLength(0);
  });

  it('counts the upstream usage tokens on /metrics by kind', async () => {
    const read = async (kind: string) => {
      const { text } = await request(t.server).get('/metrics').expect(200);
      const line = new RegExp(
        `^image_api_tokens_total\\{kind="${kind}"\\} (\\d+)$`,
        'm',
      ).exec(text);
      return line ? Number(line[1]) : 0;
    };
    const [input, output] = [await read('input'), await read('output')];
    api.respondNext(
      Replies.base64(TINY_PNG, { input_tokens: 61, output_tokens: 4160 }),
    );
    await request(t.server).post(PATH).send(body).expect(200);
    expect(await read('input')).toBe(input + 61);
    expect(await read('output')).toBe(output + 4160);
  });

  it('warns at start-up when IMAGE_MODEL names a retired model, naming what to set instead', async () => {
    expect(logger.lines.join('\n')).not.toMatch(/retired/);
    const warned = new CapturingLogger();
    const retired = await createTestApp(
      { IMAGE_MODEL: 'dall-e-3' },
      { logger: warned },
    );
    try {
      const lines = warned.lines.filter((line) => /retired/.test(line));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/IMAGE_MODEL=dall-e-3/);
      expect(lines[0]).toMatch(/Set IMAGE_MODEL=gpt-image-/);
    } finally {
      await retired.close();
    }
  });
});

describe('Hosted logo lifetime and settings', () => {
  let api: DevImageApi;
  beforeAll(async () => {
    api = await DevImageApi.start({ defaultReply: Replies.base64(TINY_PNG) });
  });
  afterAll(() => api?.close());

  it('after LOGO_URL_TTL_S the URL answers 404 and the purge deletes the bytes', async () => {
    const t = await createTestApp({
      IMAGE_API_KEY: 'sk-gpt',
      IMAGE_API_URL: api.url,
      IMAGE_MODEL: 'gpt-image-2',
      LOGO_URL_TTL_S: '1',
    });
    try {
      const { body: answer } = await request(t.server)
        .post(PATH)
        .send(body)
        .expect(200);
      await request(t.server).get(pathOf(answer.logoUrl)).expect(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const gone = await request(t.server)
        .get(pathOf(answer.logoUrl))
        .expect(404);
      expect(gone.body).toEqual({
        success: false,
        error: 'Logo not found',
        code: 'not_found',
      });
      expect(await countImages(t)).toBe(1);
      expect(await t.app.get(ImageBlobStore).purge()).toBe(1);
      expect(await countImages(t)).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('IMAGE_RESPONSE_FORMAT=b64_json asks other models for base64 and hosts the answer; IMAGE_MAX_BYTES bounds it', async () => {
    const t = await createTestApp({
      IMAGE_API_KEY: 'sk-other',
      IMAGE_API_URL: api.url,
      IMAGE_MODEL: 'flux-schnell',
      IMAGE_RESPONSE_FORMAT: 'b64_json',
      IMAGE_MAX_BYTES: '100',
    });
    try {
      api.reset();
      const { body: answer } = await request(t.server)
        .post(PATH)
        .send(body)
        .expect(200);
      expect(api.requests[0].body).toMatchObject({
        model: 'flux-schnell',
        quality: 'standard',
        response_format: 'b64_json',
      });
      expect(answer.logoUrl).toMatch(LOGO_URL);
      api.respondNext(
        Replies.base64(Buffer.concat([TINY_PNG, Buffer.alloc(100)])),
      );
      const tooLarge = await request(t.server)
        .post(PATH)
        .send(body)
        .expect(500);
      expect(tooLarge.body.error).toMatch(/^Invalid response/);
    } finally {
      await t.close();
    }
  });

  it('PUBLIC_BASE_URL makes the URL; X-Forwarded-Host counts only under TRUST_PROXY', async () => {
    const env = {
      IMAGE_API_KEY: 'sk-gpt',
      IMAGE_API_URL: api.url,
      IMAGE_MODEL: 'gpt-image-2',
    };
    const configured = await createTestApp({
      ...env,
      PUBLIC_BASE_URL: 'https://api.example.com/workspace/',
    });
    const untrusted = await createTestApp(env);
    const trusted = await createTestApp({ ...env, TRUST_PROXY: 'loopback' });
    try {
      const a = await request(configured.server)
        .post(PATH)
        .send(body)
        .expect(200);
      expect(a.body.logoUrl).toMatch(
        /^https:\/\/api\.example\.com\/workspace\/api\/ai\/logos\/[0-9a-f]{32}\.png$/,
      );
      const forwarded = {
        'X-Forwarded-Host': 'evil.example',
        'X-Forwarded-Proto': 'https',
      };
      const b = await request(untrusted.server)
        .post(PATH)
        .set(forwarded)
        .send(body)
        .expect(200);
      expect(b.body.logoUrl).toMatch(LOGO_URL);
      const c = await request(trusted.server)
        .post(PATH)
        .set(forwarded)
        .send(body)
        .expect(200);
      expect(c.body.logoUrl).toMatch(
        /^https:\/\/evil\.example\/api\/ai\/logos\//,
      );
    } finally {
      await Promise.all([
        configured.close(),
        untrusted.close(),
        trusted.close(),
      ]);
    }
  });

  it('a logo larger than one read chunk streams back whole, in order', async () => {
    const t = await createTestApp();
    try {
      const big = Buffer.concat([TINY_PNG, randomBytes(1024 * 1024 + 7)]);
      const { url: logoUrl } = await t.app.get(HostedLogos).host(
        {
          bytes: big,
          type: { mediaType: 'image/png', extension: 'png' },
          prompt: 'A logo',
          model: 'gpt-image-2',
        },
        'http://x',
      );
      const served = await getBytes(t, pathOf(logoUrl)).expect(200);
      expect(Number(served.headers['content-length'])).toBe(big.length);
      expect((served.body as Buffer).equals(big)).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('with AUTH_MODE=oidc the hosted URL loads without an Authorization header', async () => {
    const t = await createTestApp({
      AUTH_MODE: 'oidc',
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
      AUTH_ISSUER: 'http://127.0.0.1:9/issuer',
      AUTH_AUDIENCE: 'workspace-api',
      IMAGE_API_KEY: 'sk-gpt',
      IMAGE_API_URL: api.url,
      IMAGE_MODEL: 'gpt-image-2',
    });
    try {
      await request(t.server).post(PATH).send(body).expect(401);
      const { url: logoUrl } = await t.app.get(HostedLogos).host(
        {
          bytes: TINY_PNG,
          type: { mediaType: 'image/png', extension: 'png' },
          prompt: 'A logo',
          model: 'gpt-image-2',
        },
        'http://x',
      );
      const served = await getBytes(t, pathOf(logoUrl)).expect(200);
      expect((served.body as Buffer).equals(TINY_PNG)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
