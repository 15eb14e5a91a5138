import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ChangeLog } from '../change-log/change-log.repository';
import { BatchedPurge } from '../database/batched-purge';
import { eventsConfig, type EventsConfig } from './events.config';

const PURGE_BATCH = 1_000;
/** Looked for every minute, or every retention period when shorter. */
const MAX_INTERVAL_MS = 60_000;

/** Deletes events older than EVENTS_RETENTION_S, a batch at a time. */
@Injectable()
export class ChangeLogPurge
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly purger: BatchedPurge;

  constructor(log: ChangeLog, @Inject(eventsConfig.KEY) config: EventsConfig) {
    const retentionMs = config.retentionSeconds * 1000;
    this.purger = new BatchedPurge(
      'old change events',
      PURGE_BATCH,
      (now, limit) => log.purgeBatch(new Date(now - retentionMs), limit),
      new Logger(ChangeLogPurge.name),
      Math.min(retentionMs, MAX_INTERVAL_MS),
    );
  }

  onApplicationBootstrap(): void {
    this.purger.start();
  }

  onApplicationShutdown(): void {
    this.purger.stop();
  }
}
