import { Module } from '@nestjs/common';
import { ProjectScope } from './project-scope.repository';

/**
 * A project as the other features reach it (project-scope.repository.ts):
 * its owner, visibility, name and version, and If-Match.
 */
@Module({
  providers: [ProjectScope],
  exports: [ProjectScope],
})
export class ProjectScopeModule {}
