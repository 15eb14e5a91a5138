import { Module } from '@nestjs/common';
import { IdempotencyService } from './idempotency.service';

/** Stored answers for Idempotency-Key retries (idempotency.service.ts). */
@Module({
  providers: [IdempotencyService],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
