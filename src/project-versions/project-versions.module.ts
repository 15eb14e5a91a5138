import { Module } from '@nestjs/common';
import { ProjectVersions } from './project-versions.repository';

/**
 * A project's version and If-Match, shared by every module that changes a
 * project: the project routes and the asset routes.
 */
@Module({
  providers: [ProjectVersions],
  exports: [ProjectVersions],
})
export class ProjectVersionsModule {}
