import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { ConfigType } from '@nestjs/config';
import { redisConfig } from '../common/rate-limit/redis.config';
import { projectsConfig } from './projects.config';
import { ClientRateLimit } from '../common/rate-limit/client-rate-limit';
import { PROJECT_CREATE_RATE_LIMITED_MESSAGE } from './projects.constants';

/**
 * PROJECT_CREATE_RATE_LIMIT creates per client IP and
 * PROJECT_CREATE_RATE_WINDOW_S (off by default: the contract has no 429 on
 * create). Each create writes a project, 8 sections and 3 agents that every
 * later list carries, so a client that loops on it grows every list.
 * Counted only for requests that passed validation.
 */
@Injectable()
export class ProjectCreateRateLimit extends ClientRateLimit {
  constructor(
    @Inject(ThrottlerStorage) storage: ThrottlerStorage,
    @Inject(projectsConfig.KEY) config: ConfigType<typeof projectsConfig>,
    @Inject(redisConfig.KEY) redis: ConfigType<typeof redisConfig>,
  ) {
    super(storage, {
      name: 'project-create',
      keySegment: 'project-create-rate',
      limit: config.createRateLimit.limit,
      windowSeconds: config.createRateLimit.windowSeconds,
      keyPrefix: redis.keyPrefix,
      message: PROJECT_CREATE_RATE_LIMITED_MESSAGE,
    });
  }
}
