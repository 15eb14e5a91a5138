import { clientKeyOf } from './client-key';

describe('clientKeyOf', () => {
  it('is the proven user, whatever address it comes from', () => {
    const caller = { userId: 'alice', admin: false };
    expect(clientKeyOf(caller, '203.0.113.7')).toBe('user:alice');
    expect(clientKeyOf(caller, '198.51.100.1')).toBe('user:alice');
  });

  it('is the address without a proven user', () => {
    expect(clientKeyOf(undefined, '203.0.113.7')).toBe('ip:203.0.113.7');
  });

  it('never lets a user id name an address', () => {
    const posing = { userId: '203.0.113.7', admin: false };
    expect(clientKeyOf(posing, '198.51.100.1')).not.toBe(
      clientKeyOf(undefined, '203.0.113.7'),
    );
  });
});
