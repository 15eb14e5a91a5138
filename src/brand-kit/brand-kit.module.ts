import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { ProjectScopeModule } from '../project-scope/project-scope.module';
import { BrandKitController } from './brand-kit.controller';
import { BrandKitRepository } from './brand-kit.repository';
import { BrandKitService } from './brand-kit.service';

/** GET /api/projects/{id}/brand-kit.zip (the kit itself is a task: tasks/kinds/brand-kit-task.ts). */
@Module({
  imports: [AssetsModule, ProjectScopeModule],
  controllers: [BrandKitController],
  providers: [BrandKitService, BrandKitRepository],
  exports: [BrandKitService],
})
export class BrandKitModule {}
