import { BlockList, isIP } from 'node:net';

/**
 * Addresses no image URL handed to a browser (or kept) may point at:
 * this host, private networks, link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT, multicast, reserved and
 * documentation ranges, and IPv6 forms that embed an IPv4 address
 * (mapped, compatible, NAT64, 6to4, Teredo), whatever that address is.
 */
const BLOCKED_V4 = new BlockList();
// Apart: a BlockList checks an IPv4 address against its IPv6 rules too (as
// an IPv4-mapped address), and every mapped address is refused below.
const BLOCKED_V6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED_V4.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED_V6.addSubnet(network, prefix, 'ipv6');
}

/** Names that lead to this host or to a private network by convention. */
const PRIVATE_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/;

/**
 * Whether an image URL from the image API may be passed on as `logoUrl`:
 * an `https:` URL, without credentials, to a host that is a public name
 * or a public address; or any URL of the image API's own origin
 * (IMAGE_API_URL), which the operator chose to trust. Never `javascript:`,
 * `data:`, `file:` or plain `http:` elsewhere. Names are judged as they
 * are written, never resolved: the service does not fetch the URL, the
 * browser does, and a check of the name's address here would not bind
 * what the browser resolves later.
 */
export function isPassableImageUrl(url: string, imageApiUrl: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username !== '' || parsed.password !== '') return false;
  if (parsed.origin === new URL(imageApiUrl).origin) return true;
  if (parsed.protocol !== 'https:') return false;
  return isPublicHost(parsed.hostname);
}

/**
 * A URL's hostname (as WHATWG URL parsing leaves it: IPv4 in any decimal,
 * octal or hex form already made dotted, IPv6 in brackets) that is neither
 * a blocked address nor a private-looking name.
 */
function isPublicHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const address = host.startsWith('[') ? host.slice(1, -1) : host;
  const family = isIP(address);
  if (family === 4) return !BLOCKED_V4.check(address, 'ipv4');
  if (family === 6) return !BLOCKED_V6.check(address, 'ipv6');
  // A single label (an intranet name) or a conventional private suffix.
  return host.includes('.') && !PRIVATE_NAME.test(host);
}
