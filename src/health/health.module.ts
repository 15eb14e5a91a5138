import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { AssetStorageModule } from '../assets/asset-storage.module';
import { LogoModule } from '../logo/logo.module';
import { DrainingMiddleware } from './draining.middleware';
import { HealthController } from './health.controller';
import { ShutdownState } from './shutdown-state';
import { WarmUp } from '../start/warm-up';

@Module({
  // Terminus would log every failed check with its details; the probe's
  // answer already says what failed, and a not-ready pod is polled often.
  imports: [
    TerminusModule.forRoot({ logger: false }),
    AssetStorageModule,
    LogoModule,
  ],
  controllers: [HealthController],
  providers: [ShutdownState, WarmUp],
  exports: [ShutdownState, WarmUp],
})
export class HealthModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(DrainingMiddleware).forRoutes('{*path}');
  }
}
