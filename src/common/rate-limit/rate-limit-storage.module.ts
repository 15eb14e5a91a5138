import { Module } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { throttlerStorageProvider } from './throttler-storage-provider';

/** One rate-limit storage (one Redis connection) for every limit of the app. */
@Module({
  providers: [throttlerStorageProvider],
  exports: [ThrottlerStorage],
})
export class RateLimitStorageModule {}
