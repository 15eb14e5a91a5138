import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { ConfigType } from '@nestjs/config';
import { redisConfig } from '../common/rate-limit/redis.config';
import { logoConfig } from './logo.config';
import { ClientRateLimit } from '../common/rate-limit/client-rate-limit';
import { LOGO_RATE_LIMITED_MESSAGE } from './logo.constants';

/**
 * LOGO_RATE_LIMIT upstream-bound requests per client IP and
 * LOGO_RATE_WINDOW_S. LogoService consults it only for requests that passed
 * validation and would call the paid API, so an invalid request or one
 * made while no key is configured never uses up a client's budget. While
 * the storage is unreachable it is not applied; IMAGE_API_CONCURRENCY still
 * bounds what logo generation spends.
 */
@Injectable()
export class LogoRateLimit extends ClientRateLimit {
  constructor(
    @Inject(ThrottlerStorage) storage: ThrottlerStorage,
    @Inject(logoConfig.KEY) config: ConfigType<typeof logoConfig>,
    @Inject(redisConfig.KEY) redis: ConfigType<typeof redisConfig>,
  ) {
    super(storage, {
      name: 'logo-generate',
      keySegment: 'logo-rate',
      limit: config.rateLimit.limit,
      windowSeconds: config.rateLimit.windowSeconds,
      keyPrefix: redis.keyPrefix,
      message: LOGO_RATE_LIMITED_MESSAGE,
    });
  }
}
