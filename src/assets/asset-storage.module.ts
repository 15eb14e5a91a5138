import {
  Inject,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  assetsConfig,
  type AssetsConfig,
  type S3StoreConfig,
} from './assets.config';
import { Counter } from 'prom-client';
import { Database } from '../database/database.service';
import { MetricsService } from '../metrics/metrics.service';
import { AssetBytes } from './asset-bytes/asset-bytes';
import { DatabaseAssetBytes } from './asset-bytes/database-asset-bytes';
import { DatabaseDeploymentIdentity } from './asset-bytes/deployment-identity';
import type * as S3Store from './asset-bytes/s3-asset-bytes';
import { AssetUrls } from './asset-urls';
import { AssetsRepository } from './assets.repository';

/** How often the S3 store looks for objects no row names. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/** A sweep run stops after this long (before the next is due); the next starts over. */
const SWEEP_MAX_DURATION_MS = 5 * 60 * 1000;

/**
 * The S3 store, its module (and the AWS SDK, about 60 ms to load) loaded
 * only when ASSET_STORE=s3, so the default start-up does not pay for it.
 */
function s3Store(
  store: S3StoreConfig,
  db: Database,
  rows: AssetsRepository,
  metrics: MetricsService,
): AssetBytes {
  const { createS3Client, S3AssetBytes } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('./asset-bytes/s3-asset-bytes') as typeof S3Store;
  return new S3AssetBytes(
    createS3Client({
      endpoint: store.endpoint,
      region: store.region,
      forcePathStyle: store.forcePathStyle,
      connectTimeoutMs: store.connectTimeoutMs,
      idleTimeoutMs: store.requestTimeoutMs,
    }),
    {
      bucket: store.bucket,
      prefix: store.prefix,
      sweepGraceMs: store.sweepGraceSeconds * 1000,
      sweepIntervalMs: SWEEP_INTERVAL_MS,
      requestTimeoutMs: store.requestTimeoutMs,
      sweepMaxDurationMs: SWEEP_MAX_DURATION_MS,
    },
    rows,
    new DatabaseDeploymentIdentity(db),
    deletionCounter(metrics),
  );
}

/** asset_objects_deleted_total{reason}: every object the S3 store deleted. */
function deletionCounter(
  metrics: MetricsService,
): (reason: S3Store.DeletionReason, count: number) => void {
  const counter = new Counter({
    name: 'asset_objects_deleted_total',
    help: 'Objects the S3 asset store deleted, by reason: orphan (the sweep), asset_deleted, row_failed',
    labelNames: ['reason'] as const,
    registers: [metrics.registry],
  });
  return (reason, count) => counter.inc({ reason }, count);
}

/**
 * Where kept logos are stored (ASSET_STORE) and how their URLs are made:
 * shared by the asset routes and the project routes (which show a
 * project's assets and delete them with it). Runs the S3 store's sweep of
 * orphaned objects while the application runs.
 */
@Module({
  providers: [
    AssetsRepository,
    AssetUrls,
    {
      provide: AssetBytes,
      inject: [assetsConfig.KEY, Database, AssetsRepository, MetricsService],
      useFactory: (
        config: AssetsConfig,
        db: Database,
        rows: AssetsRepository,
        metrics: MetricsService,
      ): AssetBytes =>
        config.store.type === 's3'
          ? s3Store(config.store, db, rows, metrics)
          : new DatabaseAssetBytes(db, rows),
    },
  ],
  exports: [AssetsRepository, AssetUrls, AssetBytes],
})
export class AssetStorageModule
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  constructor(@Inject(AssetBytes) private readonly bytes: AssetBytes) {}

  onApplicationBootstrap(): void {
    this.bytes.start();
  }

  onApplicationShutdown(): void {
    this.bytes.stop();
  }
}
