import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { isAxiosError } from 'axios';
import { firstValueFrom } from 'rxjs';
import { appConfig } from '../../config/app.config';
import type { AppConfig } from '../../config/environment';
import { ImageApiCallError } from './image-api-call.error';
import { LogoMetrics, type ImageApiCallOutcome } from './logo-metrics';
import {
  INVALID_RESPONSE_MESSAGE,
  LOGO_GENERIC_FAILURE,
  MAX_UPSTREAM_RESPONSE_BYTES,
  OVERSIZED_RESPONSE_MESSAGE,
  TIMEOUT_MESSAGE,
  UNREACHABLE_MESSAGE,
} from './logo.constants';
import { isRetryableStatus, parseRetryAfter } from './retry-policy';
import { annotate, inSpan } from '../tracing/spans';

/**
 * The OpenAI-compatible image generation endpoint (IMAGE_API_URL), one call
 * at a time: retries are RetryingImageApi's job, and axios has none of its
 * own, so they never multiply. Every failure of the call leaves as an
 * ImageApiCallError whose text is safe to show: the key is never part of
 * it, and neither is a socket error or an address.
 */
@Injectable()
export class ImageApiClient {
  private readonly settings: AppConfig['imageApi'];

  constructor(
    private readonly http: HttpService,
    private readonly metrics: LogoMetrics,
    @Inject(appConfig.KEY) config: AppConfig,
  ) {
    this.settings = config.imageApi;
  }

  get isConfigured(): boolean {
    return this.settings.key !== undefined;
  }

  /**
   * One 1024x1024 standard image, returned as a URL.
   * When `signal` aborts, the call is cut (the upstream sees its connection
   * close) and the signal's reason is thrown.
   */
  async generateImageUrl(
    prompt: string,
    signal?: AbortSignal,
    attempt = 1,
  ): Promise<string> {
    // The attempt's span holds the HTTP client span of its request (the
    // http instrumentation's), with the attempt number and how it ended.
    return inSpan(
      'image_api.call',
      { attributes: { 'image_api.attempt': attempt } },
      async (span) => {
        const started = process.hrtime.bigint();
        const record = (outcome: ImageApiCallOutcome) => {
          annotate(span, { 'image_api.outcome': outcome });
          this.metrics.recordCall(
            outcome,
            Number(process.hrtime.bigint() - started) / 1e9,
          );
        };
        try {
          const imageUrl = await this.callOnce(prompt, signal, (status) =>
            annotate(span, { 'http.response.status_code': status }),
          );
          record('success');
          return imageUrl;
        } catch (error) {
          record(
            signal?.aborted
              ? 'cancelled'
              : error instanceof ImageApiCallError
                ? error.outcome
                : 'unreachable',
          );
          throw error;
        }
      },
    );
  }

  private async callOnce(
    prompt: string,
    signal: AbortSignal | undefined,
    onStatus: (status: number) => void,
  ): Promise<string> {
    const { key, url, model, timeoutMs } = this.settings;
    if (key === undefined) throw new Error('The image API key is not set');

    // axios's own timeout only limits silence on the socket; the timeout
    // signal bounds the whole call, however slowly bytes trickle in.
    const callSignal = signal
      ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
      : AbortSignal.timeout(timeoutMs);
    let status: number;
    let body: unknown;
    let retryAfter: string | undefined;
    try {
      const response = await firstValueFrom(
        this.http.post<unknown>(
          url,
          {
            model,
            prompt,
            n: 1,
            size: '1024x1024',
            quality: 'standard',
            response_format: 'url',
          },
          {
            headers: {
              Authorization: `Bearer ${key}`,
              'Content-Type': 'application/json',
            },
            timeout: timeoutMs,
            signal: callSignal,
            // Every status is read here; axios must not throw on 4xx/5xx.
            validateStatus: () => true,
            maxRedirects: 0,
            // axios stops reading and fails once this much has arrived.
            maxContentLength: MAX_UPSTREAM_RESPONSE_BYTES,
          },
        ),
      );
      status = response.status;
      onStatus(status);
      body = response.data;
      const header: unknown = response.headers['retry-after'];
      retryAfter = typeof header === 'string' ? header : undefined;
    } catch (error) {
      // The caller gave up (it disconnected, or its deadline passed): that,
      // not the cut connection, is what happened.
      if (signal?.aborted) throw signal.reason;
      // A broken answer, not a passing hiccup: not retried.
      if (isOversizedResponse(error)) {
        throw new ImageApiCallError(
          OVERSIZED_RESPONSE_MESSAGE,
          false,
          undefined,
          'invalid_response',
        );
      }
      const timedOut = isTimeout(error);
      throw new ImageApiCallError(
        timedOut ? TIMEOUT_MESSAGE : UNREACHABLE_MESSAGE,
        true,
        undefined,
        timedOut ? 'timeout' : 'unreachable',
        `host ${new URL(url).host}, ${socketErrorCode(error)}`,
      );
    }

    if (status < 200 || status >= 300) {
      const message = upstreamErrorMessage(body) ?? LOGO_GENERIC_FAILURE;
      throw new ImageApiCallError(
        message.split(key).join('[redacted]'),
        isRetryableStatus(status),
        parseRetryAfter(retryAfter),
        'error_response',
      );
    }
    const imageUrl = firstImageUrl(body);
    // A 2xx without a URL is a broken answer, not a passing hiccup.
    if (!imageUrl) {
      throw new ImageApiCallError(
        INVALID_RESPONSE_MESSAGE,
        false,
        undefined,
        'invalid_response',
      );
    }
    return imageUrl;
  }
}

/** `{ error: { message } }`, as OpenAI-compatible APIs report failures. */
function upstreamErrorMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && message.trim() !== ''
    ? message
    : undefined;
}

/** `{ data: [{ url }] }` */
function firstImageUrl(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length === 0) return undefined;
  const first: unknown = data[0];
  if (typeof first !== 'object' || first === null) return undefined;
  const url = (first as { url?: unknown }).url;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

function isOversizedResponse(error: unknown): boolean {
  return (
    isAxiosError(error) &&
    error.code === 'ERR_BAD_RESPONSE' &&
    error.message.includes('maxContentLength')
  );
}

/**
 * A timeout and a lost connection are both retried; they differ in what the
 * client is told and in the metrics.
 */
/**
 * The code of a failed connection (ECONNREFUSED, ENOTFOUND, ETIMEDOUT…),
 * for the log: axios puts it on its error, or on the error it wraps.
 */
function socketErrorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = isAxiosError(error) ? error.code : undefined;
  if (typeof code === 'string') return code;
  return typeof cause?.code === 'string' ? cause.code : 'no error code';
}

function isTimeout(error: unknown): boolean {
  const code = isAxiosError(error) ? error.code : undefined;
  return (
    code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === 'ERR_CANCELED'
  );
}
