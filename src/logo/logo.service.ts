import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { logoConfig } from './logo.config';
import type { CallContext } from '../common/call-context';
import type { IdempotentRequest } from '../idempotency/idempotency-key.decorator';
import { IdempotencyService } from '../idempotency/idempotency.service';
import type { Replayed } from '../idempotency/replayed';
import type { GeneratedLogo, LogoImage } from './generated-logo';
import type { GenerateLogoDto } from './dto/generate-logo.dto';
import { HostedLogos } from './hosted-logos';
import { ImageApiClient, type GeneratedImage } from './image-api.client';
import { ImageEditsClient, type EditSource } from './image-edits.client';
import { retiredModelWarning } from './image-models';
import { expiryOfImageUrl } from './image-url-expiry';
import { InputValidationException } from '../failures/input-validation.error';
import {
  capabilitiesOf,
  defaultLogoFormat,
  type ModelCapabilities,
} from './providers/model-capabilities';
import {
  INVALID_RESPONSE_MESSAGE,
  KEY_MISSING_MESSAGE,
  LOGO_MAX_COLORS,
  LOGO_STYLES,
  TIMEOUT_MESSAGE,
  type LogoFormat,
} from './logo.constants';
import { LogoGenerationError } from './logo-generation.error';
import { buildLogoPrompt } from './logo-prompt';
import { LogoQueue } from './logo-queue';
import { LogoRateLimit } from './logo-rate-limit';
import { RetryingImageApi } from './retrying-image-api';
import { annotate, inSpan } from '../tracing/spans';
import { UsageService } from '../usage/usage.service';
import type { UpstreamBudget } from './upstream-budget';

/** Beyond the deadline, time for the answer to be stored. */
const LEASE_MARGIN_MS = 10_000;

@Injectable()
export class LogoService implements OnApplicationBootstrap {
  private readonly logger = new Logger(LogoService.name);
  private readonly deadlineMs: number;
  private readonly model: string;
  private readonly quality: string;
  /** The configured call answers base64: logos are hosted here. */
  private readonly hostsImages: boolean;
  /** What IMAGE_MODEL draws, by the capability registry. */
  private readonly formats: ModelCapabilities['formats'];

  constructor(
    private readonly imageApi: ImageApiClient,
    private readonly upstream: RetryingImageApi,
    private readonly queue: LogoQueue,
    private readonly rateLimit: LogoRateLimit,
    private readonly idempotency: IdempotencyService,
    private readonly hostedLogos: HostedLogos,
    private readonly edits: ImageEditsClient,
    private readonly usage: UsageService,
    @Inject(logoConfig.KEY) config: ConfigType<typeof logoConfig>,
  ) {
    this.deadlineMs = config.imageApi.deadlineMs;
    this.model = config.imageApi.model;
    this.quality = config.imageApi.quality;
    this.formats = capabilitiesOf(
      config.imageApi.model,
      config.imageApi.provider,
    ).formats;
    this.hostsImages = imageApi.answersBase64;
  }

  /** One warning when IMAGE_MODEL names a model the provider retired. */
  onApplicationBootstrap(): void {
    const warning = retiredModelWarning({ model: this.model });
    if (warning) this.logger.warn(warning);
  }

  /**
   * A generated logo, or the stored answer of a retry. With an
   * Idempotency-Key, a retry of a
   * request that succeeded gets the same logo URL without a second paid
   * upstream call; the key is held for the request's deadline (plus a
   * margin), after which a crashed holder's key can be used again.
   */
  async respond(
    request: GenerateLogoDto,
    caller: CallContext,
    key?: IdempotentRequest<GeneratedLogo>,
  ): Promise<GeneratedLogo | Replayed> {
    const work = (): Promise<GeneratedLogo> => this.generate(request, caller);
    return key
      ? this.idempotency.run(key, this.deadlineMs + LEASE_MARGIN_MS, work)
      : work();
  }

  /**
   * Returns the temporary URL of one generated logo and its expiry: the
   * upstream's own (expiring when it says, if it says), or, when the
   * upstream answered the image itself, one of this service (HostedLogos),
   * valid for LOGO_URL_TTL_S.
   */
  async generate(
    request: GenerateLogoDto,
    caller: CallContext,
  ): Promise<GeneratedLogo> {
    // Before anything is paid for: a request whose origin cannot be told
    // (a malformed Host) would get no usable URL.
    const baseUrl =
      this.imageApi.isConfigured && this.hostsImages
        ? caller.baseUrl()
        : undefined;
    const format = this.formatFor(request.format);
    const prompt = buildLogoPrompt(request);
    const image = await this.callUpstream(caller, (signal, deadlineAt) =>
      this.upstream.generateImage(prompt, signal, deadlineAt, { format }),
    );
    if (image.kind === 'url') {
      return {
        logoUrl: image.url,
        expiresAt: expiryOfImageUrl(image.url)?.toISOString() ?? null,
      };
    }
    const hosted = await this.hostedLogos.host(
      {
        bytes: image.bytes,
        type: image.type,
        prompt,
        model: image.model ?? this.model,
      },
      baseUrl ?? caller.baseUrl(),
    );
    return { logoUrl: hosted.url, expiresAt: hosted.expiresAt.toISOString() };
  }

  /**
   * One generated logo's bytes (PNG, JPEG or WebP, at most
   * IMAGE_MAX_BYTES): every model is asked for base64, through the same
   * line, rate limit, deadline and retries as a generated logo's URL.
   * `prompt`: buildLogoPrompt's, which the caller keeps with the image.
   */
  async generateImage(
    prompt: string,
    caller: UpstreamBudget,
    format?: LogoFormat,
  ): Promise<LogoImage> {
    const options = { bytes: true, format: this.formatFor(format) };
    const image = await this.callUpstream(caller, (signal, deadlineAt) =>
      this.upstream.generateImage(prompt, signal, deadlineAt, options),
    );
    return this.keptImage(image, prompt);
  }

  /**
   * One edit of a kept logo (its bytes and media type) by the provider's
   * edit endpoint, through the same line, rate limit, deadline and retries
   * as a generated one. `prompt`: buildLogoEditPrompt's (or a graphic's
   * background's); `size`: one the model takes, else the logo's 1024x1024.
   */
  async editImage(
    source: EditSource,
    prompt: string,
    caller: UpstreamBudget,
    size?: string,
  ): Promise<LogoImage> {
    if (!this.imageApi.isConfigured) {
      throw new LogoGenerationError(KEY_MISSING_MESSAGE);
    }
    // Encoded once: every retry sends the same form.
    const form = await this.edits.form(source, prompt, size);
    const image = await this.callUpstream(
      caller,
      (signal, deadlineAt) =>
        this.upstream.withRetries(
          (attempt) => this.edits.send(form, signal, attempt),
          signal,
          deadlineAt,
        ),
      size,
    );
    return this.keptImage(image, prompt);
  }

  private keptImage(image: GeneratedImage, prompt: string): LogoImage {
    // Asked for base64, an upstream that answers a URL broke the contract.
    if (image.kind !== 'bytes') {
      throw new LogoGenerationError(
        INVALID_RESPONSE_MESSAGE,
        undefined,
        'upstream_invalid_answer',
      );
    }
    return {
      bytes: image.bytes,
      type: image.type,
      prompt,
      model: image.model ?? this.model,
    };
  }

  /** IMAGE_MODEL draws SVG (Recraft's vector models): icons are asked of it. */
  get drawsSvg(): boolean {
    return this.formats.includes('svg');
  }

  /**
   * The format to ask IMAGE_MODEL for: the one asked, else PNG, or SVG for a
   * model that draws nothing else. 400 (before anything is paid) for SVG
   * from a model that cannot draw it.
   */
  formatFor(requested: LogoFormat | undefined): LogoFormat {
    if (requested === 'svg' && !this.formats.includes('svg')) {
      throw new InputValidationException([
        {
          path: ['format'],
          message: `The image model ${this.model} cannot draw svg; GET /api/ai/models lists what each model draws`,
          code: 'invalid_enum_value',
        },
      ]);
    }
    return requested ?? defaultLogoFormat({ formats: this.formats });
  }

  /**
   * Validation has already passed (400 first, even without a key). Then, in
   * this order: the key (500, never counted: it costs nothing); a call slot
   * or a place in line (503 at once when the line is full, not counted
   * either); the client's rate limit (429); the wait for a slot; the call
   * with its retries. The deadline covers everything from the line on.
   */
  private async callUpstream(
    caller: UpstreamBudget,
    call: (signal: AbortSignal, deadlineAt: number) => Promise<GeneratedImage>,
    size = '1024x1024',
  ): Promise<GeneratedImage> {
    if (!this.imageApi.isConfigured) {
      throw new LogoGenerationError(
        KEY_MISSING_MESSAGE,
        undefined,
        'image_api_not_configured',
      );
    }
    // Reserved in the usage ledger before the line: over a budget, nothing
    // waits and nothing is sent (429 budget_exceeded).
    return this.usage.metered(
      caller.usage ?? {
        userKey: caller.clientKey,
        projectId: null,
        taskId: null,
      },
      {
        kind: 'image',
        model: this.model,
        units: { images: 1, inputTokens: 0, outputTokens: 0 },
        size,
        quality: this.quality,
      },
      () => this.callInLine(caller, call),
      (image) => ({
        model: image.model ?? this.model,
        units: {
          images: 1,
          inputTokens: image.usage?.inputTokens ?? 0,
          outputTokens: image.usage?.outputTokens ?? 0,
        },
      }),
    );
  }

  /** The line, the rate limit and the call, once the spend is reserved. */
  private async callInLine(
    caller: UpstreamBudget,
    call: (signal: AbortSignal, deadlineAt: number) => Promise<GeneratedImage>,
  ): Promise<GeneratedImage> {
    const ticket = this.queue.admit(caller.clientKey, caller.address);
    const deadline = startDeadline(this.deadlineMs);
    const signal = AbortSignal.any([caller.signal, deadline.signal]);
    try {
      await inSpan('logo.rate_limit', {}, async (span) => {
        annotate(span, { 'logo.rate_limit.enabled': this.rateLimit.enabled });
        await this.rateLimit.consume(caller.clientKey);
      });
      // The wait for a call slot: zero when one was free at once.
      await inSpan(
        'logo.queue.wait',
        { attributes: { 'logo.queue.waiting': this.queue.waiting } },
        () => ticket.acquired(signal),
      );
      const image = await call(signal, deadline.at);
      if (image.usage) {
        caller.addLogFields?.({
          imageInputTokens: image.usage.inputTokens,
          imageOutputTokens: image.usage.outputTokens,
        });
      }
      return image;
    } finally {
      ticket.release();
      deadline.clear();
    }
  }

  /** The generator information of GET /api/ai/generate-logo. */
  describe() {
    const configured = this.imageApi.isConfigured;
    return {
      service: 'Image-model logo generator',
      status: configured ? 'configured' : 'not_configured',
      message: configured
        ? 'Logo generator is ready'
        : "IMAGE_API_KEY was not found. Add IMAGE_API_KEY to the server's environment variables to enable logo generation.",
      supportedStyles: [...LOGO_STYLES],
      maxColors: LOGO_MAX_COLORS,
    };
  }
}

/**
 * IMAGE_API_DEADLINE_MS from now. Its signal aborts with the timeout
 * message as reason, so whatever is waiting (the line, a call, a backoff)
 * ends with the documented 500.
 */
function startDeadline(ms: number): {
  at: number;
  signal: AbortSignal;
  clear(): void;
} {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new LogoGenerationError(TIMEOUT_MESSAGE, undefined, 'upstream_timeout'),
      ),
    ms,
  );
  return {
    at: Date.now() + ms,
    signal: controller.signal,
    clear: () => clearTimeout(timer),
  };
}
