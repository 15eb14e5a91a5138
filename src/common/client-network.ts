import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network an address belongs to, as limits count clients that hold
 * many addresses: its /24 for IPv4 ("203.0.113.0/24"), its /64 for IPv6
 * ("2001:db8:0:1::/64", an IPv4-mapped IPv6 address counted as IPv4).
 * Anything else (not an IP address) is its own network.
 */
export function networkOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const v4 = mapped ? mapped[1] : address;
  if (isIPv4(v4)) {
    return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  }
  const bare = address.split('%')[0];
  if (!isIPv6(bare)) return address;
  const [head, tail = ''] = bare.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = bare.includes('::') && tail !== '' ? tail.split(':') : [];
  const groups = bare.includes('::')
    ? [
        ...left,
        ...Array<string>(8 - left.length - right.length).fill('0'),
        ...right,
      ]
    : left;
  const prefix = groups
    .slice(0, 4)
    .map((group) =>
      group.includes('.') ? '0' : parseInt(group, 16).toString(16),
    );
  return `${prefix.join(':')}::/64`;
}
