import { Module } from '@nestjs/common';
import { appConfig } from '../../config/app.config';
import type { AppConfig } from '../../config/environment';
import { Database } from '../database/database.service';
import { AssetBytes } from './asset-bytes/asset-bytes';
import { DatabaseAssetBytes } from './asset-bytes/database-asset-bytes';
import { AssetUrls } from './asset-urls';
import { AssetsRepository } from './assets.repository';

/**
 * Where kept logos are stored and how their URLs are made: shared by the
 * asset routes and the project routes (which show a project's assets and
 * delete them with it).
 */
@Module({
  providers: [
    AssetsRepository,
    AssetUrls,
    {
      provide: AssetBytes,
      inject: [appConfig.KEY, Database, AssetsRepository],
      useFactory: (
        config: AppConfig,
        db: Database,
        rows: AssetsRepository,
      ): AssetBytes => {
        if (config.assets.store.type === 'database') {
          return new DatabaseAssetBytes(db, rows);
        }
        throw new Error('ASSET_STORE=s3 is not wired yet');
      },
    },
  ],
  exports: [AssetsRepository, AssetUrls, AssetBytes],
})
export class AssetStorageModule {}
