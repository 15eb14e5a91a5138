import { Module } from '@nestjs/common';
import { JsonStreamResponder } from '../common/http/json-stream.responder';
import { RateLimitStorageModule } from '../common/rate-limit/rate-limit-storage.module';
import { ProjectCreateRateLimit } from './project-create-rate-limit';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';

@Module({
  imports: [RateLimitStorageModule],
  controllers: [ProjectsController],
  providers: [ProjectsService, JsonStreamResponder, ProjectCreateRateLimit],
})
export class ProjectsModule {}
