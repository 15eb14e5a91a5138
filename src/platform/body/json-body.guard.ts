import {
  CanActivate,
  ExecutionContext,
  Inject,
  Injectable,
  PayloadTooLargeException,
  RequestTimeoutException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { ConfigType } from '@nestjs/config';
import { httpConfig } from '../http.config';
import { limitsConfig } from '../../common/limits.config';
import { Counter } from 'prom-client';
import {
  getRequestContext,
  setBodyDigest,
} from '../../common/http/request-context';
import { claimantOf } from '../../common/concurrency/fair-gate';
import { getFailurePolicy } from '../../failures/request-failure-policy';
import { MetricsService } from '../../metrics/metrics.service';
import { jsonErrorMessage, NATIVE_PARSE_MAX_CHARS } from './json-error-message';
import { LargeBodyGate } from './large-body-gate';
import { SMALL_BODY_MAX_BYTES } from '../../failures/refused-body';
import {
  checkJsonInSlices,
  NotJsonError,
  parseJsonInSlices,
} from './sliced-json';
import { UnreadableBodyError } from '../../failures/unreadable-body.error';
import { Reflector } from '@nestjs/core';
import { OPTIONAL_BODY } from './optional-body.decorator';
import { ACCEPTS_UPLOAD } from './accepts-upload.decorator';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The content types a browser may send to another origin without a CORS
 * preflight (the "CORS-safelisted" ones), and no Content-Type at all,
 * which a browser sends for an untyped Blob or a stream (a request that
 * carries no body is let through before this, on a route whose body is
 * optional).
 */
const PREFLIGHT_FREE_TYPES = new Set([
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
]);

const mediaTypeOf = (contentType: string | undefined): string =>
  (contentType ?? '').split(';', 1)[0].trim().toLowerCase();

/**
 * Request headers a browser sends to another origin only after a CORS
 * preflight: a multipart upload that carries one was allowed by
 * CORS_ORIGINS, not sent by any page on its own.
 */
const PREFLIGHTED_HEADERS = ['authorization', 'idempotency-key'];

function needsNoPreflight(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const mediaType = contentType.split(';', 1)[0].trim().toLowerCase();
  return mediaType === '' || PREFLIGHT_FREE_TYPES.has(mediaType);
}

/** Content-Length as a number; undefined when absent (a chunked body). */
function declaredLength(request: Request): number | undefined {
  const raw = request.headers['content-length'];
  return raw === undefined || !/^\d+$/.test(raw) ? undefined : Number(raw);
}

/**
 * Whether the request carries no body: no Transfer-Encoding, and a
 * Content-Length that is absent or 0 (RFC 9112, 6.3).
 */
export function carriesNoBody(
  request: Pick<Request, 'headers'>,
  declared: number | undefined,
): boolean {
  return (
    request.headers['transfer-encoding'] === undefined &&
    (declared === undefined
      ? request.headers['content-length'] === undefined
      : declared === 0)
  );
}

/**
 * The body's value, as JSON.parse gives it, or JSON.parse's error. A short
 * body is parsed at once; a longer one in slices (sliced-json.ts), so that
 * no body under BODY_LIMIT holds the event loop while it is parsed. A
 * longer one is first checked without building anything, so that a large
 * body that is not JSON never fills the heap with a value to throw away.
 */
async function readJson(bytes: Buffer, explained: boolean): Promise<unknown> {
  const text = bytes.toString('utf8');
  if (text.length <= NATIVE_PARSE_MAX_CHARS) return JSON.parse(text);
  try {
    await checkJsonInSlices(text);
    return await parseJsonInSlices(text);
  } catch (error) {
    if (!(error instanceof NotJsonError)) throw error;
    // Only a route that shows the message pays for finding it.
    throw new Error(
      explained
        ? await jsonErrorMessage(text, error.position, bytes)
        : 'Invalid JSON body',
      { cause: error },
    );
  }
}

/** How a large body must arrive once its turn came. */
interface BodyPace {
  /** All of it within this long. */
  timeoutMs: number;
  /** At least this many bytes a second on average, checked from graceMs on (0: no floor). */
  minBytesPerSecond: number;
  graceMs: number;
}

/** A large body that arrived slower than LARGE_BODY_MIN_BYTES_PER_S: 408, as a late one. */
class TooSlowBodyException extends RequestTimeoutException {
  constructor() {
    super('Request body was not received in time');
  }
}

/** How often the byte-rate floor is checked once its grace has passed. */
const PACE_CHECK_MS = 500;

/**
 * Reads the request's bytes, at most `limit` of them. Past the limit it
 * answers 413 at once; the rest of the body still flows in and is dropped,
 * so the client reads its answer instead of a connection reset. With a
 * pace, a body not whole within its time, or slower than its floor once
 * the grace has passed, is refused with 408.
 */
function readBytes(
  request: Request,
  limit: number,
  pace: BodyPace | undefined,
): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const startedAt = Date.now();
    const timer =
      pace === undefined
        ? undefined
        : setTimeout(
            () =>
              settle(
                new RequestTimeoutException(
                  'Request body was not received in time',
                ),
              ),
            pace.timeoutMs,
          );
    let paceCheck: NodeJS.Timeout | undefined;
    const checkPace = () => {
      if (settled || pace === undefined) return;
      const elapsedMs = Date.now() - startedAt;
      if (received * 1000 < pace.minBytesPerSecond * elapsedMs) {
        settle(new TooSlowBodyException());
        return;
      }
      paceCheck = setTimeout(checkPace, PACE_CHECK_MS);
    };
    if (pace !== undefined && pace.minBytesPerSecond > 0) {
      paceCheck = setTimeout(checkPace, pace.graceMs);
    }
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(paceCheck);
      if (error) {
        chunks.length = 0;
        reject(error);
      } else {
        resolve(Buffer.concat(chunks));
      }
    };
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (settled) return;
      if (received > limit) {
        settle(new PayloadTooLargeException('Request body is too large'));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => settle());
    request.on('error', () =>
      settle(new UnreadableBodyError('Request body could not be read')),
    );
    // A client that leaves mid-body must not keep a gate permit.
    request.on('close', () =>
      settle(new UnreadableBodyError('Request body could not be read')),
    );
  });
}

/**
 * Reads every POST/PUT/PATCH body as JSON, whatever its Content-Type says
 * (see docs/decisions.md) — as the last global guard, so only once the
 * route is known and the caller is allowed (AuthGuard runs first). An
 * unknown route or a refused caller is answered without reading a byte of
 * the body: Node drops it as it arrives.
 *
 * Bodies over SMALL_BODY_MAX_BYTES (or of unknown length) take a permit of
 * the process's LargeBodyGate first, so their total cost is bounded
 * however many arrive at once.
 *
 * With CORS_ORIGINS set, a body whose Content-Type needs no CORS preflight
 * is refused (415) instead: any web page can make a browser send one, and
 * read as JSON it would create or change projects on the visitor's
 * network. Without CORS_ORIGINS every body is read as before. A request
 * that carries no body, on a route whose body is optional (@OptionalBody),
 * is read as `{}` whatever its headers say.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  private readonly limit: number;
  private readonly refusePreflightFree: boolean;
  private readonly gate: LargeBodyGate;
  /**
   * A large body must arrive within a time, and no slower than a floor,
   * once its permit is taken, so a client trickling bytes cannot keep the
   * permit (and others waiting).
   */
  private readonly pace: BodyPace;
  private readonly turnedAway: Counter<'reason'>;

  constructor(
    private readonly reflector: Reflector,
    @Inject(limitsConfig.KEY) config: ConfigType<typeof limitsConfig>,
    @Inject(httpConfig.KEY) http: ConfigType<typeof httpConfig>,
    metrics: MetricsService,
  ) {
    this.limit = config.bodyLimitBytes;
    this.refusePreflightFree = http.corsOrigins !== undefined;
    this.pace = {
      timeoutMs: config.largeBodies.readTimeoutMs,
      minBytesPerSecond: config.largeBodies.minBytesPerSecond,
      graceMs: config.largeBodies.minRateGraceMs,
    };
    this.turnedAway = new Counter({
      name: 'large_bodies_refused_total',
      help: "Large request bodies refused before or while being read, by reason: full (the line), share (the client's part of it), deadline (no turn within LARGE_BODY_WAIT_MS), read_timeout (not received within LARGE_BODY_READ_TIMEOUT_MS), too_slow (slower than LARGE_BODY_MIN_BYTES_PER_S after LARGE_BODY_MIN_RATE_GRACE_MS)",
      labelNames: ['reason'] as const,
      registers: [metrics.registry],
    });
    this.gate = new LargeBodyGate(
      {
        permits: config.largeBodies.permits,
        waitMs: config.largeBodies.waitMs,
      },
      (reason) => this.turnedAway.inc({ reason }),
    );
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    if (!METHODS_WITH_BODY.has(request.method)) return true;
    const declared = declaredLength(request);
    // Neither a length nor chunks: HTTP's own "no body". On a route whose
    // body is optional there is then nothing to read, so nothing whose type
    // matters: generated clients send no Content-Type where the document
    // declares no body. What such a request can do from another page is
    // what the route does without a body (docs/decisions.md).
    if (
      carriesNoBody(request, declared) &&
      this.reflector.get<boolean>(OPTIONAL_BODY, context.getHandler())
    ) {
      request.body = {};
      return true;
    }
    if (
      mediaTypeOf(request.headers['content-type']) === 'multipart/form-data' &&
      this.reflector.get<boolean>(ACCEPTS_UPLOAD, context.getHandler())
    ) {
      return this.leaveUploadUnread(request);
    }
    if (
      this.refusePreflightFree &&
      needsNoPreflight(request.headers['content-type'])
    ) {
      throw new UnsupportedMediaTypeException('Unsupported media type');
    }
    if (declared !== undefined && declared > this.limit) {
      throw new PayloadTooLargeException('Request body is too large');
    }
    const large = declared === undefined || declared > SMALL_BODY_MAX_BYTES;
    const release = large ? await this.takeTurn(request) : undefined;
    try {
      request.body = await this.read(
        request,
        context.switchToHttp().getResponse<Response>(),
        large,
      );
    } finally {
      release?.();
    }
    return true;
  }

  /**
   * An upload to a route that takes one is left for its multipart parser.
   * With CORS_ORIGINS set it must carry a header only a preflight lets a
   * browser send (Authorization, Idempotency-Key), else it is refused as
   * any preflight-free body is: any page could make a browser send it.
   */
  private leaveUploadUnread(request: Request): boolean {
    if (
      this.refusePreflightFree &&
      !PREFLIGHTED_HEADERS.some((name) => request.headers[name] !== undefined)
    ) {
      throw new UnsupportedMediaTypeException('Unsupported media type');
    }
    return true;
  }

  /**
   * A permit of the large-body gate, for this caller and address. A request
   * refused while its body is still unread is answered, then its
   * connection closed: its bytes will never be read.
   */
  private async takeTurn(request: Request): Promise<() => void> {
    try {
      return await this.gate.enter(
        claimantOf(getRequestContext(request)),
        (leave) => request.once('close', leave),
      );
    } catch (error) {
      request.res?.once('finish', () => request.destroy());
      throw error;
    }
  }

  private async read(
    request: Request,
    response: Response,
    large: boolean,
  ): Promise<unknown> {
    let bytes: Buffer;
    try {
      bytes = await readBytes(
        request,
        this.limit,
        large ? this.pace : undefined,
      );
    } catch (error) {
      // A trickling client is answered, then let go of.
      if (error instanceof RequestTimeoutException) {
        this.turnedAway.inc({
          reason:
            error instanceof TooSlowBodyException ? 'too_slow' : 'read_timeout',
        });
        response.once('finish', () => request.destroy());
      }
      throw error;
    }
    // An Idempotency-Key's retry must send the same bytes: their digest is
    // the request's fingerprint (cheap, and never recursive however the
    // JSON is nested).
    if (request.headers['idempotency-key'] !== undefined) {
      setBodyDigest(request, createHash('sha256').update(bytes).digest('hex'));
    }
    try {
      return await readJson(
        bytes,
        getFailurePolicy(request)?.exposePublicErrors === true,
      );
    } catch (error) {
      throw new UnreadableBodyError(
        error instanceof Error ? error.message : 'Invalid JSON body',
      );
    }
  }
}
