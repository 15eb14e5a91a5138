import { Module } from '@nestjs/common';
import { UsageLedgerRepository } from './usage-ledger.repository';
import { UsageMetrics } from './usage-metrics';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';

/** The usage ledger, spend budgets and GET /api/usage. */
@Module({
  controllers: [UsageController],
  providers: [UsageService, UsageLedgerRepository, UsageMetrics],
  exports: [UsageService],
})
export class UsageModule {}
