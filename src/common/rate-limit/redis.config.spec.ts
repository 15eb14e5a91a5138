import { ConfigurationError } from '../../environment/env-values';
import { redisConfig } from './redis.config';

describe('Redis configuration', () => {
  it('keeps the rate limits per process by default', () => {
    expect(redisConfig({})).toEqual({
      url: undefined,
      keyPrefix: 'workspace-api:',
      commandTimeoutMs: 200,
    });
  });

  it('reads the values that are set', () => {
    expect(
      redisConfig({
        REDIS_URL: 'redis://:secret@redis.internal:6379/2',
        REDIS_KEY_PREFIX: 'staging:',
        REDIS_COMMAND_TIMEOUT_MS: '250',
      }),
    ).toEqual({
      url: 'redis://:secret@redis.internal:6379/2',
      keyPrefix: 'staging:',
      commandTimeoutMs: 250,
    });
  });

  it('accepts redis:// and rediss:// URLs in REDIS_URL', () => {
    expect(redisConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).url).toBe(
      'redis://127.0.0.1:6379',
    );
    expect(redisConfig({ REDIS_URL: 'rediss://cache:6380/1' }).url).toBe(
      'rediss://cache:6380/1',
    );
  });

  it('refuses another REDIS_URL without echoing it (it may hold a password)', () => {
    for (const value of ['http://user:hunter2@cache:6379', 'hunter2']) {
      let error: unknown;
      try {
        redisConfig({ REDIS_URL: value });
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toBe(
        'Invalid configuration: REDIS_URL must be a redis:// or rediss:// URL',
      );
    }
  });

  it('refuses a REDIS_COMMAND_TIMEOUT_MS under 10 ms', () => {
    expect(() => redisConfig({ REDIS_COMMAND_TIMEOUT_MS: '5' })).toThrow(
      /^Invalid configuration: REDIS_COMMAND_TIMEOUT_MS must be an integer from 10 to 5000 \(got "5"\)$/,
    );
  });
});
