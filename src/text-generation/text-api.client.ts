import { setTimeout as delay } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { FairGate, type Claimant } from '../common/concurrency/fair-gate';
import { keyRedactor } from '../logging/key-redaction';
import {
  backoffMs,
  isRetryableStatus,
  parseRetryAfter,
} from '../logo/retry-policy';
import { MetricsService } from '../metrics/metrics.service';
import type { Span } from '@opentelemetry/api';
import { annotate, inSpan } from '../tracing/spans';
import { TextApiCallError } from './text-api-call.error';
import {
  textGenerationConfig,
  type TextGenerationConfig,
  type TextModelSettings,
} from './text-generation.config';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export interface ChatRequest {
  /** text: TEXT_* (TEXT_PROVIDER); code: CODE_* (CODE_PROVIDER). */
  purpose: 'text' | 'code';
  messages: ChatMessage[];
  /** Structured output: the answer must be JSON of this schema. */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  maxCompletionTokens: number;
  signal: AbortSignal;
  /** Whose share of the calls this one takes. */
  clientKey: string;
}

export interface ChatAnswer {
  content: string;
  model: string;
  usage: { inputTokens: number; outputTokens: number };
}

/** An answer is a few kilobytes of text; a larger one is not read. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const BACKOFF = { baseMs: 500, maxMs: 8000 };
const RETRY_AFTER_CAP_MS = 30_000;

interface ChatCompletion {
  model?: string;
  choices?: Array<{
    message?: { content?: string | null; refusal?: string | null };
    finish_reason?: string;
  }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/**
 * Calls an OpenAI-compatible Chat Completions API (`POST {url}/chat/completions`)
 * as the image calls are made: the key only in the Authorization header,
 * a deadline over the call and its retries, retries on 429/5xx/lost
 * connections after Retry-After or a backoff, at most TEXT_API_CONCURRENCY
 * calls in flight per instance and TEXT_API_CLIENT_CONCURRENCY per client,
 * token usage counted in /metrics and on the span. The caller's signal
 * closes the upstream request at once.
 */
@Injectable()
export class TextApiClient {
  private readonly gate: FairGate;
  private readonly calls: Counter<'purpose' | 'outcome'>;
  private readonly tokens: Counter<'purpose' | 'kind'>;

  constructor(
    @Inject(textGenerationConfig.KEY)
    private readonly config: TextGenerationConfig,
    metrics: MetricsService,
  ) {
    this.gate = new FairGate({
      permits: config.concurrency,
      waiting: 10_000,
      perIdentity: { permits: config.clientConcurrency, waiting: 1000 },
      perAddress: { permits: config.clientConcurrency, waiting: 1000 },
      reserve: 0,
      waitMs: config.deadlineMs,
    });
    const registers = [metrics.registry];
    this.calls = new Counter({
      name: 'text_api_calls_total',
      help: 'Calls to the text and code models (each retry counts), by purpose (text, code) and outcome',
      labelNames: ['purpose', 'outcome'] as const,
      registers,
    });
    this.tokens = new Counter({
      name: 'text_api_tokens_total',
      help: 'Tokens the text and code models reported using, by purpose and kind (input, output)',
      labelNames: ['purpose', 'kind'] as const,
      registers,
    });
  }

  /** The model a purpose's calls ask for (what their cost is estimated by). */
  modelFor(purpose: ChatRequest['purpose']): string {
    return this.config[purpose].model;
  }

  async complete(request: ChatRequest): Promise<ChatAnswer> {
    const settings = this.config[request.purpose];
    if (settings.key === undefined) {
      const variable =
        request.purpose === 'text' ? 'TEXT_API_KEY' : 'CODE_API_KEY';
      throw new TextApiCallError(
        'not_configured',
        `The ${request.purpose} model's key is missing: add ${variable} to the environment`,
        false,
      );
    }
    const deadline = AbortSignal.timeout(this.config.deadlineMs);
    const signal = AbortSignal.any([request.signal, deadline]);
    const claimant: Claimant = {
      identity: request.clientKey,
      address: request.clientKey,
    };
    const release = await this.gate
      .enter(
        claimant,
        () =>
          new TextApiCallError(
            'busy',
            'Too many text model calls in flight; retried later',
            true,
            5000,
          ),
        (leave) => signal.addEventListener('abort', leave, { once: true }),
      )
      .catch((error: unknown) => {
        throw signal.aborted ? this.ended(request, deadline) : error;
      });
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.callOnce(request, settings, signal, attempt);
        } catch (error) {
          if (signal.aborted) throw this.ended(request, deadline);
          const failure =
            error instanceof TextApiCallError
              ? error
              : new TextApiCallError(
                  'upstream_error',
                  `The ${request.purpose} model could not be reached`,
                  true,
                );
          if (!failure.retryable || attempt >= this.config.maxAttempts)
            throw failure;
          const wait =
            failure.retryAfterMs !== undefined
              ? Math.min(failure.retryAfterMs, RETRY_AFTER_CAP_MS)
              : backoffMs(attempt - 1, BACKOFF);
          await delay(wait, undefined, { signal }).catch(() => {
            throw this.ended(request, deadline);
          });
        }
      }
    } finally {
      release();
    }
  }

  /** The deadline's timeout, or the caller's own reason (a cancel). */
  private ended(request: ChatRequest, deadline: AbortSignal): unknown {
    if (deadline.aborted && !request.signal.aborted) {
      return new TextApiCallError(
        'timeout',
        `The ${request.purpose} model did not answer in time`,
        true,
      );
    }
    return request.signal.reason;
  }

  private callOnce(
    request: ChatRequest,
    settings: TextModelSettings,
    signal: AbortSignal,
    attempt: number,
  ): Promise<ChatAnswer> {
    return inSpan(
      'text_api.call',
      {
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': settings.model,
          'text_api.purpose': request.purpose,
          'text_api.attempt': attempt,
        },
      },
      async (span) => {
        const outcome = (name: string) =>
          this.calls.inc({ purpose: request.purpose, outcome: name });
        let response: Response;
        try {
          response = await fetch(`${settings.url}/chat/completions`, {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${settings.key}`,
              'Content-Type': 'application/json',
            },
            body: JSON.stringify(this.bodyOf(request, settings)),
            signal,
            redirect: 'error',
          });
        } catch (error) {
          outcome(signal.aborted ? 'cancelled' : 'unreachable');
          throw error;
        }
        annotate(span, { 'http.response.status_code': response.status });
        const text = await readBounded(response, signal);
        const redact = keyRedactor(settings.key);
        if (!response.ok) {
          outcome('error_response');
          throw this.failureOf(
            request,
            response,
            redact(providerMessage(text) ?? ''),
          );
        }
        return this.answerOf(request, settings, text, span, outcome);
      },
    );
  }

  /**
   * The answer's text and usage, counted and traced; a refusal, a content
   * filter, or an answer without text is a TextApiCallError.
   */
  private answerOf(
    request: ChatRequest,
    settings: TextModelSettings,
    text: string,
    span: Span | undefined,
    outcome: (name: string) => void,
  ): ChatAnswer {
    const redact = keyRedactor(settings.key);
    const answer = parseAnswer(text);
    const choice = answer?.choices?.[0];
    const refusal = choice?.message?.refusal;
    if (refusal || choice?.finish_reason === 'content_filter') {
      outcome('refused');
      throw new TextApiCallError(
        'refused',
        redact(refusal || 'The model refused to answer (content filter)'),
        false,
      );
    }
    const content = choice?.message?.content;
    if (typeof content !== 'string' || content.trim() === '') {
      outcome('invalid_response');
      throw new TextApiCallError(
        'invalid_answer',
        choice?.finish_reason === 'length'
          ? `The ${request.purpose} model's answer was cut short (finish_reason: length)`
          : `Invalid response from the ${request.purpose} model: no answer text`,
        true,
      );
    }
    outcome('success');
    const usage = {
      inputTokens: Number(answer?.usage?.prompt_tokens ?? 0),
      outputTokens: Number(answer?.usage?.completion_tokens ?? 0),
    };
    this.tokens.inc(
      { purpose: request.purpose, kind: 'input' },
      usage.inputTokens,
    );
    this.tokens.inc(
      { purpose: request.purpose, kind: 'output' },
      usage.outputTokens,
    );
    annotate(span, {
      'gen_ai.response.model': answer?.model ?? settings.model,
      'gen_ai.usage.input_tokens': usage.inputTokens,
      'gen_ai.usage.output_tokens': usage.outputTokens,
    });
    return { content, model: answer?.model ?? settings.model, usage };
  }

  private bodyOf(request: ChatRequest, settings: TextModelSettings) {
    return {
      model: settings.model,
      messages: request.messages,
      // Current models refuse max_tokens and any temperature but 1.
      max_completion_tokens: request.maxCompletionTokens,
      ...(request.jsonSchema
        ? {
            response_format: {
              type: 'json_schema',
              json_schema: { ...request.jsonSchema, strict: true },
            },
          }
        : {}),
    };
  }

  private failureOf(
    request: ChatRequest,
    response: Response,
    message: string,
  ): TextApiCallError {
    const { status } = response;
    if (status === 401 || status === 403) {
      const variable =
        request.purpose === 'text' ? 'TEXT_API_KEY' : 'CODE_API_KEY';
      return new TextApiCallError(
        'refused',
        `The ${request.purpose} model refused the key (${variable})`,
        false,
      );
    }
    const retryAfterMs = parseRetryAfter(
      response.headers.get('retry-after') ?? undefined,
    );
    const text = message || `The ${request.purpose} model answered ${status}`;
    if (status === 429)
      return new TextApiCallError('rate_limited', text, true, retryAfterMs);
    if (isRetryableStatus(status))
      return new TextApiCallError('upstream_error', text, true, retryAfterMs);
    return new TextApiCallError('refused', text, false);
  }
}

function parseAnswer(text: string): ChatCompletion | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The provider's `error.message`, if its error body has one. */
function providerMessage(text: string): string | undefined {
  const body = parseAnswer(text) as
    { error?: { message?: unknown } } | undefined;
  const message = body?.error?.message;
  return typeof message === 'string' ? message.slice(0, 1000) : undefined;
}

async function readBounded(
  response: Response,
  signal: AbortSignal,
): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await response.body.cancel().catch(() => undefined);
      throw new TextApiCallError(
        'invalid_answer',
        'The model answered more than 1 MB',
        false,
      );
    }
    chunks.push(chunk);
    if (signal.aborted) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}
