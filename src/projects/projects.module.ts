import { ListSlots } from './list-slots';
import { Module } from '@nestjs/common';
import { JsonStreamResponder } from '../common/http/json-stream-responder';
import { AssetStorageModule } from '../assets/asset-storage.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { ProjectScopeModule } from '../project-scope/project-scope.module';
import { RateLimitStorageModule } from '../common/rate-limit/rate-limit-storage.module';
import { ProjectCreateRateLimit } from './project-create-rate-limit';
import { ProjectsController } from './projects.controller';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

@Module({
  imports: [
    AssetStorageModule,
    IdempotencyModule,
    ProjectScopeModule,
    RateLimitStorageModule,
  ],
  controllers: [ProjectsController],
  providers: [
    ProjectsService,
    ProjectsRepository,
    JsonStreamResponder,
    ProjectCreateRateLimit,
    ListSlots,
  ],
})
export class ProjectsModule {}
