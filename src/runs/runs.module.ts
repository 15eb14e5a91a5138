import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { ProjectScopeModule } from '../project-scope/project-scope.module';
import { SectionsModule } from '../sections/sections.module';
import { TasksModule } from '../tasks/tasks.module';
import { RunAdvancer } from './run-advancer';
import { RunAssets } from './run-assets';
import { RunSweeper } from './run-sweeper';
import { RunsController } from './runs.controller';
import { RunsRepository } from './runs.repository';
import { RunsService } from './runs.service';

/**
 * Runs: one request that takes a project through its sections, each step
 * a task of the task engine, the order and the waits the run's own rows.
 * Tasks and sections know nothing of runs: the run listens to them
 * (TaskSettlements, SelectionWatchers) and sweeps.
 */
@Module({
  imports: [AssetsModule, ProjectScopeModule, SectionsModule, TasksModule],
  controllers: [RunsController],
  providers: [RunsService, RunsRepository, RunAdvancer, RunAssets, RunSweeper],
})
export class RunsModule {}
