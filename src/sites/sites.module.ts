import { Module } from '@nestjs/common';
import { assetsConfig, type AssetsConfig } from '../assets/assets.config';
import { AssetsModule } from '../assets/assets.module';
import { ProjectScopeModule } from '../project-scope/project-scope.module';
import { SiteReader } from './site-reader';
import { SiteSources } from './site-sources';
import { sitesConfig, type SitesConfig } from './sites.config';
import { SitesController } from './sites.controller';
import { SitesRepository } from './sites.repository';
import { SiteSourcesRepository } from './site-sources.repository';
import { SitesServer } from './sites-server';
import { SitesService } from './sites.service';
import { DatabaseSiteStore } from './store/database-site-store';
import type * as S3Sites from './store/s3-site-store';
import type * as S3Assets from '../assets/asset-bytes/s3-asset-bytes';
import { SiteStore } from './store/site-store';

/**
 * The S3 store (and the AWS SDK) loaded only when SITES_STORE=s3, on the
 * asset store's bucket and client settings (the config requires
 * ASSET_STORE=s3 then).
 */
function s3SiteStore(sites: SitesConfig, assets: AssetsConfig): SiteStore {
  if (assets.store.type !== 's3') {
    throw new Error('SITES_STORE=s3 needs ASSET_STORE=s3');
  }
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { createS3Client } =
    require('../assets/asset-bytes/s3-asset-bytes') as typeof S3Assets;
  const { S3SiteStore } = require('./store/s3-site-store') as typeof S3Sites;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const store = assets.store;
  return new S3SiteStore(
    createS3Client({
      endpoint: store.endpoint,
      region: store.region,
      forcePathStyle: store.forcePathStyle,
      connectTimeoutMs: store.connectTimeoutMs,
      idleTimeoutMs: store.requestTimeoutMs,
    }),
    store.bucket,
    sites.baseUrl,
    store.requestTimeoutMs,
  );
}

/**
 * Published sites: the site routes (GET, rollback, DELETE), the rules and
 * rows of versions, the sites listener (its own port and origin) and
 * where the files are kept (SITES_STORE). The publish task itself is a
 * task kind (tasks/kinds/publish-task.ts).
 */
@Module({
  imports: [AssetsModule, ProjectScopeModule],
  controllers: [SitesController],
  providers: [
    SitesService,
    SitesRepository,
    SiteSourcesRepository,
    SiteSources,
    SiteReader,
    SitesServer,
    {
      provide: SiteStore,
      inject: [sitesConfig.KEY, assetsConfig.KEY],
      useFactory: (sites: SitesConfig, assets: AssetsConfig): SiteStore =>
        sites.store === 's3'
          ? s3SiteStore(sites, assets)
          : new DatabaseSiteStore(sites.baseUrl),
    },
  ],
  exports: [SitesService, SiteSources, SitesServer],
})
export class SitesModule {}
