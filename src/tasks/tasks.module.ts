import { UsageModule } from '../usage/usage.module';
import {
  type MiddlewareConsumer,
  Module,
  type NestModule,
} from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { LogoModule } from '../logo/logo.module';
import { ProjectScopeModule } from '../project-scope/project-scope.module';
import { SectionsModule } from '../sections/sections.module';
import { TaskEngineModule } from './engine/task-engine.module';
import { LandingPageTask } from './kinds/landing-page-task';
import { LogoEditTask } from './kinds/logo-edit-task';
import { BrandKitTask } from './kinds/brand-kit-task';
import { IconSetTask } from './kinds/icon-set-task';
import { GraphicsTask } from './kinds/graphics-task';
import { PublishTask } from './kinds/publish-task';
import { SitesModule } from '../sites/sites.module';
import { BrandKitModule } from '../brand-kit/brand-kit.module';
import { LogoTask } from './kinds/logo-task';
import { MarketingCopyTask } from './kinds/marketing-copy-task';
import { KeptContent } from './kinds/kept-content';
import { WireframeTask } from './kinds/wireframe-task';
import { SiteCheckTask } from './kinds/site-check-task';
import { TASK_KINDS, type TaskKind } from './kinds/task-kind';
import { TaskMetrics } from './task-metrics';
import { TaskRunner } from './task-runner';
import { TaskWorkers } from './task-workers';
import { TaskSettlements } from './task-settlements';
import { TasksController } from './tasks.controller';
import { TasksRepository } from './tasks.repository';
import { TasksService } from './tasks.service';
import { TextGenerationModule } from '../text-generation/text-generation.module';
import { WorkerRoleMiddleware } from './worker-role.middleware';

/**
 * Tasks: the project's agents' work (logo candidates, marketing copy, a
 * landing page), queued by the task routes, run in the background by an
 * engine's workers, kept as assets of their sections.
 */
@Module({
  imports: [
    AssetsModule,
    BrandKitModule,
    IdempotencyModule,
    LogoModule,
    ProjectScopeModule,
    SectionsModule,
    SitesModule,
    TaskEngineModule,
    TextGenerationModule,
    UsageModule,
  ],
  controllers: [TasksController],
  providers: [
    TasksService,
    TasksRepository,
    TaskRunner,
    TaskMetrics,
    TaskWorkers,
    TaskSettlements,
    LogoTask,
    MarketingCopyTask,
    LandingPageTask,
    LogoEditTask,
    BrandKitTask,
    KeptContent,
    WireframeTask,
    IconSetTask,
    GraphicsTask,
    SiteCheckTask,
    PublishTask,
    {
      provide: TASK_KINDS,
      inject: [
        LogoTask,
        MarketingCopyTask,
        LandingPageTask,
        LogoEditTask,
        BrandKitTask,
        WireframeTask,
        IconSetTask,
        GraphicsTask,
        SiteCheckTask,
        PublishTask,
      ],
      useFactory: (...kinds: TaskKind[]) => kinds,
    },
  ],
  exports: [TasksService, TaskSettlements],
})
export class TasksModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(WorkerRoleMiddleware).forRoutes('{*path}');
  }
}
