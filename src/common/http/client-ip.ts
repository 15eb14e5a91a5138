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

/**
 * Who a request counts against in the fair gates (fair-gate.ts): the proven
 * user when there is one (as the rate limits count), else the address; and
 * always the address too, so identities minted by one client share its
 * address's bound.
 */
export function claimantOf(
  request: Request,
  userId: string | undefined,
): { identity: string; address: string } {
  const address = clientIpOf(request);
  return {
    identity: userId === undefined ? address : `user:${userId}`,
    address,
  };
}
