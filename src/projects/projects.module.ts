import { Module } from '@nestjs/common';
import { JsonStreamResponder } from '../common/http/json-stream.responder';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';

@Module({
  controllers: [ProjectsController],
  providers: [ProjectsService, JsonStreamResponder],
})
export class ProjectsModule {}
