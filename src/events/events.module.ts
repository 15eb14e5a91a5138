import { Module } from '@nestjs/common';
import { ChangeFeed } from './change-feed';
import { ChangeLogPurge } from './change-log-purge';
import { EventMetrics } from './event-metrics';
import { EventStreams } from './event-streams.service';
import { EventsController, ProjectEventsController } from './events.controller';
import { EventsService } from './events.service';
import { AssetStorageModule } from '../assets/asset-storage.module';
import { EventPresenter } from './presented-event';
import { ProjectScopeModule } from '../project-scope/project-scope.module';

/**
 * Live changes: server-sent event streams of the change log, for one
 * project or all of a caller's, resumable with Last-Event-ID.
 */
@Module({
  imports: [ProjectScopeModule, AssetStorageModule],
  controllers: [EventsController, ProjectEventsController],
  providers: [
    EventsService,
    EventStreams,
    ChangeFeed,
    EventMetrics,
    ChangeLogPurge,
    EventPresenter,
  ],
})
export class EventsModule {}
