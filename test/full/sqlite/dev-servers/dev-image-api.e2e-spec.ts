import { XMLValidator } from 'fast-xml-parser';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import request from 'supertest';
import { DevImageApi, Replies } from '../../../../dev-servers/image-api';
import { PNG_SIGNATURE } from '../../../../dev-servers/image-api/png-encoder';
import { CHROMIUM_ARGS, findChromium } from '../../../support/chromium';
import { startDevImageApiProcess } from '../../../support/dev-image-api-process';
import { startServer } from '../../../support/server-process';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * The dev image API (`npm run image-api:dev`, dev-servers/image-api): an
 * OpenAI-compatible image endpoint on 127.0.0.1 that draws a real SVG logo,
 * serves it and can be made slow or failing. The last tests run the built
 * program and the README's two lines as real processes.
 */

const PATH = '/api/ai/generate-logo';
const GENERATIONS = '/v1/images/generations';

const logoRequest = {
  projectId: 'any',
  companyName: 'Acme Rockets',
  style: 'geometric',
  colors: ['#0044ff', 'gold', 'crimson'],
};

/** An OpenAI-style call, as the service makes it (the key is optional). */
const generation = (prompt: string) => ({
  model: 'dall-e-3',
  prompt,
  n: 1,
  size: '1024x1024',
  quality: 'standard',
  response_format: 'url',
});

function expectLogoSvg(svg: string): void {
  expect(XMLValidator.validate(svg)).toBe(true);
  expect(svg).toMatch(/<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  expect(svg).toMatch(/>AR<\/text>/);
  for (const color of logoRequest.colors) expect(svg).toContain(`"${color}"`);
}

describe('dev image API', () => {
  let api: DevImageApi;
  let t: TestApp;

  beforeAll(async () => {
    api = await DevImageApi.start();
    t = await createTestApp({ IMAGE_API_KEY: 'dev', IMAGE_API_URL: api.url });
  });
  beforeEach(() => api.reset());
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  it('draws the logo of a service request: the URL it returns serves valid SVG XML with the initials and the colors', async () => {
    const response = await request(t.server)
      .post(PATH)
      .send(logoRequest)
      .expect(200);
    const logoUrl = response.body.logoUrl as string;
    expect(logoUrl.startsWith(`${api.baseUrl}/images/`)).toBe(true);

    const image = await fetch(logoUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expectLogoSvg(await image.text());
  });

  it('draws a different shape for each style', async () => {
    const shapes = new Set<string>();
    for (const style of ['modern', 'minimalist', 'vintage', 'playful']) {
      const response = await request(t.server)
        .post(PATH)
        .send({ ...logoRequest, style })
        .expect(200);
      const svg = await (await fetch(response.body.logoUrl as string)).text();
      shapes.add(/<g data-style="[a-z]+">(.*?)<\/g>/.exec(svg)?.[1] ?? '');
    }
    expect(shapes.size).toBe(4);
  });

  it('answers OpenAI-style {created, data:[{url}]} without a key', async () => {
    const response = await request(api.baseUrl)
      .post(GENERATIONS)
      .send(generation('Create a modern logo for a company named "Zed".'))
      .expect(200);
    expect(response.body).toEqual({
      created: expect.any(Number),
      data: [{ url: expect.any(String), revised_prompt: expect.any(String) }],
    });
  });

  it("with a GPT image model name, refuses response_format with OpenAI's 400 error shape", async () => {
    const response = await fetch(api.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...generation('a logo'), model: 'gpt-image-2' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: "Unknown parameter: 'response_format'.",
        type: 'invalid_request_error',
        param: 'response_format',
        code: 'unknown_parameter',
      },
    });
  });

  it('with a GPT image model name, answers b64_json of a real 1024x1024 PNG of the drawn logo, with usage', async () => {
    const call: Record<string, unknown> = generation('a logo');
    delete call.response_format;
    const response = await fetch(api.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...call, model: 'chatgpt-image-latest' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      data: Array<{ b64_json: string; url?: string }>;
      usage: { input_tokens: number; output_tokens: number };
    };
    expect(body.data[0].url).toBeUndefined();
    const png = Buffer.from(body.data[0].b64_json, 'base64');
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
    expect(body.usage).toEqual(
      expect.objectContaining({
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
      }),
    );
  });

  it('answers 400 in the OpenAI error shape for a call without a prompt', async () => {
    const response = await request(api.baseUrl)
      .post(GENERATIONS)
      .send({ model: 'dall-e-3' })
      .expect(400);
    expect(response.body.error.message).toMatch(/prompt/);
  });

  it('answers 404 for an image it does not have', async () => {
    await request(api.baseUrl).get('/images/nope.svg').expect(404);
  });

  it('records every call: method, path, headers and parsed body', async () => {
    await request(api.baseUrl)
      .post(GENERATIONS)
      .set('Authorization', 'Bearer sk-x')
      .send(generation('p'))
      .expect(200);
    expect(api.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: GENERATIONS,
        headers: expect.objectContaining({ authorization: 'Bearer sk-x' }),
        body: generation('p'),
        closedEarly: false,
      }),
    ]);
  });

  it('can be made slow: a reply with latency is sent only after it', async () => {
    api.respondNext(Replies.slow(Replies.image(), 400));
    const started = Date.now();
    await request(api.baseUrl)
      .post(GENERATIONS)
      .send(generation('p'))
      .expect(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('can be made to fail with a status and an error message, and the service shows that message', async () => {
    api.respondNext(Replies.error(503, 'Down for maintenance'));
    const response = await request(t.server)
      .post(PATH)
      .send(logoRequest)
      .expect(500);
    expect(response.body).toEqual({
      success: false,
      error: 'Down for maintenance',
      code: expect.any(String),
    });
  });

  it('can answer without an image URL, with a non-JSON body, or by resetting the connection', async () => {
    api.respondNext(
      Replies.withoutImage(),
      Replies.notJson(502),
      Replies.resetConnection(),
    );
    const errors: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await request(t.server)
        .post(PATH)
        .send(logoRequest)
        .expect(500);
      errors.push(response.body.error as string);
    }
    expect(errors).toEqual([
      expect.stringMatching(/^Invalid response/),
      'Failed to generate logo',
      'The image service could not be reached',
    ]);
  });

  describe('admin endpoints (for a developer at a terminal)', () => {
    it('PUT /_dev/reply sets the reply of every following call; POST /_dev/reset restores the drawing', async () => {
      await request(api.baseUrl)
        .put('/_dev/reply')
        .send({ reply: 'error', status: 429, message: 'Quota exceeded' })
        .expect(200);
      for (let i = 0; i < 2; i++) {
        const response = await request(api.baseUrl)
          .post(GENERATIONS)
          .send(generation('p'))
          .expect(429);
        expect(response.body.error.message).toBe('Quota exceeded');
      }
      await request(api.baseUrl).post('/_dev/reset').expect(200);
      await request(api.baseUrl)
        .post(GENERATIONS)
        .send(generation('p'))
        .expect(200);
    });

    it('POST /_dev/next queues one-off replies, then the default answers again', async () => {
      await request(api.baseUrl)
        .post('/_dev/next')
        .send([
          { reply: 'error', status: 500, retryAfterSeconds: 2 },
          { reply: 'not-json' },
        ])
        .expect(200);
      const first = await request(api.baseUrl)
        .post(GENERATIONS)
        .send(generation('p'))
        .expect(500);
      expect(first.headers['retry-after']).toBe('2');
      await request(api.baseUrl)
        .post(GENERATIONS)
        .send(generation('p'))
        .expect(502);
      await request(api.baseUrl)
        .post(GENERATIONS)
        .send(generation('p'))
        .expect(200);
    });

    it('refuses a reply it does not know with 400', async () => {
      const response = await request(api.baseUrl)
        .put('/_dev/reply')
        .send({ reply: 'explode' })
        .expect(400);
      expect(response.body.error.message).toMatch(/reply/);
    });

    it('GET /_dev/requests lists the recorded calls without the bearer key', async () => {
      await request(api.baseUrl)
        .post(GENERATIONS)
        .set('Authorization', 'Bearer sk-secret')
        .send(generation('p'))
        .expect(200);
      const response = await request(api.baseUrl)
        .get('/_dev/requests')
        .expect(200);
      expect(response.body.requests).toHaveLength(1);
      expect(response.body.requests[0].headers.authorization).toBe(
        '[redacted]',
      );
      expect(JSON.stringify(response.body)).not.toContain('sk-secret');
    });
  });
});

describe('npm run image-api:dev (the built program)', () => {
  it('starts on IMAGE_DEV_PORT of 127.0.0.1 and draws logos', async () => {
    const dev = await startDevImageApiProcess();
    try {
      expect(dev.url).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/v1\/images\/generations$/,
      );
      const response = await request(dev.url.replace(GENERATIONS, ''))
        .post(GENERATIONS)
        .send(
          generation(
            'Create a geometric logo for a company named "Acme Rockets". Use these colors: #0044ff, gold, crimson. The logo should be clean, scalable and memorable, on a transparent or white background, centered.',
          ),
        )
        .expect(200);
      expectLogoSvg(
        await (await fetch(response.body.data[0].url as string)).text(),
      );
    } finally {
      await dev.stop();
    }
  });

  it('follows IMAGE_DEV_REPLY, IMAGE_DEV_STATUS, IMAGE_DEV_ERROR_MESSAGE, IMAGE_DEV_RETRY_AFTER_S and IMAGE_DEV_LATENCY_MS', async () => {
    const dev = await startDevImageApiProcess({
      IMAGE_DEV_REPLY: 'error',
      IMAGE_DEV_STATUS: '503',
      IMAGE_DEV_ERROR_MESSAGE: 'Down for maintenance',
      IMAGE_DEV_RETRY_AFTER_S: '4',
      IMAGE_DEV_LATENCY_MS: '300',
    });
    try {
      const started = Date.now();
      const response = await request(dev.url.replace(GENERATIONS, ''))
        .post(GENERATIONS)
        .send(generation('p'))
        .expect(503);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(response.body.error.message).toBe('Down for maintenance');
      expect(response.headers['retry-after']).toBe('4');
    } finally {
      await dev.stop();
    }
  });

  it("runs the README's two lines end to end: the service, started with IMAGE_API_KEY=dev and the dev API's URL, returns a logo URL that serves the SVG", async () => {
    const dev = await startDevImageApiProcess();
    // An empty working directory: no developer .env is read.
    const cwd = mkdtempSync(join(tmpdir(), 'workspace-dev-flow-'));
    const service = await startServer(
      {
        IMAGE_API_KEY: 'dev',
        IMAGE_API_URL: dev.url,
        DATABASE_URL: 'file::memory:',
      },
      { cwd },
    );
    try {
      const info = await request(service.baseUrl).get(PATH).expect(200);
      expect(info.body.status).toBe('configured');
      const response = await request(service.baseUrl)
        .post(PATH)
        .send(logoRequest)
        .expect(200);
      expect(response.body.success).toBe(true);
      expectLogoSvg(
        await (await fetch(response.body.logoUrl as string)).text(),
      );
    } finally {
      await service.stop();
      await dev.stop();
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it("runs the README's GPT image flow: the logoUrl is the service's own, and a browser page on another origin shows the 1024x1024 PNG", async () => {
    const dev = await startDevImageApiProcess();
    const cwd = mkdtempSync(join(tmpdir(), 'workspace-dev-flow-gpt-'));
    const service = await startServer(
      {
        IMAGE_API_KEY: 'dev',
        IMAGE_API_URL: dev.url,
        IMAGE_MODEL: 'gpt-image-2.5-sunburst',
        DATABASE_URL: 'file::memory:',
      },
      { cwd },
    );
    // A frontend's page, served from an origin of its own.
    const page = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>frontend</title>');
    }).listen(0, '127.0.0.1');
    const browserChoice = await findChromium();
    const browser = await chromium.launch({
      executablePath: browserChoice.executablePath,
      args: CHROMIUM_ARGS,
    });
    try {
      const response = await request(service.baseUrl)
        .post(PATH)
        .send(logoRequest)
        .expect(200);
      const logoUrl = response.body.logoUrl as string;
      expect(logoUrl.startsWith(`${service.baseUrl}/api/ai/logos/`)).toBe(true);
      const tab = await browser.newPage();
      await tab.goto(
        `http://127.0.0.1:${(page.address() as AddressInfo).port}/`,
      );
      // Runs in the page (a string: this project compiles without DOM types).
      const size = await tab.evaluate(`(async () => {
        const img = document.createElement('img');
        img.src = ${JSON.stringify(logoUrl)};
        document.body.append(img);
        await img.decode();
        return [img.naturalWidth, img.naturalHeight];
      })()`);
      expect(size).toEqual([1024, 1024]);
    } finally {
      await browser.close().catch(() => undefined);
      page.close();
      await service.stop();
      await dev.stop();
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});
