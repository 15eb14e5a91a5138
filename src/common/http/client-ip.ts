import type { Request } from 'express';

/**
 * The caller's IP address: the socket's peer, or the X-Forwarded-For entry
 * Express picks when TRUST_PROXY is set (TrustProxyModule). An IPv4 peer on
 * a dual-stack socket ("::ffff:10.0.0.7") is given as plain IPv4, so one
 * client has one address whichever way it connected.
 */
export function clientIpOf(request: Request): string {
  const address = request.ip ?? request.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') && address.includes('.')
    ? address.slice('::ffff:'.length)
    : address;
}
