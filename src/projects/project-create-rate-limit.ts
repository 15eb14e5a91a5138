import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { appConfig } from '../../config/app.config';
import type { AppConfig } from '../../config/environment';
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
    @Inject(appConfig.KEY) config: AppConfig,
  ) {
    super(storage, {
      name: 'project-create',
      keySegment: 'project-create-rate',
      limit: config.projectCreateRateLimit.limit,
      windowSeconds: config.projectCreateRateLimit.windowSeconds,
      keyPrefix: config.redis.keyPrefix,
      message: PROJECT_CREATE_RATE_LIMITED_MESSAGE,
    });
  }
}
