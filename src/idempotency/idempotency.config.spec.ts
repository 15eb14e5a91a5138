import { idempotencyConfig } from './idempotency.config';

describe('idempotency configuration', () => {
  it('replays answers for a day by default', () => {
    expect(idempotencyConfig({})).toEqual({ ttlSeconds: 86400 });
    expect(idempotencyConfig({ IDEMPOTENCY_TTL_S: '3600' })).toEqual({
      ttlSeconds: 3600,
    });
  });

  it.each(['0', String(30 * 86_400 + 1)])(
    'refuses IDEMPOTENCY_TTL_S=%s: from 1 s to 30 days',
    (value) => {
      expect(() => idempotencyConfig({ IDEMPOTENCY_TTL_S: value })).toThrow(
        /^Invalid configuration: IDEMPOTENCY_TTL_S /,
      );
    },
  );
});
