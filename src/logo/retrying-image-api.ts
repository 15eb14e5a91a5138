import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { logoConfig } from './logo.config';
import { ImageApiCallError } from './image-api-call.error';
import {
  ImageApiClient,
  type GeneratedImage,
  type ImageCallOptions,
} from './image-api.client';
import { delayBeforeRetry, type RetrySettings } from './retry-policy';
import { inSpan } from '../tracing/spans';

/**
 * The image API with retries: a call that failed with 429, 5xx, a timeout or
 * a lost connection is tried again, up to IMAGE_API_MAX_RETRIES times, after
 * a backoff or the upstream's (capped) Retry-After — never past the
 * request's deadline. What the client sees is the last call's failure.
 */
@Injectable()
export class RetryingImageApi {
  private readonly retry: RetrySettings;

  constructor(
    private readonly client: ImageApiClient,
    @Inject(logoConfig.KEY) config: ConfigType<typeof logoConfig>,
  ) {
    const { maxRetries, retryBaseMs, retryMaxMs, retryAfterCapMs } =
      config.imageApi;
    this.retry = {
      maxRetries,
      baseMs: retryBaseMs,
      maxMs: retryMaxMs,
      retryAfterCapMs,
    };
  }

  /**
   * `signal` aborts when the caller disconnects or the deadline (`deadlineAt`,
   * epoch ms) passes; its reason is then thrown, whatever call was running.
   */
  async generateImage(
    prompt: string,
    signal: AbortSignal,
    deadlineAt: number,
    options: ImageCallOptions = {},
  ): Promise<GeneratedImage> {
    return this.withRetries(
      (attempt) => this.client.generateImage(prompt, signal, attempt, options),
      signal,
      deadlineAt,
    );
  }

  /**
   * `call` (given its attempt number, from 1) under the same policy: any
   * call of the images API, an edit as well as a generation.
   */
  async withRetries<T>(
    call: (attempt: number) => Promise<T>,
    signal: AbortSignal,
    deadlineAt: number,
  ): Promise<T> {
    for (let retryIndex = 0; ; retryIndex++) {
      try {
        return await call(retryIndex + 1);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (
          !(error instanceof ImageApiCallError) ||
          !error.retryable ||
          retryIndex >= this.retry.maxRetries
        ) {
          throw error;
        }
        const wait = delayBeforeRetry(
          retryIndex,
          error.retryAfterMs,
          this.retry,
        );
        // A retry that could not start before the deadline could not finish
        // either: the upstream's own answer says more than a timeout would.
        if (Date.now() + wait >= deadlineAt) throw error;
        await inSpan(
          'image_api.backoff',
          {
            attributes: {
              'image_api.retry': retryIndex + 1,
              'image_api.backoff_ms': wait,
              ...(error.retryAfterMs !== undefined
                ? { 'image_api.retry_after_ms': error.retryAfterMs }
                : {}),
            },
          },
          () => sleep(wait, signal),
        );
      }
    }
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
