import { Module } from '@nestjs/common';
import { MeController } from './me.controller';
import { MeService } from './me.service';

/** GET /api/me: the caller, from the verified token. */
@Module({
  controllers: [MeController],
  providers: [MeService],
})
export class MeModule {}
