import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { ImageApiClient } from './image-api.client';
import { LogoController } from './logo.controller';
import { LogoService } from './logo.service';

@Module({
  imports: [HttpModule],
  controllers: [LogoController],
  providers: [LogoService, ImageApiClient],
})
export class LogoModule {}
