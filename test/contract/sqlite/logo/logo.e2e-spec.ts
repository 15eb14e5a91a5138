import { once } from 'node:events';
import { createServer, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request, { Response } from 'supertest';
import {
  FAKE_IMAGE_URL,
  FakeImageApi,
  Replies,
} from '../../../support/fake-image-api';
import { createTestApp, TestApp } from '../../../support/test-app';

const PATH = '/api/ai/generate-logo';
const KEY = 'sk-test-secret-key-123';
const KEY_MISSING =
  "IMAGE_API_KEY is not configured. Add IMAGE_API_KEY to the server's environment variables.";
const STYLES = [
  'modern',
  'minimalist',
  'vintage',
  'playful',
  'professional',
  'abstract',
  'geometric',
  'organic',
];

/** Only the required fields; projectId names no existing project. */
const valid = {
  projectId: 'no-such-project',
  companyName: 'Acme Rockets',
  style: 'minimalist',
  colors: ['navy'],
};

/** Every field of the request, optional ones included. */
const full = {
  ...valid,
  style: 'geometric',
  colors: ['navy', 'gold', '#ffffff'],
  industry: 'aerospace',
  mood: ['bold', 'friendly'],
  description: 'Reusable rockets for small satellites',
};

/** `valid` minus one required field. */
function without(field: keyof typeof valid): Record<string, unknown> {
  const body: Record<string, unknown> = { ...valid };
  delete body[field];
  return body;
}

/** Sends `body` as a JSON text, so arrays, numbers and null go as they are. */
const postJson = (server: Server, body: unknown) =>
  request(server)
    .post(PATH)
    .set('Content-Type', 'application/json')
    .send(JSON.stringify(body));

/** Sends a raw text body with the given Content-Type. */
const postRaw = (server: Server, text: string, contentType: string) =>
  request(server).post(PATH).set('Content-Type', contentType).send(text);

function expectNoKey(response: Response): void {
  expect(JSON.stringify(response.body)).not.toContain(KEY);
  expect(JSON.stringify(response.headers)).not.toContain(KEY);
  expect(response.text).not.toContain(KEY);
}

function expectJsonResponse(response: Response): void {
  expect(response.headers['content-type']).toMatch(/^application\/json\b/);
}

function jsonParseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} is valid JSON`);
}

/** A port nothing listens on: bound by a server that is then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

describe('/api/ai/generate-logo', () => {
  let fake: FakeImageApi;
  let t: TestApp;
  let keyless: TestApp;

  beforeAll(async () => {
    fake = await FakeImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: KEY,
      IMAGE_API_URL: fake.url,
      IMAGE_MODEL: undefined,
      IMAGE_API_TIMEOUT_MS: undefined,
    });
    keyless = await createTestApp({ IMAGE_API_URL: fake.url });
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await t?.close();
    await keyless?.close();
    await fake?.close();
  });

  const post = (body: unknown) => postJson(t.server, body);

  /** 400 in the logo envelope, with well-formed details, and no upstream call. */
  async function expectInvalid(
    body: unknown,
    server: Server = t.server,
  ): Promise<Array<{ path: (string | number)[]; code: string }>> {
    const response = await postJson(server, body).expect(400);
    expect(response.body).toEqual({
      success: false,
      error: 'Invalid input',
      details: expect.any(Array),
      code: 'invalid_input',
    });
    expect(response.body.details.length).toBeGreaterThan(0);
    for (const issue of response.body.details) {
      expect(issue).toEqual({
        path: expect.any(Array),
        message: expect.any(String),
        code: expect.any(String),
      });
      expect(issue.message).not.toBe('');
    }
    expect(fake.requests).toHaveLength(0);
    return response.body.details;
  }

  describe('POST: success', () => {
    it("returns 200 {success:true, logoUrl:<the image URL>, message:'Logo generated successfully!'}", async () => {
      const response = await post(valid).expect(200);
      expect(response.body).toEqual({
        success: true,
        logoUrl: FAKE_IMAGE_URL,
        message: 'Logo generated successfully!',
        expiresAt: null,
      });
    });

    it('returns as logoUrl whatever URL the image service gave', async () => {
      const url = 'https://cdn.example.test/tmp/abc-123.png?sig=xyz';
      fake.respondWith(Replies.success(url));
      const response = await post(valid).expect(200);
      expect(response.body.logoUrl).toBe(url);
    });

    it('accepts a request whose projectId names no project (no lookup)', async () => {
      const response = await post({
        ...valid,
        projectId: 'definitely-not-a-project-id',
      }).expect(200);
      expect(response.body.success).toBe(true);
    });

    it('accepts every optional field at once', async () => {
      await post(full).expect(200);
    });
  });

  describe('POST: the upstream request', () => {
    const upstreamBody = () => {
      expect(fake.requests).toHaveLength(1);
      return fake.requests[0].body as Record<string, unknown>;
    };
    const upstreamPrompt = () => {
      const prompt = upstreamBody().prompt;
      expect(typeof prompt).toBe('string');
      return prompt as string;
    };

    it('calls the image service exactly once per request', async () => {
      await post(valid).expect(200);
      expect(fake.requests).toHaveLength(1);
      await post(full).expect(200);
      expect(fake.requests).toHaveLength(2);
    });

    it('POSTs to the configured endpoint path /v1/images/generations', async () => {
      await post(valid).expect(200);
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0].method).toBe('POST');
      expect(fake.requests[0].path).toBe('/v1/images/generations');
    });

    it("sends 'Authorization: Bearer <IMAGE_API_KEY>'", async () => {
      await post(valid).expect(200);
      expect(fake.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    });

    it('sends a JSON body', async () => {
      await post(valid).expect(200);
      expect(fake.requests[0].headers['content-type']).toMatch(
        /^application\/json\b/,
      );
      expect(fake.requests[0].body).toEqual(expect.any(Object));
    });

    it("asks for model 'dall-e-3', n 1, size '1024x1024', quality 'standard', response_format 'url'", async () => {
      await post(valid).expect(200);
      expect(upstreamBody()).toEqual({
        model: 'dall-e-3',
        prompt: expect.any(String),
        n: 1,
        size: '1024x1024',
        quality: 'standard',
        response_format: 'url',
      });
    });

    it('puts the company name and the style in the prompt', async () => {
      await post(full).expect(200);
      const prompt = upstreamPrompt();
      expect(prompt).toContain('Acme Rockets');
      expect(prompt).toContain('geometric');
    });

    it("puts the colors joined with ', ' in the prompt", async () => {
      await post(full).expect(200);
      expect(upstreamPrompt()).toContain('navy, gold, #ffffff');
    });

    it('puts the industry in the prompt when given', async () => {
      await post(full).expect(200);
      expect(upstreamPrompt()).toContain('aerospace');
    });

    it("puts the mood words joined with ', ' in the prompt when given", async () => {
      await post(full).expect(200);
      expect(upstreamPrompt()).toContain('bold, friendly');
    });

    it('puts the description in the prompt when given', async () => {
      await post(full).expect(200);
      expect(upstreamPrompt()).toContain(
        'Reusable rockets for small satellites',
      );
    });

    it('asks for a clean, scalable, memorable logo on a transparent or white background, centered', async () => {
      await post(valid).expect(200);
      const prompt = upstreamPrompt();
      for (const words of [
        'clean',
        'scalable',
        'memorable',
        'transparent or white background',
        'centered',
      ]) {
        expect(prompt).toContain(words);
      }
    });

    it("with only the required fields has no 'undefined', no 'null' and no industry, mood or description sentence", async () => {
      await post(valid).expect(200);
      const prompt = upstreamPrompt();
      expect(prompt).not.toMatch(/undefined|null/i);
      expect(prompt).not.toMatch(/industry/i);
      expect(prompt).not.toMatch(/mood/i);
      expect(prompt).not.toMatch(/about the company|description/i);
      expect(prompt).toContain('Acme Rockets');
      expect(prompt).toContain('navy');
    });

    it('leaves blank industry and description and an empty mood list out of the prompt', async () => {
      await post({
        ...valid,
        industry: '  ',
        mood: [],
        description: '',
      }).expect(200);
      const prompt = upstreamPrompt();
      expect(prompt).not.toMatch(/industry|mood|about the company/i);
      expect(prompt).not.toMatch(/undefined|null/i);
    });

    it('does not pass unknown extra fields on to the prompt', async () => {
      await post({ ...valid, sneaky: 'zz-extra-field-zz' }).expect(200);
      expect(upstreamPrompt()).not.toContain('zz-extra-field-zz');
    });
  });

  describe('POST: validation', () => {
    it("returns 400 {success:false, error:'Invalid input', details} when projectId is missing", async () => {
      const body = without('projectId');
      const details = await expectInvalid(body);
      expect(details).toContainEqual({
        path: ['projectId'],
        message: 'Required',
        code: 'invalid_type',
      });
    });

    it('returns 400 when projectId is not a string', async () => {
      const details = await expectInvalid({ ...valid, projectId: 42 });
      expect(details.map((d) => d.path)).toContainEqual(['projectId']);
    });

    it('returns 400 when companyName is missing', async () => {
      const body = without('companyName');
      const details = await expectInvalid(body);
      expect(details.map((d) => d.path)).toContainEqual(['companyName']);
    });

    it("returns 400 with details path ['companyName'] when companyName is ''", async () => {
      const details = await expectInvalid({ ...valid, companyName: '' });
      expect(details).toEqual([
        expect.objectContaining({ path: ['companyName'], code: 'too_small' }),
      ]);
    });

    it('returns 400 when companyName has 101 characters', async () => {
      const details = await expectInvalid({
        ...valid,
        companyName: 'c'.repeat(101),
      });
      expect(details).toEqual([
        expect.objectContaining({ path: ['companyName'], code: 'too_big' }),
      ]);
    });

    it('accepts a companyName of 1 and of 100 characters', async () => {
      await post({ ...valid, companyName: 'c' }).expect(200);
      await post({ ...valid, companyName: 'c'.repeat(100) }).expect(200);
    });

    it("returns 400 when style is not one of the eight (e.g. 'retro')", async () => {
      const details = await expectInvalid({ ...valid, style: 'retro' });
      expect(details).toEqual([
        expect.objectContaining({
          path: ['style'],
          code: 'invalid_enum_value',
        }),
      ]);
    });

    it('returns 400 when style is missing or differs only in case', async () => {
      const body = without('style');
      await expectInvalid(body);
      await expectInvalid({ ...valid, style: 'Modern' });
    });

    it.each(STYLES)("accepts style '%s'", async (style) => {
      await post({ ...valid, style }).expect(200);
      expect(fake.requests).toHaveLength(1);
      expect((fake.requests[0].body as { prompt: string }).prompt).toContain(
        style,
      );
    });

    it('returns 400 when colors has 0 items', async () => {
      const details = await expectInvalid({ ...valid, colors: [] });
      expect(details).toEqual([
        expect.objectContaining({ path: ['colors'], code: 'too_small' }),
      ]);
    });

    it('returns 400 when colors has 6 items', async () => {
      const details = await expectInvalid({
        ...valid,
        colors: ['a', 'b', 'c', 'd', 'e', 'f'],
      });
      expect(details).toEqual([
        expect.objectContaining({ path: ['colors'], code: 'too_big' }),
      ]);
    });

    it('accepts colors with 1 and with 5 items', async () => {
      await post({ ...valid, colors: ['red'] }).expect(200);
      await post({
        ...valid,
        colors: ['red', 'green', 'blue', 'black', 'white'],
      }).expect(200);
    });

    it('returns 400 when colors is not an array', async () => {
      const details = await expectInvalid({ ...valid, colors: 'navy' });
      expect(details.map((d) => d.path)).toContainEqual(['colors']);
    });

    it('returns 400 when colors is missing', async () => {
      const body = without('colors');
      const details = await expectInvalid(body);
      expect(details.map((d) => d.path)).toContainEqual(['colors']);
    });

    it('returns 400 when a color is not a string', async () => {
      await expectInvalid({ ...valid, colors: ['navy', 7] });
    });

    it('returns 400 when description has 501 characters', async () => {
      const details = await expectInvalid({
        ...valid,
        description: 'd'.repeat(501),
      });
      expect(details).toEqual([
        expect.objectContaining({ path: ['description'], code: 'too_big' }),
      ]);
    });

    it('accepts a description of 500 characters', async () => {
      await post({ ...valid, description: 'd'.repeat(500) }).expect(200);
    });

    it('returns 400 when description is null (optional means absent, not null)', async () => {
      await expectInvalid({ ...valid, description: null });
    });

    it('returns 400 when industry is not a string', async () => {
      await expectInvalid({ ...valid, industry: 12 });
    });

    it('returns 400 when mood is not an array', async () => {
      const details = await expectInvalid({ ...valid, mood: 'calm' });
      expect(details.map((d) => d.path)).toContainEqual(['mood']);
    });

    it('returns 400 when a mood word is not a string', async () => {
      await expectInvalid({ ...valid, mood: ['calm', false] });
    });

    it('returns 400 when the body is a JSON array', async () => {
      await expectInvalid([valid]);
    });

    it('returns 400 when the body is a JSON number', async () => {
      await expectInvalid(42);
    });

    it('returns 400 when the body is JSON null', async () => {
      await expectInvalid(null);
    });

    it('returns 400 when the body is a JSON string', async () => {
      await expectInvalid('Acme');
    });

    it('returns 400 for an empty object, with one issue per required field', async () => {
      const details = await expectInvalid({});
      expect(details.map((d) => d.path)).toEqual(
        expect.arrayContaining([
          ['projectId'],
          ['companyName'],
          ['style'],
          ['colors'],
        ]),
      );
    });

    it('ignores unknown extra fields (200)', async () => {
      const response = await post({
        ...valid,
        x_unknown_field: 'ignored',
        x_unknown_object: { a: 1 },
      }).expect(200);
      expect(response.body.success).toBe(true);
    });

    it('ignores 70,000 unknown fields (a 740 KB body) and generates the logo', async () => {
      const body: Record<string, unknown> = { ...valid };
      for (let i = 0; i < 70_000; i++) body[`k${i}`] = 1;
      const response = await post(body).expect(200);
      expect(response.body.success).toBe(true);
      expect(fake.requests).toHaveLength(1);
    });

    it.each([
      ['projectId', { projectId: '\ud800' }, ['projectId']],
      ['companyName', { companyName: 'Acme\udc00' }, ['companyName']],
      ['description', { description: '\ud83d' }, ['description']],
      ['industry', { industry: 'x\ud800y' }, ['industry']],
      ['a color', { colors: ['navy', '\udfff'] }, ['colors', 1]],
      ['a mood word', { mood: ['\ud800'] }, ['mood', 0]],
    ])(
      'refuses %s holding a lone surrogate with 400 invalid_string, without calling the image service',
      async (_label, change, path) => {
        const details = await expectInvalid({ ...valid, ...change });
        expect(details).toEqual([
          {
            path,
            message: 'String must be well-formed Unicode (no lone surrogates)',
            code: 'invalid_string',
          },
        ]);
      },
    );

    it('passes surrogate pairs on to the prompt as sent', async () => {
      await post({ ...valid, companyName: 'Rocket 🚀' }).expect(200);
      expect((fake.requests[0].body as { prompt: string }).prompt).toContain(
        'Rocket 🚀',
      );
    });
  });

  describe('POST: image service failures', () => {
    it("returns 500 {success:false, error:<upstream error.message>} when the image service answers 400 'Your prompt was rejected'", async () => {
      fake.respondWith(Replies.error(400, 'Your prompt was rejected'));
      const response = await post(valid).expect(500);
      expect(response.body).toEqual({
        success: false,
        error: 'Your prompt was rejected',
        code: 'upstream_refused',
      });
    });

    it("returns 500 {success:false, error:'Failed to generate logo'} when the image service answers 500 with no message", async () => {
      fake.respondWith(Replies.errorWithoutMessage(500));
      const response = await post(valid).expect(500);
      expect(response.body).toEqual({
        success: false,
        error: 'Failed to generate logo',
        code: 'upstream_failed',
      });
    });

    it("returns 500 'Failed to generate logo' when the image service answers a non-JSON 502", async () => {
      fake.respondWith(Replies.notJson(502));
      const response = await post(valid).expect(500);
      expect(response.body).toEqual({
        success: false,
        error: 'Failed to generate logo',
        code: 'upstream_failed',
      });
    });

    it("returns 500 'Failed to generate logo' when the upstream error message is empty", async () => {
      fake.respondWith(Replies.error(429, ''));
      const response = await post(valid).expect(500);
      expect(response.body).toEqual({
        success: false,
        error: 'Failed to generate logo',
        code: 'upstream_failed',
      });
    });

    it('does not retry a failed upstream call', async () => {
      fake.respondWith(Replies.errorWithoutMessage(500));
      await post(valid).expect(500);
      expect(fake.requests).toHaveLength(1);
    });

    it("returns 500 with an error starting 'Invalid response' when the image service answers 200 with data []", async () => {
      fake.respondWith(Replies.withoutImage());
      const response = await post(valid).expect(500);
      expect(response.body).toEqual({
        success: false,
        error: expect.stringMatching(/^Invalid response/),
        code: 'upstream_invalid_answer',
      });
    });

    it("returns 500 with an error starting 'Invalid response' when the image service answers 200 with a non-JSON body", async () => {
      fake.respondWith(Replies.notJson(200));
      const response = await post(valid).expect(500);
      expect(response.body).toEqual({
        success: false,
        error: expect.stringMatching(/^Invalid response/),
        code: 'upstream_invalid_answer',
      });
    });

    it("returns 500 with an error starting 'Invalid response' when the first image has no url", async () => {
      fake.respondWith({
        status: 200,
        json: { created: 1, data: [{ b64_json: 'aGVsbG8=' }] },
      });
      const response = await post(valid).expect(500);
      expect(response.body).toEqual({
        success: false,
        error: expect.stringMatching(/^Invalid response/),
        code: 'upstream_invalid_answer',
      });
    });
  });

  describe('POST: an oversized upstream answer (found by the reliability fuzz)', () => {
    it("returns 500 'Invalid response from image service: response too large' for a 10 MB answer, instead of reading it", async () => {
      // Before the fix the whole 10 MB was buffered and parsed, and its URL
      // returned as a success.
      fake.respondWith(Replies.hugeBody(10 * 1024 * 1024));
      const response = await post(valid).expect(500);
      expect(response.body).toEqual({
        success: false,
        error: 'Invalid response from image service: response too large',
        code: 'upstream_invalid_answer',
      });
      expect(fake.requests).toHaveLength(1);
    });

    it('still accepts an answer padded to just under 1 MB', async () => {
      fake.respondWith(Replies.hugeBody(1024 * 1024 - 1024));
      const response = await post(valid).expect(200);
      expect(response.body.logoUrl).toBe(FAKE_IMAGE_URL);
    });
  });

  describe('POST: the key stays secret', () => {
    it('does not echo the key when the upstream error message contains it', async () => {
      fake.respondWith(
        Replies.error(401, `Incorrect API key provided: ${KEY}. Check it.`),
      );
      const response = await post(valid).expect(500);
      expect(response.body.success).toBe(false);
      expect(response.body.error).toEqual(expect.any(String));
      expect(response.body.error).toMatch(/^Incorrect API key provided/);
      expectNoKey(response);
    });

    it('never puts the key in a response body or header, on success or failure', async () => {
      const responses: Response[] = [];
      responses.push(await post(valid).expect(200));
      responses.push(await post({ ...valid, colors: [] }).expect(400));
      fake.respondWith(Replies.error(400, 'Your prompt was rejected'));
      responses.push(await post(valid).expect(500));
      fake.respondWith(Replies.error(401, `Bad key ${KEY} and again ${KEY}`));
      responses.push(await post(valid).expect(500));
      fake.respondWith(Replies.notJson(502));
      responses.push(await post(valid).expect(500));
      fake.respondWith(Replies.withoutImage());
      responses.push(await post(valid).expect(500));
      responses.push(
        await postRaw(t.server, 'not json', 'application/json').expect(500),
      );
      responses.push(await request(t.server).get(PATH).expect(200));
      for (const response of responses) expectNoKey(response);
    });
  });

  describe('POST: unreadable body', () => {
    it('returns 500 {success:false, error:<the JSON parse error message>} for the body "not json"', async () => {
      const response = await postRaw(
        t.server,
        'not json',
        'application/json',
      ).expect(500);
      const parseMessage = jsonParseMessage('not json');
      expect(parseMessage).not.toBe('');
      expect(response.body).toEqual({
        success: false,
        error: parseMessage,
        code: 'invalid_json',
      });
      expect(response.body.error).not.toBe('Failed to generate logo');
      expect(fake.requests).toHaveLength(0);
    });

    it('returns 500 {success:false, error:<message>} for an empty body', async () => {
      const response = await request(t.server)
        .post(PATH)
        .set('Content-Type', 'application/json')
        .expect(500);
      expect(response.body).toEqual({
        success: false,
        error: expect.any(String),
        code: 'invalid_json',
      });
      expect(response.body.error).not.toBe('');
      expect(fake.requests).toHaveLength(0);
    });

    it('returns 500, not 400, for a truncated JSON object', async () => {
      const text = JSON.stringify(valid).slice(0, -3);
      const response = await postRaw(t.server, text, 'application/json').expect(
        500,
      );
      expect(response.body).toEqual({
        success: false,
        error: jsonParseMessage(text),
        code: 'invalid_json',
      });
    });

    it.each([
      ['early', `{"projectId":"p",,"x":"${'x'.repeat(200_000)}"}`],
      ['late', `{"projectId":"p","x":"${'x'.repeat(200_000)}",}`],
      ['at the end', `[${'1,'.repeat(100_000)}`],
    ])(
      'answers the JSON parse error message of a large unreadable body, the error %s in it',
      async (_where, text) => {
        const response = await postRaw(
          t.server,
          text,
          'application/json',
        ).expect(500);
        expect(response.body).toEqual({
          success: false,
          error: jsonParseMessage(text),
          code: 'invalid_json',
        });
      },
    );

    it('reads the body as JSON even when Content-Type is text/plain (200)', async () => {
      const response = await postRaw(
        t.server,
        JSON.stringify(valid),
        'text/plain',
      ).expect(200);
      expect(response.body).toEqual({
        success: true,
        logoUrl: FAKE_IMAGE_URL,
        message: 'Logo generated successfully!',
        expiresAt: null,
      });
      expect(fake.requests).toHaveLength(1);
    });

    it('returns 413 {success:false, error} for a body over the size limit', async () => {
      const response = await post({
        ...valid,
        description: 'd'.repeat(1024 * 1024 + 10),
      }).expect(413);
      expect(response.body).toEqual({
        success: false,
        error: expect.any(String),
        code: 'body_too_large',
      });
      expect(fake.requests).toHaveLength(0);
    });
  });

  describe('POST without IMAGE_API_KEY', () => {
    it(`returns 500 {success:false, error:"${KEY_MISSING}"} for a valid body`, async () => {
      const response = await postJson(keyless.server, valid).expect(500);
      expect(response.body).toEqual({
        success: false,
        error: KEY_MISSING,
        code: 'image_api_not_configured',
      });
      expect(response.body.error).toContain('IMAGE_API_KEY');
    });

    it('does not call the image service', async () => {
      await postJson(keyless.server, full).expect(500);
      expect(fake.requests).toHaveLength(0);
    });

    it('still returns 400 for an invalid body (validation comes first)', async () => {
      await expectInvalid({ ...valid, colors: [] }, keyless.server);
      await expectInvalid(null, keyless.server);
    });

    it('treats a blank IMAGE_API_KEY as missing', async () => {
      const blank = await createTestApp({
        IMAGE_API_KEY: '   ',
        IMAGE_API_URL: fake.url,
      });
      try {
        const response = await postJson(blank.server, valid).expect(500);
        expect(response.body).toEqual({
          success: false,
          error: KEY_MISSING,
          code: 'image_api_not_configured',
        });
        const info = await request(blank.server).get(PATH).expect(200);
        expect(info.body.status).toBe('not_configured');
        expect(fake.requests).toHaveLength(0);
      } finally {
        await blank.close();
      }
    });
  });

  describe('GET', () => {
    it("returns 200 {service, status:'configured', message, supportedStyles, maxColors:5} when the key is set", async () => {
      const response = await request(t.server).get(PATH).expect(200);
      expect(response.body).toEqual({
        service: expect.any(String),
        status: 'configured',
        message: expect.any(String),
        supportedStyles: STYLES,
        maxColors: 5,
      });
      expect(response.body.service).not.toBe('');
      expect(response.body.message).not.toBe('');
    });

    it("returns status 'not_configured' and a message naming IMAGE_API_KEY when the key is not set", async () => {
      const response = await request(keyless.server).get(PATH).expect(200);
      expect(response.body).toEqual({
        service: expect.any(String),
        status: 'not_configured',
        message: expect.stringContaining('IMAGE_API_KEY'),
        supportedStyles: STYLES,
        maxColors: 5,
      });
      expect(response.body.service).not.toBe('');
    });

    it('gives a different message when configured than when not', async () => {
      const configured = await request(t.server).get(PATH).expect(200);
      const missing = await request(keyless.server).get(PATH).expect(200);
      expect(configured.body.message).not.toBe(missing.body.message);
    });

    it('does not include the key', async () => {
      const response = await request(t.server).get(PATH).expect(200);
      expectNoKey(response);
    });

    it('does not call the image service', async () => {
      await request(t.server).get(PATH).expect(200);
      expect(fake.requests).toHaveLength(0);
    });
  });

  it('answers every response with content-type application/json', async () => {
    const responses: Response[] = [
      await request(t.server).get(PATH),
      await request(keyless.server).get(PATH),
      await post(valid),
      await post({ ...valid, style: 'retro' }),
      await postJson(keyless.server, valid),
      await postRaw(t.server, 'not json', 'application/json'),
      await request(t.server).post(PATH),
    ];
    fake.respondWith(Replies.error(400, 'Your prompt was rejected'));
    responses.push(await post(valid));
    fake.respondWith(Replies.notJson(200));
    responses.push(await post(valid));
    expect(responses.map((r) => r.status)).toEqual([
      200, 200, 200, 400, 500, 500, 500, 500, 500,
    ]);
    for (const response of responses) expectJsonResponse(response);
  });
});

describe('/api/ai/generate-logo with an unreachable image service', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    port = await closedPort();
    t = await createTestApp({
      IMAGE_API_KEY: KEY,
      IMAGE_API_URL: `http://127.0.0.1:${port}/v1/images/generations`,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('returns 500 {success:false, error} without the address, the port or the socket error code', async () => {
    const response = await postJson(t.server, valid).expect(500);
    expect(response.body).toEqual({
      success: false,
      error: expect.any(String),
      code: 'upstream_unreachable',
    });
    const error = response.body.error as string;
    expect(error).not.toBe('');
    expect(error).not.toContain('127.0.0.1');
    expect(error).not.toContain('ECONNREFUSED');
    expect(error).not.toContain(String(port));
    expectNoKey(response);
    expectJsonResponse(response);
  });
});

describe('/api/ai/generate-logo with an image service slower than IMAGE_API_TIMEOUT_MS', () => {
  /** Fifty times the timeout: the answer must come long before it. */
  const DELAY_MS = 10_000;
  let t: TestApp;
  let slow: Server;
  let received = 0;
  let trickle = false;
  const timers: NodeJS.Timeout[] = [];

  beforeAll(async () => {
    // Answers successfully, but only long after the 200 ms timeout.
    slow = createServer((req, res: ServerResponse) => {
      received++;
      req.resume();
      if (trickle) {
        // Headers at once, then one byte every 50 ms: never silent for long,
        // never finished in time.
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"data":[');
        const drip = setInterval(() => res.write(' '), 50);
        timers.push(drip);
        res.on('close', () => clearInterval(drip));
        return;
      }
      timers.push(
        setTimeout(() => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ data: [{ url: FAKE_IMAGE_URL }] }));
        }, DELAY_MS),
      );
    });
    slow.listen(0, '127.0.0.1');
    await once(slow, 'listening');
    const { port } = slow.address() as AddressInfo;
    t = await createTestApp({
      IMAGE_API_KEY: KEY,
      IMAGE_API_URL: `http://127.0.0.1:${port}/v1/images/generations`,
      IMAGE_API_TIMEOUT_MS: '200',
    });
  });
  afterAll(async () => {
    for (const timer of timers) clearInterval(timer);
    await t?.close();
    if (slow) {
      slow.closeAllConnections();
      slow.close();
      await once(slow, 'close');
    }
  });

  it('returns 500 {success:false, error} saying the image service did not respond in time', async () => {
    const started = Date.now();
    const response = await postJson(t.server, valid).expect(500);
    expect(Date.now() - started).toBeLessThan(DELAY_MS);
    expect(received).toBe(1);
    expect(response.body).toEqual({
      success: false,
      error: expect.stringMatching(/did not respond in time/i),
      code: 'upstream_timeout',
    });
    expect(response.body.error).not.toContain('127.0.0.1');
    expect(response.body.error).not.toMatch(/ECONNABORTED|ETIMEDOUT/);
    expectNoKey(response);
  });

  it('bounds the whole call: an upstream that trickles bytes still times out', async () => {
    trickle = true;
    try {
      const started = Date.now();
      const response = await postJson(t.server, valid).expect(500);
      expect(Date.now() - started).toBeLessThan(DELAY_MS);
      expect(response.body).toEqual({
        success: false,
        error: expect.stringMatching(/did not respond in time/i),
        code: 'upstream_timeout',
      });
    } finally {
      trickle = false;
    }
  });
});
