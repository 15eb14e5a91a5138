import type { Caller } from './request-context';

/**
 * Who a request counts against wherever a client has a budget or a share
 * (rate limits, the logo line, list slots, the large-body gate) and whose
 * Idempotency-Keys it may replay: the proven user, or the address without
 * one. The prefixes keep a user id from ever naming an address.
 */
export function clientKeyOf(caller: Caller | undefined, address: string) {
  return caller ? `user:${caller.userId}` : `ip:${address}`;
}
