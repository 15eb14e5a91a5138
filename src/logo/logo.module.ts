import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { logoConfig } from './logo.config';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { ImageStoreModule } from '../image-store/image-store.module';
import { RateLimitStorageModule } from '../common/rate-limit/rate-limit-storage.module';
import { Base64AnswerDecoder } from './base64-answer-decoder';
import { ImageApiClient } from './image-api.client';
import { ImageEditsClient } from './image-edits.client';
import { HostedLogoController } from './hosted-logo.controller';
import { HostedLogos } from './hosted-logos';
import { LogoController } from './logo.controller';
import { ImageModelsController } from './image-models.controller';
import { ImageModelCatalog } from './providers/image-model-catalog';
import { ImageModelLifecycle } from './providers/image-model-lifecycle';
import { LogoMetrics } from './logo-metrics';
import { LogoQueue } from './logo-queue';
import { LogoRateLimit } from './logo-rate-limit';
import { LogoService } from './logo.service';
import { RetryingImageApi } from './retrying-image-api';
import { UsageModule } from '../usage/usage.module';

@Module({
  imports: [
    HttpModule,
    IdempotencyModule,
    ImageStoreModule,
    RateLimitStorageModule,
    UsageModule,
  ],
  controllers: [LogoController, HostedLogoController, ImageModelsController],
  providers: [
    LogoService,
    HostedLogos,
    ImageApiClient,
    Base64AnswerDecoder,
    RetryingImageApi,
    ImageEditsClient,
    LogoRateLimit,
    LogoMetrics,
    ImageModelLifecycle,
    ImageModelCatalog,
    {
      // One line per process: every logo request of this instance shares it.
      provide: LogoQueue,
      inject: [logoConfig.KEY],
      useFactory: (config: ConfigType<typeof logoConfig>) =>
        new LogoQueue(config.imageApi),
    },
  ],
  // Kept logos (the assets module) go through the same pipeline.
  // The readiness probe tells of the configured model's lifecycle; kept
  // previewed logos are read from the hosted ones.
  exports: [LogoService, ImageModelLifecycle, HostedLogos],
})
export class LogoModule {}
