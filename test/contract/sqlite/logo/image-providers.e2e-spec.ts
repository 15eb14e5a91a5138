import request from 'supertest';
import { ImageModelLifecycle } from '../../../../src/logo/providers/image-model-lifecycle';
import { SVG_POLICY } from '../../../../src/common/http/send-image';
import {
  keepLogo,
  LOGO_REQUEST as KEEP_REQUEST,
} from '../../../support/asset-client';
import { CapturingLogger } from '../../../support/capturing-logger';
import { createProject } from '../../../support/project-fixtures';
import { DevImageApi } from '../../../support/fake-image-api';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * IMAGE_PROVIDER picks the request and answer shapes; the model capability
 * registry decides what each model is asked for; the provider's model list
 * tells of shutdowns; IMAGE_FALLBACK_MODELS replaces a model that is gone.
 * Against the dev image API playing OpenAI (/openai) and Together AI
 * (/together) strictly.
 */
const PATH = '/api/ai/generate-logo';
const logo = {
  projectId: 'p1',
  companyName: 'Acme Rockets',
  style: 'geometric',
  colors: ['navy', 'gold'],
};

const generations = (api: DevImageApi) =>
  api.requests.filter((call) => call.path.endsWith('/images/generations'));
const bodyOf = (call: { body: unknown }) =>
  call.body as Record<string, unknown>;

describe('Image providers and model capabilities', () => {
  let api: DevImageApi;

  beforeAll(async () => {
    api = await DevImageApi.start();
  });
  afterAll(async () => {
    await api?.close();
  });
  beforeEach(() => api.reset());

  describe('IMAGE_PROVIDER=openai, IMAGE_MODEL=gpt-image-2', () => {
    let t: TestApp;
    let logger: CapturingLogger;

    beforeAll(async () => {
      logger = new CapturingLogger();
      t = await createTestApp(
        {
          IMAGE_API_KEY: 'sk-openai',
          IMAGE_API_URL: `${api.baseUrl}/openai/v1/images/generations`,
          IMAGE_PROVIDER: 'openai',
          IMAGE_MODEL: 'gpt-image-2',
        },
        { logger },
      );
    });
    afterAll(() => t?.close());

    it('the provider refuses a transparent background for gpt-image-2', async () => {
      const res = await request(api.baseUrl)
        .post('/openai/v1/images/generations')
        .send({
          model: 'gpt-image-2',
          prompt: 'a logo',
          background: 'transparent',
        })
        .expect(400);
      expect(res.body).toMatchObject({
        error: { type: 'invalid_request_error', param: 'background' },
      });
    });

    it('a logo succeeds: gpt-image-2 is asked for an opaque background, never a transparent one', async () => {
      const res = await request(t.server).post(PATH).send(logo).expect(200);
      expect(res.body).toMatchObject({ success: true });
      const [call] = generations(api);
      expect(bodyOf(call)).toMatchObject({
        model: 'gpt-image-2',
        n: 1,
        size: '1024x1024',
        background: 'opaque',
        output_format: 'png',
      });
      expect(bodyOf(call)).not.toHaveProperty('response_format');
    });

    it('GET /api/ai/models lists the configured model with its capabilities', async () => {
      const res = await request(t.server).get('/api/ai/models').expect(200);
      expect(res.body).toEqual({
        provider: 'openai',
        defaultModel: 'gpt-image-2',
        models: [
          {
            id: 'gpt-image-2',
            sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
            maxCount: 10,
            formats: ['png', 'webp', 'jpeg'],
            transparentBackground: false,
            edits: true,
            shutdownDate: null,
            status: expect.stringMatching(/^(available|unknown)$/),
          },
        ],
      });
    });
  });

  describe('the default IMAGE_PROVIDER (openai-compatible) with IMAGE_MODEL=gpt-image-2', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({
        IMAGE_API_KEY: 'sk-openai-compatible',
        IMAGE_API_URL: api.url,
        IMAGE_MODEL: 'gpt-image-2',
      });
    });
    afterAll(() => t?.close());

    it('the dev image API refuses transparency for gpt-image-2 on its default path too', async () => {
      await request(api.baseUrl)
        .post('/v1/images/generations')
        .send({
          model: 'gpt-image-2',
          prompt: 'a logo',
          background: 'transparent',
        })
        .expect(400);
    });

    it('a logo and a kept logo succeed: the body asks for an opaque background', async () => {
      await request(t.server).post(PATH).send(logo).expect(200);
      const project = await createProject(t);
      await keepLogo(t, project.id).expect(201);
      const calls = generations(api);
      expect(calls).toHaveLength(2);
      for (const call of calls) {
        expect(bodyOf(call).background).toBe('opaque');
      }
    });
  });

  describe('a configured model with a shutdown date', () => {
    let t: TestApp;
    let logger: CapturingLogger;

    beforeAll(async () => {
      logger = new CapturingLogger();
      t = await createTestApp(
        {
          IMAGE_API_KEY: 'sk-openai',
          IMAGE_API_URL: `${api.baseUrl}/openai/v1/images/generations`,
          IMAGE_PROVIDER: 'openai',
          IMAGE_MODEL: 'gpt-image-1.5',
          IMAGE_FALLBACK_MODELS: 'gpt-image-2.5-sunburst',
        },
        { logger },
      );
    });
    afterAll(() => t?.close());

    it('is warned about once per check, shown on /health/ready without failing it, and in the metrics', async () => {
      await t.app.get(ImageModelLifecycle).check('2026-11-27');
      const listCall = api.requests.find(
        (call) => call.path === '/openai/v1/models',
      );
      expect(listCall?.method).toBe('GET');
      expect(listCall?.headers.authorization).toBe('Bearer sk-openai');
      expect(
        logger.lines.filter((line) =>
          /Image model gpt-image-1\.5 shuts down on 2026-12-01/.test(line),
        ).length,
      ).toBeGreaterThanOrEqual(1);

      const ready = await request(t.server).get('/health/ready').expect(200);
      expect(ready.body).toMatchObject({
        status: 'ok',
        info: {
          imageModel: {
            status: 'up',
            lifecycle: 'shutdown_scheduled',
            model: 'gpt-image-1.5',
            shutdownDate: '2026-12-01',
          },
        },
      });

      const { text } = await request(t.server).get('/metrics').expect(200);
      expect(text).toMatch(
        /^image_model_shutdown_timestamp_seconds\{model="gpt-image-1\.5"\} 1796083200$/m,
      );
      expect(text).toMatch(
        /^image_model_available\{model="gpt-image-2\.5-sunburst"\} 1$/m,
      );

      const models = await request(t.server).get('/api/ai/models').expect(200);
      expect(
        (models.body as { models: Array<{ id: string; status: string }> })
          .models,
      ).toEqual([
        expect.objectContaining({
          id: 'gpt-image-1.5',
          status: 'shutdown_scheduled',
          shutdownDate: '2026-12-01',
        }),
        expect.objectContaining({
          id: 'gpt-image-2.5-sunburst',
          status: 'available',
          shutdownDate: null,
        }),
      ]);
    });
  });

  describe('IMAGE_FALLBACK_MODELS', () => {
    let t: TestApp;
    let logger: CapturingLogger;

    beforeAll(async () => {
      logger = new CapturingLogger();
      t = await createTestApp(
        {
          IMAGE_API_KEY: 'sk-openai',
          IMAGE_API_URL: `${api.baseUrl}/openai/v1/images/generations`,
          IMAGE_PROVIDER: 'openai',
          IMAGE_MODEL: 'gpt-image-1',
          IMAGE_FALLBACK_MODELS: 'gpt-image-2.5-sunburst',
          IMAGE_MODELS_CHECK_INTERVAL_S: '0',
        },
        { logger },
      );
    });
    afterAll(() => t?.close());

    it('a model the provider says does not exist is replaced by the next fallback, asked with its own capabilities', async () => {
      await request(t.server).post(PATH).send(logo).expect(200);
      const calls = generations(api);
      expect(calls.map((call) => bodyOf(call).model)).toEqual([
        'gpt-image-1',
        'gpt-image-2.5-sunburst',
      ]);
      expect(bodyOf(calls[1]).background).toBe('transparent');
      // IMAGE_MODELS_CHECK_INTERVAL_S=0: the model list is never read.
      expect(api.requests.some((call) => call.method === 'GET')).toBe(false);
      // The refusal is the provider's word on the model: one warning.
      expect(
        logger.lines.filter((line) =>
          /Image model gpt-image-1 is not offered by the provider any more/.test(
            line,
          ),
        ),
      ).toHaveLength(1);
    });

    it('a kept logo records the fallback model that drew it', async () => {
      await t.reset();
      const project = await createProject(t);
      const res = await keepLogo(t, project.id).expect(201);
      expect((res.body as { asset: { model: string } }).asset.model).toBe(
        'gpt-image-2.5-sunburst',
      );
    });
  });

  describe('IMAGE_PROVIDER=together', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({
        IMAGE_API_KEY: 'sk-together',
        IMAGE_API_URL: `${api.baseUrl}/together/v1/images/generations`,
        IMAGE_PROVIDER: 'together',
        IMAGE_MODEL: 'black-forest-labs/FLUX.1-schnell',
        IMAGE_RESPONSE_FORMAT: 'b64_json',
      });
    });
    afterAll(() => t?.close());

    it('sends width, height and response_format base64, and hosts the PNG it answers', async () => {
      const res = await request(t.server).post(PATH).send(logo).expect(200);
      const { logoUrl } = res.body as { logoUrl: string };
      expect(logoUrl).toMatch(/\/api\/ai\/logos\/[0-9a-f]{32}\.png$/);
      expect(bodyOf(generations(api)[0])).toEqual({
        model: 'black-forest-labs/FLUX.1-schnell',
        prompt: expect.any(String),
        width: 1024,
        height: 1024,
        n: 1,
        response_format: 'base64',
        output_format: 'png',
      });
      // Never asked for its model list: only OpenAI's carries shutdowns.
      expect(api.requests.some((call) => call.method === 'GET')).toBe(false);
      const image = await request(t.server)
        .get(new URL(logoUrl).pathname)
        .expect(200);
      expect(image.headers['content-type']).toBe('image/png');
    });
  });

  describe('IMAGE_PROVIDER=recraft with a vector model: SVG logos', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({
        IMAGE_API_KEY: 'sk-recraft-test-key',
        IMAGE_API_URL: `${api.baseUrl}/recraft/v1/images/generations`,
        IMAGE_PROVIDER: 'recraft',
        IMAGE_MODEL: 'recraftv4_1_vector',
        IMAGE_RESPONSE_FORMAT: 'b64_json',
      });
    });
    afterAll(() => t?.close());

    it("lists svg among the model's formats", async () => {
      const res = await request(t.server).get('/api/ai/models').expect(200);
      expect(res.body).toMatchObject({
        provider: 'recraft',
        models: [{ id: 'recraftv4_1_vector', formats: ['svg'] }],
      });
    });

    it('hosts the SVG it answers as image/svg+xml, served sandboxed, and keeps it as such', async () => {
      const res = await request(t.server)
        .post(PATH)
        .send({ ...logo, format: 'svg' })
        .expect(200);
      const { logoUrl } = res.body as { logoUrl: string };
      expect(logoUrl).toMatch(/\/api\/ai\/logos\/[0-9a-f]{32}\.svg$/);
      expect(bodyOf(generations(api)[0])).toEqual({
        model: 'recraftv4_1_vector',
        prompt: expect.any(String),
        n: 1,
        size: '1024x1024',
        response_format: 'b64_json',
      });
      const image = await request(t.server)
        .get(new URL(logoUrl).pathname)
        .expect(200);
      expect(image.headers['content-type']).toBe('image/svg+xml');
      expect(image.headers['content-security-policy']).toBe(SVG_POLICY);
      expect(image.headers['x-content-type-options']).toBe('nosniff');

      const project = await createProject(t);
      const kept = await keepLogo(t, project.id, {
        ...KEEP_REQUEST,
        format: 'svg',
      } as typeof KEEP_REQUEST).expect(201);
      expect(
        (kept.body as { asset: { contentType: string } }).asset.contentType,
      ).toBe('image/svg+xml');
    });

    it('a vector-only model draws SVG when no format is asked', async () => {
      const project = await createProject(t);
      const kept = await keepLogo(t, project.id).expect(201);
      expect(
        (kept.body as { asset: { contentType: string } }).asset.contentType,
      ).toBe('image/svg+xml');
    });
  });

  describe('format svg from a model that cannot draw it', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({
        IMAGE_API_KEY: 'sk-no-svg-test-key',
        IMAGE_API_URL: api.url,
        IMAGE_MODEL: 'gpt-image-2.5-sunburst',
      });
    });
    afterAll(() => t?.close());

    it('is 400 on path format before anything is paid, for a logo, a kept logo and a logo task', async () => {
      const res = await request(t.server)
        .post(PATH)
        .send({ ...logo, format: 'svg' })
        .expect(400);
      expect(res.body).toMatchObject({
        details: [expect.objectContaining({ path: ['format'] })],
      });
      const project = await createProject(t);
      await keepLogo(t, project.id, {
        ...KEEP_REQUEST,
        format: 'svg',
      } as typeof KEEP_REQUEST).expect(400);
      expect(generations(api)).toHaveLength(0);
    });
  });
});
