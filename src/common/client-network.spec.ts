import { networkOf } from './client-network';

describe('networkOf', () => {
  it('gives an IPv4 address its /24', () => {
    expect(networkOf('203.0.113.66')).toBe('203.0.113.0/24');
    expect(networkOf('127.0.0.5')).toBe(networkOf('127.0.0.200'));
    expect(networkOf('127.0.0.5')).not.toBe(networkOf('127.0.1.5'));
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(networkOf('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
  });

  it('gives an IPv6 address its /64, however it is written', () => {
    expect(networkOf('2001:db8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(networkOf('2001:0DB8:0000:0001:ffff:0:0:9')).toBe(
      '2001:db8:0:1::/64',
    );
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(networkOf('2001:db8:0:2::1')).not.toBe(networkOf('2001:db8:0:1::1'));
  });

  it('leaves anything that is not an IP address as its own network', () => {
    expect(networkOf('unknown')).toBe('unknown');
    expect(networkOf('')).toBe('');
  });
});
