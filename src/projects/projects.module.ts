import { Module } from '@nestjs/common';
import { JsonStreamResponder } from '../common/http/json-stream.responder';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';

@Module({
  imports: [IdempotencyModule],
  controllers: [ProjectsController],
  providers: [ProjectsService, JsonStreamResponder],
})
export class ProjectsModule {}
