import { Module } from '@nestjs/common';
import { ProjectScopeModule } from '../project-scope/project-scope.module';
import { SectionsController } from './sections.controller';
import { SectionsRepository } from './sections.repository';
import { SectionsService } from './sections.service';
import { WorkspaceStatuses } from './workspace-statuses.repository';

/**
 * A section's chosen result (PUT and DELETE …/selection), and the
 * statuses of sections and agents, recomputed by WorkspaceStatuses for
 * every module whose changes move them (tasks, assets).
 */
@Module({
  imports: [ProjectScopeModule],
  controllers: [SectionsController],
  providers: [SectionsService, SectionsRepository, WorkspaceStatuses],
  exports: [WorkspaceStatuses],
})
export class SectionsModule {}
