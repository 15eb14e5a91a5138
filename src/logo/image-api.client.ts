import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { isAxiosError } from 'axios';
import { addAbortSignal, type Readable } from 'node:stream';
import { firstValueFrom } from 'rxjs';
import type { ConfigType } from '@nestjs/config';
import { logoConfig, type ImageApiConfig } from './logo.config';
import { sniffImageType, type ImageType } from '../image-store/image-type';
import {
  AnswerDecoderFailure,
  Base64AnswerDecoder,
  type AnswerReader,
  type DecodedAnswer,
} from './base64-answer-decoder';
import { ImageApiCallError } from './image-api-call.error';
import { expectsBase64, logoImageRequest } from './image-models';
import { buildImageRequest } from './providers/build-image-request';
import { ImageModelLifecycle } from './providers/image-model-lifecycle';
import { ModelNotFoundError } from './providers/model-not-found.error';
import { upstreamErrorCode } from './upstream-error-code';
import { LogoMetrics, type ImageApiCallOutcome } from './logo-metrics';
import {
  IMAGE_TOO_LARGE_MESSAGE,
  INVALID_RESPONSE_MESSAGE,
  LOGO_GENERIC_FAILURE,
  MAX_UPSTREAM_RESPONSE_BYTES,
  NO_IMAGE_DATA_MESSAGE,
  NOT_AN_IMAGE_MESSAGE,
  OVERSIZED_RESPONSE_MESSAGE,
  TIMEOUT_MESSAGE,
  TOO_MANY_PIXELS_MESSAGE,
  UNREACHABLE_MESSAGE,
  UNREADABLE_IMAGE_MESSAGE,
  UNSAFE_IMAGE_URL_MESSAGE,
} from './logo.constants';
import { readImageDimensions } from '../image-store/image-dimensions';
import { isPassableImageUrl } from './passed-on-image-url';
import { isRetryableStatus, parseRetryAfter } from './retry-policy';
import { annotate, inSpan } from '../tracing/spans';
import { keyRedactor } from '../logging/key-redaction';

/** What the call cost, as the upstream reports it (GPT image models). */
export interface ImageUsage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * How the answer should come: `bytes` asks every model for base64 (a kept
 * logo needs the image itself); by default the configured model decides
 * (IMAGE_RESPONSE_FORMAT for models that take it).
 */
export interface ImageCallOptions {
  bytes?: boolean;
  /** `svg` asks a model that draws SVG for it (default `png`). */
  format?: 'png' | 'svg';
}

/** One call's request: where it goes, its body, and whether it answers base64. */
export interface ImageApiRequest {
  url: string;
  /** JSON (an object) or an encoded body (a Buffer). */
  body: unknown;
  contentType: string;
  base64: boolean;
  /** An SVG answer is an image too (a model asked for one). */
  svg?: boolean;
  /** The model the call names, for its span. */
  model?: string;
}

/**
 * One generated image: a URL of the upstream's to pass on, or the image
 * itself (decoded from base64 and checked to be a PNG, JPEG or WebP).
 */
export type GeneratedImage = {
  usage?: ImageUsage;
  /** The model that drew it: IMAGE_MODEL or one of IMAGE_FALLBACK_MODELS. */
  model?: string;
} & (
  | { kind: 'url'; url: string }
  | { kind: 'bytes'; bytes: Buffer; type: ImageType }
);

/**
 * The OpenAI-compatible image generation endpoint (IMAGE_API_URL), one call
 * at a time: retries are RetryingImageApi's job, and axios has none of its
 * own, so they never multiply. Every failure of the call leaves as an
 * ImageApiCallError whose text is safe to show: the key is never part of
 * it, and neither is a socket error or an address.
 */
/** A call's answer as it came: its status, Retry-After and body. */
interface SentCall {
  status: number;
  /** The parsed JSON body (a url answer). */
  data: unknown;
  retryAfter: string | undefined;
  /** The decoding worker's reader (a base64 answer). */
  reader: AnswerReader | undefined;
}

/**
 * What a call that failed on the way is: the caller's own reason when it
 * gave up (it disconnected, or its deadline passed: that, not the cut
 * connection, is what happened), else an ImageApiCallError.
 */
function failedCall(
  error: unknown,
  url: string,
  signal: AbortSignal | undefined,
  callSignal: AbortSignal,
): unknown {
  if (signal?.aborted) return signal.reason;
  // A broken answer, not a passing hiccup: not retried.
  if (error instanceof OversizedAnswer || isOversizedResponse(error)) {
    return new ImageApiCallError(
      OVERSIZED_RESPONSE_MESSAGE,
      false,
      undefined,
      'invalid_response',
    );
  }
  // The call's own signal ends it only by its timeout here.
  const timedOut = callSignal.aborted || isTimeout(error);
  return new ImageApiCallError(
    timedOut ? TIMEOUT_MESSAGE : UNREACHABLE_MESSAGE,
    true,
    undefined,
    timedOut ? 'timeout' : 'unreachable',
    `host ${new URL(url).host}, ${socketErrorCode(error)}`,
  );
}

@Injectable()
export class ImageApiClient {
  private readonly settings: ImageApiConfig;

  constructor(
    private readonly http: HttpService,
    private readonly metrics: LogoMetrics,
    private readonly decoder: Base64AnswerDecoder,
    private readonly lifecycle: ImageModelLifecycle,
    @Inject(logoConfig.KEY) config: ConfigType<typeof logoConfig>,
  ) {
    this.settings = config.imageApi;
  }

  get isConfigured(): boolean {
    return this.settings.key !== undefined;
  }

  /** The configured call answers base64: logos are hosted here. */
  get answersBase64(): boolean {
    return expectsBase64(this.settings);
  }

  /**
   * One 1024x1024 image: a URL (the documented request), or the decoded
   * bytes of a base64 answer (GPT image models, IMAGE_RESPONSE_FORMAT).
   * When `signal` aborts, the call is cut (the upstream sees its connection
   * close) and the signal's reason is thrown.
   */
  async generateImage(
    prompt: string,
    signal?: AbortSignal,
    attempt = 1,
    options: ImageCallOptions = {},
  ): Promise<GeneratedImage> {
    // A model the provider says does not exist is replaced by the next of
    // IMAGE_FALLBACK_MODELS, each asked with its own capabilities.
    const models = [this.settings.model, ...this.settings.fallbackModels];
    for (const [index, model] of models.entries()) {
      try {
        const image = await this.send(
          this.generationRequest(model, prompt, options),
          signal,
          attempt,
        );
        return { ...image, model };
      } catch (error) {
        if (error instanceof ModelNotFoundError) this.lifecycle.markGone(model);
        if (
          !(error instanceof ModelNotFoundError) ||
          index === models.length - 1
        )
          throw error;
      }
    }
    throw new Error('No image model is configured');
  }

  /** A generation by `model`, its body built from the model's capabilities. */
  private generationRequest(
    model: string,
    prompt: string,
    options: ImageCallOptions,
  ): ImageApiRequest {
    const call = buildImageRequest(
      this.settings.provider,
      model,
      logoImageRequest(
        prompt,
        this.settings,
        options.bytes ?? false,
        options.format,
      ),
      this.settings,
    );
    return {
      url: this.settings.url,
      body: call.body,
      contentType: 'application/json',
      base64: call.answer === 'base64',
      svg: options.format === 'svg',
      model,
    };
  }

  /**
   * One call of the images API with a body of its own (a generation's
   * JSON, an edit's multipart form), timed, traced, counted and mapped to
   * ImageApiCallError. The key goes only in the Authorization header.
   */
  send(
    request: ImageApiRequest,
    signal?: AbortSignal,
    attempt = 1,
  ): Promise<GeneratedImage> {
    // The attempt's span holds the HTTP client span of its request (the
    // http instrumentation's), with the attempt number and how it ended.
    return inSpan(
      'image_api.call',
      {
        attributes: {
          'image_api.attempt': attempt,
          ...(request.model ? { 'image_api.model': request.model } : {}),
        },
      },
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
          const image = await this.callOnce(request, signal, (status) =>
            annotate(span, { 'http.response.status_code': status }),
          );
          record('success');
          return image;
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
    request: ImageApiRequest,
    signal: AbortSignal | undefined,
    onStatus: (status: number) => void,
  ): Promise<GeneratedImage> {
    const { key } = this.settings;
    if (key === undefined) throw new Error('The image API key is not set');
    const sent = await this.post(request, key, signal, onStatus);
    return this.answerOf(request, key, sent);
  }

  /**
   * One POST, its answer read within the limits (a base64 answer streamed
   * to the decoding worker); a call that fails on the way is an
   * ImageApiCallError (timeout, unreachable, oversized), or the caller's
   * own reason when it gave up.
   */
  private async post(
    request: ImageApiRequest,
    key: string,
    signal: AbortSignal | undefined,
    onStatus: (status: number) => void,
  ): Promise<SentCall> {
    const { timeoutMs, maxImageBytes } = this.settings;
    const { url, base64 } = request;

    // axios's own timeout only limits silence on the socket; the timeout
    // signal bounds the whole call, however slowly bytes trickle in.
    const callSignal = signal
      ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
      : AbortSignal.timeout(timeoutMs);
    let status: number;
    let data: unknown;
    let retryAfter: string | undefined;
    let reader: AnswerReader | undefined;
    const answerLimit = base64
      ? base64Length(maxImageBytes) + MAX_UPSTREAM_RESPONSE_BYTES
      : MAX_UPSTREAM_RESPONSE_BYTES;
    try {
      const response = await firstValueFrom(
        this.http.post<unknown>(url, request.body, {
          headers: {
            Authorization: `Bearer ${key}`,
            'Content-Type': request.contentType,
          },
          timeout: timeoutMs,
          signal: callSignal,
          // Every status is read here; axios must not throw on 4xx/5xx.
          validateStatus: () => true,
          // A base64 answer is megabytes: its chunks go to the worker
          // thread that reads it as they arrive (below), so this thread
          // never joins, parses or decodes them.
          ...(base64 ? { responseType: 'stream' as const } : {}),
          maxRedirects: 0,
          // axios fails an answer announced larger than this (and stops
          // reading one that grows past it): room for the largest image
          // kept when the answer is base64, which streamTo also enforces.
          maxContentLength: answerLimit,
        }),
      );
      status = response.status;
      onStatus(status);
      if (base64) {
        reader = this.decoder.reader(maxImageBytes);
        await streamTo(
          response.data as Readable,
          reader,
          answerLimit,
          callSignal,
        );
      } else {
        data = response.data;
      }
      const header: unknown = response.headers['retry-after'];
      retryAfter = typeof header === 'string' ? header : undefined;
    } catch (error) {
      reader?.abandon();
      throw failedCall(error, url, signal, callSignal);
    }
    return { status, data, retryAfter, reader };
  }

  /** The image (or its URL) of an answer, or the failure it says. */
  private async answerOf(
    request: ImageApiRequest,
    key: string,
    { status, data, retryAfter, reader }: SentCall,
  ): Promise<GeneratedImage> {
    const { base64 } = request;
    const succeeded = status >= 200 && status < 300;
    const answer = reader
      ? await this.readBase64(reader, succeeded)
      : { body: data, image: undefined };
    const body = answer.body;

    if (!succeeded) {
      const message = keyRedactor(key)(
        upstreamErrorMessage(body) ?? LOGO_GENERIC_FAILURE,
      );
      if (status === 404 || providerErrorCode(body) === 'model_not_found') {
        throw new ModelNotFoundError(message);
      }
      const code = upstreamErrorCode(status, body);
      throw new ImageApiCallError(
        // The key in any form it could be echoed in (masked, encoded).
        message,
        // A moderation refusal would be refused (and maybe billed) again.
        code !== 'moderation_blocked' && isRetryableStatus(status),
        parseRetryAfter(retryAfter),
        'error_response',
        undefined,
        code,
      );
    }
    const usage = usageOf(body);
    if (usage) this.metrics.recordUsage(usage);
    if (base64) {
      const image = checkImage(
        answer.image,
        request.svg === true,
        this.settings.maxImagePixels,
      );
      return { kind: 'bytes', ...image, ...(usage ? { usage } : {}) };
    }
    const imageUrl = firstImageField(body, 'url');
    // A 2xx without a URL is a broken answer, not a passing hiccup.
    if (!imageUrl) throw invalidResponse(INVALID_RESPONSE_MESSAGE);
    // Passed on to browsers as it is: only https to a public host (or the
    // image API's own origin), never script, a document or an inner address.
    if (!isPassableImageUrl(imageUrl, this.settings.url)) {
      throw invalidResponse(UNSAFE_IMAGE_URL_MESSAGE);
    }
    return { kind: 'url', url: imageUrl, ...(usage ? { usage } : {}) };
  }

  /**
   * A base64 answer read by the worker thread, in the span of its decoding
   * when it succeeded. A worker that dies on it (an answer too large for
   * its heap) makes it a broken answer.
   */
  private readBase64(
    reader: AnswerReader,
    decode: boolean,
  ): Promise<{ body: unknown; image: DecodedAnswer['image'] | undefined }> {
    const read = () =>
      reader.finish(decode).catch((error) => {
        if (error instanceof AnswerDecoderFailure) {
          throw invalidResponse(INVALID_RESPONSE_MESSAGE);
        }
        throw error;
      });
    if (!decode) return read();
    return inSpan('logo.image.decode', {}, async (span) => {
      const answer = await read();
      if (answer.image.kind === 'bytes') {
        annotate(span, { 'logo.image.bytes': answer.image.bytes.length });
        const type = sniffImageType(answer.image.bytes, { svg: true });
        if (type) annotate(span, { 'logo.image.media_type': type.mediaType });
      }
      return answer;
    });
  }
}

/** A streamed answer went past its limit. */
class OversizedAnswer extends Error {}

/**
 * Chunks of a streamed answer are handed to the worker about this many
 * bytes at a time, in one message (transferred, never joined here).
 */
const HAND_OVER_BYTES = 1024 * 1024;

/**
 * Hands a streamed answer to `reader` as it arrives, failing once more
 * than `limit` bytes arrive or when `signal` aborts. Each socket read is
 * its own turn of the event loop ('data' events, not an async iterator,
 * which would drain everything already buffered in one turn).
 */
function streamTo(
  body: Readable,
  reader: AnswerReader,
  limit: number,
  signal: AbortSignal,
): Promise<void> {
  addAbortSignal(signal, body);
  return new Promise<void>((resolve, reject) => {
    let received = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const handOver = () => {
      if (pendingBytes === 0) return;
      reader.push(pending);
      pending = [];
      pendingBytes = 0;
    };
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        body.destroy(new OversizedAnswer());
        return;
      }
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= HAND_OVER_BYTES) handOver();
    });
    body.once('end', () => {
      handOver();
      resolve();
    });
    body.once('error', reject);
    // Closed before its end without an error (the connection went away).
    body.once('close', () => reject(new Error('The answer was cut short')));
  });
}

/** A broken answer, not a passing hiccup: never retried. */
const invalidResponse = (message: string) =>
  new ImageApiCallError(message, false, undefined, 'invalid_response');

/** The base64 text of `bytes` bytes. */
const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

/**
 * The image of a base64 answer, as the worker decoded it: its length was
 * checked before anything was decoded, so an oversized answer cost no
 * decoding; then the bytes must be a PNG, JPEG or WebP whose header states
 * at most `maxPixels` pixels (a small file can claim a size whose decoding
 * would take gigabytes: it is never hosted or kept).
 */
function checkImage(
  image: DecodedAnswer['image'] | undefined,
  svgAsked: boolean,
  maxPixels: number,
): {
  bytes: Buffer;
  type: ImageType;
} {
  if (!image || image.kind === 'missing') {
    throw invalidResponse(NO_IMAGE_DATA_MESSAGE);
  }
  if (image.kind === 'too_large')
    throw invalidResponse(IMAGE_TOO_LARGE_MESSAGE);
  const type = sniffImageType(image.bytes, { svg: svgAsked });
  if (!type) throw invalidResponse(NOT_AN_IMAGE_MESSAGE);
  if (type.mediaType !== 'image/svg+xml') {
    const size = readImageDimensions(image.bytes, type);
    if (!size) throw invalidResponse(UNREADABLE_IMAGE_MESSAGE);
    if (size.width * size.height > maxPixels) {
      throw invalidResponse(TOO_MANY_PIXELS_MESSAGE);
    }
  }
  return { bytes: image.bytes, type };
}

/** `usage.input_tokens` and `usage.output_tokens`, when both are counts. */
function usageOf(body: unknown): ImageUsage | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const usage = (body as { usage?: unknown }).usage;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { input_tokens: input, output_tokens: output } = usage as Record<
    string,
    unknown
  >;
  const count = (value: unknown) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
  return count(input) && count(output)
    ? { inputTokens: input as number, outputTokens: output as number }
    : undefined;
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

/** `{ error: { code } }`: model_not_found names a model that does not exist. */
function providerErrorCode(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** `{ data: [{ url }] }` or `{ data: [{ b64_json }] }` */
function firstImageField(
  body: unknown,
  field: 'url' | 'b64_json',
): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length === 0) return undefined;
  const first: unknown = data[0];
  if (typeof first !== 'object' || first === null) return undefined;
  const value = (first as Record<string, unknown>)[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
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
