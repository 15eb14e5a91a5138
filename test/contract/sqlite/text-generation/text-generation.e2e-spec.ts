import { ConfigModule } from '@nestjs/config';
import { Test, type TestingModule } from '@nestjs/testing';
import { DevTextApi } from '../../../../dev-servers/text-api';
import { MetricsModule } from '../../../../src/metrics/metrics.module';
import { MetricsService } from '../../../../src/metrics/metrics.service';
import {
  landingPageMessages,
  parseLandingPage,
} from '../../../../src/text-generation/landing-page';
import {
  MARKETING_COPY_SCHEMA,
  marketingCopyMessages,
  parseMarketingCopy,
} from '../../../../src/text-generation/marketing-copy';
import { TextApiCallError } from '../../../../src/text-generation/text-api-call.error';
import {
  TextApiClient,
  type ChatRequest,
} from '../../../../src/text-generation/text-api.client';
import {
  DEFAULT_TEXT_MODEL,
  textGenerationConfig,
} from '../../../../src/text-generation/text-generation.config';
import { TextGenerationModule } from '../../../../src/text-generation/text-generation.module';

/**
 * The text and code model client as the task kinds call it, against the
 * dev text API: what it sends, how it reads the answers, which failures it
 * retries (and after how long, measured by the dev server), how a cancel
 * or the deadline closes the upstream connection, and that the key never
 * shows in an error.
 */

const KEY = 'sk-text-e2e-0123456789abcdefXYZ';
const CODE_MODEL = 'gpt-5.4';
const product = { name: 'Acme Rockets', description: 'Rockets for all' };

/** The parts of a recorded request body the tests read. */
interface SentBody {
  model?: unknown;
  messages?: unknown;
  response_format?: {
    type?: string;
    json_schema?: { name?: string; strict?: boolean; schema?: unknown };
  };
  max_completion_tokens?: unknown;
}

/** The TextApiCallError `work` fails with (and it never shows the key). */
async function failureOf(work: Promise<unknown>): Promise<TextApiCallError> {
  try {
    await work;
  } catch (error) {
    if (!(error instanceof TextApiCallError)) throw error;
    expect(error.message).not.toContain(KEY);
    expect(JSON.stringify({ ...error })).not.toContain(KEY);
    return error;
  }
  throw new Error('the call succeeded');
}

/** Polls until `check` holds (the dev server records a close asynchronously). */
async function eventually(check: () => boolean, limitMs = 3000) {
  const until = Date.now() + limitMs;
  while (!check() && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('text generation: the text API client against the dev text API', () => {
  let api: DevTextApi;
  let module: TestingModule;
  let client: TextApiClient;
  const built: TestingModule[] = [];

  const build = async (env: Record<string, string>) => {
    const testing = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          ignoreEnvFile: true,
          load: [textGenerationConfig],
        }),
        MetricsModule,
        TextGenerationModule,
      ],
    })
      .overrideProvider(textGenerationConfig.KEY)
      .useValue(textGenerationConfig(env))
      .compile();
    await testing.init();
    built.push(testing);
    return testing;
  };

  const copyRequest = (signal = new AbortController().signal): ChatRequest => ({
    purpose: 'text',
    messages: marketingCopyMessages(product, { tone: 'playful' }),
    jsonSchema: { name: 'marketing_copy', schema: MARKETING_COPY_SCHEMA },
    maxCompletionTokens: 2000,
    signal,
    clientKey: 'owner-1',
  });

  const pageRequest = (signal = new AbortController().signal): ChatRequest => ({
    purpose: 'code',
    messages: landingPageMessages(product, undefined, true),
    maxCompletionTokens: 16_000,
    signal,
    clientKey: 'owner-1',
  });

  beforeAll(async () => {
    api = await DevTextApi.start();
    module = await build({
      TEXT_API_URL: api.url,
      TEXT_API_KEY: KEY,
      CODE_MODEL,
      TEXT_API_MAX_ATTEMPTS: '3',
      TEXT_API_DEADLINE_MS: '20000',
    });
    client = module.get(TextApiClient);
  });
  beforeEach(() => {
    api.requests.length = 0;
  });
  afterAll(async () => {
    for (const testing of built) await testing.close();
    await api?.close();
  });

  it('sends marketing copy as a json_schema request with max_completion_tokens and the Bearer key, and the answer parses as copy', async () => {
    const answer = await client.complete(copyRequest());
    const copy = parseMarketingCopy(answer.content);
    expect(copy.tagline).toContain('Acme Rockets');
    expect(copy.posts).toHaveLength(3);
    expect(answer.model).toBe(DEFAULT_TEXT_MODEL);
    expect(answer.usage.inputTokens).toBeGreaterThan(0);
    expect(answer.usage.outputTokens).toBeGreaterThan(0);

    expect(api.requests).toHaveLength(1);
    const [call] = api.requests;
    expect(call.authorization).toBe(`Bearer ${KEY}`);
    const body = call.body as SentBody;
    expect(body.model).toBe(DEFAULT_TEXT_MODEL);
    expect(body.max_completion_tokens).toBe(2000);
    expect(body).not.toHaveProperty('max_tokens');
    expect(body).not.toHaveProperty('temperature');
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'marketing_copy',
        schema: MARKETING_COPY_SCHEMA,
        strict: true,
      },
    });
  });

  it('sends a landing page to the code model without a response format, and the answer parses as a page with the logo put in', async () => {
    const logo = 'data:image/png;base64,iVBORw0KGgo=';
    const answer = await client.complete(pageRequest());
    const html = parseLandingPage(answer.content, logo);
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toMatch(/<\/html>$/);
    expect(html).toContain('<h1>Acme Rockets</h1>');
    expect(html).toContain(`src="${logo}"`);
    expect(answer.model).toBe(CODE_MODEL);

    expect(api.requests).toHaveLength(1);
    const body = api.requests[0].body as SentBody;
    expect(body.model).toBe(CODE_MODEL);
    expect(body.max_completion_tokens).toBe(16_000);
    expect(body).not.toHaveProperty('response_format');
    expect(body).not.toHaveProperty('max_tokens');
    expect(body).not.toHaveProperty('temperature');
    expect(api.requests[0].authorization).toBe(`Bearer ${KEY}`);
  });

  it('counts the tokens of a successful call in the metrics registry', async () => {
    await client.complete(copyRequest());
    const metric = module
      .get(MetricsService)
      .registry.getSingleMetric('text_api_tokens_total');
    expect(metric).toBeDefined();
    const { values } = await metric!.get();
    const text = values.filter((v) => v.labels.purpose === 'text');
    const input = text.find((v) => v.labels.kind === 'input')?.value ?? 0;
    const output = text.find((v) => v.labels.kind === 'output')?.value ?? 0;
    expect(input).toBeGreaterThan(0);
    expect(output).toBeGreaterThan(0);
  });

  it("does not retry a 400 refusal and keeps the provider's message", async () => {
    api.replyNext({
      kind: 'error',
      status: 400,
      message: 'Your request was rejected as a result of our safety system.',
    });
    const error = await failureOf(client.complete(copyRequest()));
    expect(error).toMatchObject({
      code: 'refused',
      retryable: false,
      message: 'Your request was rejected as a result of our safety system.',
    });
    expect(api.requests).toHaveLength(1);
  });

  it("fails the model's own refusal as refused, not retried", async () => {
    api.replyNext({ kind: 'refusal' });
    const error = await failureOf(client.complete(pageRequest()));
    expect(error).toMatchObject({ code: 'refused', retryable: false });
    expect(error.message).toContain("I'm sorry");
    expect(api.requests).toHaveLength(1);
  });

  it('fails a 401 naming TEXT_API_KEY, without the key, not retried', async () => {
    api.replyNext({
      kind: 'error',
      status: 401,
      message: `Incorrect API key provided: ${KEY}.`,
    });
    const error = await failureOf(client.complete(copyRequest()));
    expect(error).toMatchObject({ code: 'refused', retryable: false });
    expect(error.message).toContain('TEXT_API_KEY');
    expect(error.message).not.toContain(KEY);
    expect(api.requests).toHaveLength(1);
  });

  it('redacts the key when the provider echoes it in an error message', async () => {
    api.replyNext({
      kind: 'error',
      status: 400,
      message: `Invalid request for key ${KEY} (also ${KEY.slice(0, 6)}***${KEY.slice(-4)})`,
    });
    const error = await failureOf(client.complete(copyRequest()));
    expect(error.code).toBe('refused');
    expect(error.message).toContain('[redacted]');
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain(KEY.slice(-4));
  });

  it('retries a 429 after its Retry-After (measured by the dev server), then succeeds', async () => {
    api.replyNext({
      kind: 'error',
      status: 429,
      message: 'Rate limit reached',
      retryAfterSeconds: 1,
    });
    const answer = await client.complete(copyRequest());
    expect(parseMarketingCopy(answer.content).posts).toHaveLength(3);
    expect(api.requests).toHaveLength(2);
    const gap = api.requests[1].receivedAt - api.requests[0].receivedAt;
    expect(gap).toBeGreaterThanOrEqual(950);
  });

  it('retries a 500 twice, then succeeds within TEXT_API_MAX_ATTEMPTS=3', async () => {
    api.replyNext(
      { kind: 'error', status: 500 },
      { kind: 'error', status: 500 },
    );
    const answer = await client.complete(pageRequest());
    expect(parseLandingPage(answer.content, undefined)).toContain(
      'Acme Rockets',
    );
    expect(api.requests).toHaveLength(3);
  });

  it('fails retryable after exactly TEXT_API_MAX_ATTEMPTS requests when every answer is a 500', async () => {
    api.replyNext(
      { kind: 'error', status: 500, message: 'Overloaded' },
      { kind: 'error', status: 500, message: 'Overloaded' },
      { kind: 'error', status: 500, message: 'Overloaded' },
    );
    // A fourth call would get the default answer and succeed.
    const error = await failureOf(client.complete(copyRequest()));
    expect(error).toMatchObject({
      code: 'upstream_error',
      retryable: true,
      message: 'Overloaded',
    });
    expect(api.requests).toHaveLength(3);
  });

  it('retries a reset connection, then succeeds', async () => {
    api.replyNext({ kind: 'reset' });
    const answer = await client.complete(copyRequest());
    expect(parseMarketingCopy(answer.content).tagline).toContain('Acme');
    expect(api.requests).toHaveLength(2);
  });

  it('fails copy that is not three non-empty fields as invalid_answer', async () => {
    api.replyNext({ kind: 'invalid' });
    const answer = await client.complete(copyRequest());
    const error = await failureOf(
      Promise.resolve().then(() => parseMarketingCopy(answer.content)),
    );
    expect(error).toMatchObject({ code: 'invalid_answer', retryable: true });
  });

  it('fails a page answer that is not an HTML document as invalid_answer', async () => {
    api.replyNext({ kind: 'invalid' });
    const answer = await client.complete(pageRequest());
    const error = await failureOf(
      Promise.resolve().then(() => parseLandingPage(answer.content, undefined)),
    );
    expect(error.code).toBe('invalid_answer');
  });

  it("closes the upstream connection when the caller's signal aborts", async () => {
    api.replyNext({ kind: 'answer', latencyMs: 5000 });
    const controller = new AbortController();
    const call = client.complete(pageRequest(controller.signal));
    const outcome = call.then(
      () => 'answered',
      (error: unknown) => error,
    );
    // 200 ms after the dev server has the request, so that it is one to close.
    await eventually(() => api.requests.length === 1);
    setTimeout(() => controller.abort(), 200);
    const error = await outcome;
    expect(error).not.toBe('answered');
    expect(error).not.toBeInstanceOf(TextApiCallError);
    expect((error as Error).name).toBe('AbortError');

    await eventually(() => api.requests[0]?.closedEarly === true);
    expect(api.requests).toHaveLength(1);
    const [recorded] = api.requests;
    expect(recorded.closedEarly).toBe(true);
    expect(recorded.closedAt! - recorded.receivedAt).toBeLessThan(1000);
  });

  it('fails as timeout when TEXT_API_DEADLINE_MS passes before the answer, and closes the connection', async () => {
    const short = await build({
      TEXT_API_URL: api.url,
      TEXT_API_KEY: KEY,
      TEXT_API_DEADLINE_MS: '1000',
    });
    api.replyNext({ kind: 'answer', latencyMs: 3000 });
    const error = await failureOf(
      short.get(TextApiClient).complete(copyRequest()),
    );
    expect(error).toMatchObject({ code: 'timeout', retryable: true });
    await eventually(() => api.requests[0]?.closedEarly === true);
    expect(api.requests).toHaveLength(1);
    const [recorded] = api.requests;
    expect(recorded.closedEarly).toBe(true);
    expect(recorded.closedAt! - recorded.receivedAt).toBeLessThan(2000);
  });

  it('fails as not_configured, naming TEXT_API_KEY, without a request when no key is set', async () => {
    const unconfigured = await build({ TEXT_API_URL: api.url });
    const error = await failureOf(
      unconfigured.get(TextApiClient).complete(copyRequest()),
    );
    expect(error).toMatchObject({ code: 'not_configured', retryable: false });
    expect(error.message).toContain('TEXT_API_KEY');
    expect(api.requests).toHaveLength(0);
  });

  it('never shows the key in an error message, whatever failure echoes it', async () => {
    const once = await build({
      TEXT_API_URL: api.url,
      TEXT_API_KEY: KEY,
      TEXT_API_MAX_ATTEMPTS: '1',
    });
    const echo = `Key ${KEY} (${KEY.slice(0, 6)}...${KEY.slice(-4)}) was used`;
    const seen: TextApiCallError[] = [];
    for (const status of [400, 401, 403, 404, 422, 429, 500, 503]) {
      api.replyNext({ kind: 'error', status, message: echo });
      seen.push(
        await failureOf(once.get(TextApiClient).complete(copyRequest())),
      );
    }
    expect(seen.map((error) => error.code)).toEqual([
      'refused',
      'refused',
      'refused',
      'refused',
      'refused',
      'rate_limited',
      'upstream_error',
      'upstream_error',
    ]);
    for (const error of seen) {
      expect(error.message).not.toContain(KEY);
      expect(error.message).not.toContain(KEY.slice(-4));
    }
    expect(api.requests).toHaveLength(8);
  });
});
