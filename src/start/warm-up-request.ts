import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The header that marks the start-up warm-up's own requests (warm-up.ts),
 * with a value drawn anew by each process: no client can send it, so no
 * client request can hide from the request log or the metrics.
 */
export const WARM_UP_HEADER = 'x-warm-up';
export const WARM_UP_TOKEN = randomBytes(16).toString('hex');

/** True for the warm-up's requests, which leave no log line or metric. */
export function isWarmUpRequest(request: IncomingMessage): boolean {
  return request.headers[WARM_UP_HEADER] === WARM_UP_TOKEN;
}
