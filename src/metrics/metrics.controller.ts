import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { MetricsService } from './metrics.service';

/**
 * Prometheus scrape endpoint, outside /api. Its body is Prometheus's text
 * format, the one exception to "every body is JSON": scrapers expect it.
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  async scrape(
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    response.type(this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
