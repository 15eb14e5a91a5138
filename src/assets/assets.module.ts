import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { assetsConfig, type AssetsConfig } from './assets.config';
import { uploadLimits } from './uploaded-logo.interceptor';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { ImageStoreModule } from '../image-store/image-store.module';
import { LogoModule } from '../logo/logo.module';
import { ProjectScopeModule } from '../project-scope/project-scope.module';
import { SectionsModule } from '../sections/sections.module';
import { AssetContentController } from './asset-content.controller';
import { AssetStorageModule } from './asset-storage.module';
import { AssetSizesBackfill } from './asset-sizes';
import { AssetsService } from './assets.service';
import { ParkedLogos } from './parked-logos';
import { ProjectAssetsController } from './project-assets.controller';
import { AssetRenditions } from './renditions/asset-renditions';
import { AssetRenditionsRepository } from './renditions/asset-renditions.repository';

/**
 * Kept logos: POST /api/projects/{id}/logos, one asset's GET and DELETE,
 * and the URL that serves an asset's bytes.
 */
@Module({
  imports: [
    AssetStorageModule,
    IdempotencyModule,
    ImageStoreModule,
    LogoModule,
    ProjectScopeModule,
    SectionsModule,
    // A team's own image: read into memory (multer's default storage),
    // within the upload limits.
    MulterModule.registerAsync({
      inject: [assetsConfig.KEY],
      useFactory: (config: AssetsConfig) => ({ limits: uploadLimits(config) }),
    }),
  ],
  controllers: [ProjectAssetsController, AssetContentController],
  providers: [
    AssetsService,
    AssetSizesBackfill,
    ParkedLogos,
    AssetRenditions,
    AssetRenditionsRepository,
  ],
  // Tasks keep their results as assets, stored the same way.
  exports: [AssetsService, AssetStorageModule, AssetRenditions],
})
export class AssetsModule {}
