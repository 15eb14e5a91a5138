import { pixelBombPng } from './pixel-bomb-png';
import {
  DEV_IMAGE_REPLIES,
  type DevImageReplyKind,
} from './dev-image-api.config';

/** How long to hold the call, and extra response headers (Retry-After). */
interface ReplyExtras {
  latencyMs?: number;
  headers?: Record<string, string>;
}

/**
 * What the dev image API answers to one generation call: a drawn logo (the
 * default), a status with a JSON body, a status with a text body, a
 * connection reset with no answer at all, or one of the faults a real
 * upstream shows (see `Replies`).
 */
export type DevReply = ReplyExtras &
  (
    | { image: true }
    | { status: number; json: unknown }
    | { status: number; text: string; contentType?: string }
    | { resetConnection: true }
    | { noAnswer: true }
    | { status: number; json: unknown; resetAfterBytes: number }
    | { status: number; json: unknown; trickleEveryMs: number }
    | { status: number; json: unknown; paddingBytes: number }
  );

/** The URL of `Replies.success()`: a fixed value tests can compare with. */
export const FAKE_IMAGE_URL = 'https://images.example.test/generated/logo.png';

export const Replies = {
  /** Draws an SVG logo from the prompt and answers with its URL here. */
  image: (): DevReply => ({ image: true }),
  /** A success whose URL is given (no image is drawn). */
  success: (url = FAKE_IMAGE_URL): DevReply => ({
    status: 200,
    json: { created: 1_700_000_000, data: [{ url }] },
  }),
  /** An OpenAI-style error: `{error: {message, type}}`. */
  error: (status: number, message: string): DevReply => ({
    status,
    json: { error: { message, type: 'invalid_request_error' } },
  }),
  /**
   * The provider's safety system refusing the prompt: 400 with
   * `error.code: "moderation_blocked"`, as the GPT image models answer.
   */
  moderationBlocked: (
    message = 'Your request was rejected by the safety system. If you believe this is an error, contact us.',
  ): DevReply => ({
    status: 400,
    json: {
      error: {
        message,
        type: 'image_generation_user_error',
        param: null,
        code: 'moderation_blocked',
      },
    },
  }),
  errorWithoutMessage: (status: number): DevReply => ({
    status,
    json: { error: {} },
  }),
  /** A GPT-image style success carrying `bytes` as base64, and its usage. */
  base64: (
    bytes: Buffer,
    usage = { input_tokens: 50, output_tokens: 272 },
  ): DevReply => ({
    status: 200,
    json: {
      created: 1_700_000_000,
      data: [{ b64_json: bytes.toString('base64') }],
      usage: {
        ...usage,
        total_tokens: usage.input_tokens + usage.output_tokens,
      },
    },
  }),
  /** A base64 success whose PNG claims 50,000×50,000 pixels in ~12 KB. */
  pixelBomb: (): DevReply => Replies.base64(pixelBombPng()),
  /** 200 without an image URL. */
  withoutImage: (): DevReply => ({
    status: 200,
    json: { created: 1, data: [] },
  }),
  notJson: (status: number): DevReply => ({
    status,
    text: '<html>upstream proxy error</html>',
  }),
  /** The connection is reset before any answer. */
  resetConnection: (): DevReply => ({ resetConnection: true }),
  /** The call is accepted and never answered (until the caller hangs up). */
  noAnswer: (): DevReply => ({ noAnswer: true }),
  /** A success whose body is cut by a connection reset after `bytes`. */
  resetMidBody: (bytes = 20): DevReply => ({
    ...(Replies.success() as { status: number; json: unknown }),
    resetAfterBytes: bytes,
  }),
  /** A success whose body arrives one byte every `everyMs`. */
  trickle: (everyMs = 1000): DevReply => ({
    ...(Replies.success() as { status: number; json: unknown }),
    trickleEveryMs: everyMs,
  }),
  /** A success padded to about `bytes` (a broken or hostile upstream). */
  hugeBody: (bytes: number): DevReply => ({
    ...(Replies.success() as { status: number; json: unknown }),
    paddingBytes: bytes,
  }),
  /** A 2xx that claims to be JSON and is not. */
  invalidJson: (status = 200): DevReply => ({
    status,
    text: '{"created": 1, "data": [{"url": ',
    contentType: 'application/json',
  }),
  /** `reply`, sent only after `latencyMs`. */
  slow: (reply: DevReply, latencyMs: number): DevReply => ({
    ...reply,
    latencyMs,
  }),
  /** `reply` with a Retry-After header (seconds, or an HTTP date). */
  withRetryAfter: (reply: DevReply, value: number | string): DevReply => ({
    ...reply,
    headers: { ...reply.headers, 'Retry-After': String(value) },
  }),
};

/**
 * A reply described in plain words, for the environment (IMAGE_DEV_*) and
 * the admin endpoint, where a developer has no code to write replies with.
 */
export interface DevReplyOptions {
  reply: DevImageReplyKind;
  /** Of 'error' (default 500) and 'not-json' (default 502) replies. */
  status?: number;
  /** Of 'error' replies. */
  message?: string;
  latencyMs?: number;
  retryAfterSeconds?: number;
}

export const DEFAULT_ERROR_MESSAGE = 'Simulated image API failure';

export function replyFromOptions(options: DevReplyOptions): DevReply {
  let reply: DevReply;
  switch (options.reply) {
    case 'image':
      reply = Replies.image();
      break;
    case 'error':
      reply = Replies.error(
        options.status ?? 500,
        options.message ?? DEFAULT_ERROR_MESSAGE,
      );
      break;
    case 'missing-url':
      reply = Replies.withoutImage();
      break;
    case 'not-json':
      reply = Replies.notJson(options.status ?? 502);
      break;
    case 'reset':
      reply = Replies.resetConnection();
      break;
    case 'pixel-bomb':
      reply = Replies.pixelBomb();
      break;
  }
  if (options.retryAfterSeconds !== undefined) {
    reply = Replies.withRetryAfter(reply, options.retryAfterSeconds);
  }
  return options.latencyMs ? Replies.slow(reply, options.latencyMs) : reply;
}

const REPLY_KINDS: readonly string[] = DEV_IMAGE_REPLIES;

/** Reads DevReplyOptions from an admin request's JSON; throws on nonsense. */
export function parseReplyOptions(value: unknown): DevReplyOptions {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('A reply must be a JSON object');
  }
  const { reply, status, message, latencyMs, retryAfterSeconds, ...rest } =
    value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) {
    throw new Error(`Unknown reply option(s): ${unknown.join(', ')}`);
  }
  if (typeof reply !== 'string' || !REPLY_KINDS.includes(reply)) {
    throw new Error(`"reply" must be one of ${REPLY_KINDS.join(', ')}`);
  }
  const whole = (name: string, v: unknown, min: number, max: number) => {
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      throw new Error(`"${name}" must be an integer from ${min} to ${max}`);
    }
    return v;
  };
  if (message !== undefined && typeof message !== 'string') {
    throw new Error('"message" must be a string');
  }
  return {
    reply: reply as DevImageReplyKind,
    status: whole('status', status, 100, 599),
    message,
    latencyMs: whole('latencyMs', latencyMs, 0, 3_600_000),
    retryAfterSeconds: whole('retryAfterSeconds', retryAfterSeconds, 0, 86_400),
  };
}
