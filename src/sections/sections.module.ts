import { Module } from '@nestjs/common';
import { ProjectScopeModule } from '../project-scope/project-scope.module';
import { SectionsController } from './sections.controller';
import { SectionsRepository } from './sections.repository';
import { SectionsService } from './sections.service';
import { WorkspaceStatuses } from './workspace-statuses.repository';
import { SelectionWatchers } from './selection-watchers';

/**
 * A section's chosen result (PUT and DELETE …/selection), and the
 * statuses of sections and agents, recomputed by WorkspaceStatuses for
 * every module whose changes move them (tasks, assets).
 */
@Module({
  imports: [ProjectScopeModule],
  controllers: [SectionsController],
  providers: [
    SectionsService,
    SectionsRepository,
    WorkspaceStatuses,
    SelectionWatchers,
  ],
  exports: [WorkspaceStatuses, SectionsService, SelectionWatchers],
})
export class SectionsModule {}
