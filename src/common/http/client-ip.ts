import { isIP } from 'node:net';
import type { Request } from 'express';

/** Express keeps the compiled TRUST_PROXY setting under this name. */
type TrustFunction = (address: string, hop: number) => boolean;

/**
 * The caller's IP address. Without TRUST_PROXY it is the socket's peer; with
 * it, X-Forwarded-For is read from the right: each trusted hop vouches for
 * the entry to its left, and the first address that is not trusted is the
 * client (the rightmost untrusted address). An entry that is not an IP
 * address (a client can write anything there) ends the walk: the client is
 * the hop that handed it over, so junk never becomes a budget of its own.
 * Every header of that name counts (Node joins them). An IPv4 peer on a
 * dual-stack socket ("::ffff:10.0.0.7") is given as plain IPv4, so one
 * client has one address whichever way it connected.
 */
export function clientIpOf(request: Request): string {
  const peer = plainAddress(request.socket?.remoteAddress ?? '');
  const trust = request.app?.get('trust proxy fn') as TrustFunction | undefined;
  if (!peer) return request.ip ? plainAddress(request.ip) : 'unknown';
  if (!trust) return peer;
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .reverse();
  const hops = [peer, ...forwarded];
  let client = peer;
  for (let hop = 0; hop < hops.length; hop++) {
    const address = plainAddress(hops[hop]);
    if (isIP(address) === 0) return client;
    client = address;
    if (!trust(address, hop)) return client;
  }
  return client;
}

function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.')
    ? address.slice('::ffff:'.length)
    : address;
}
