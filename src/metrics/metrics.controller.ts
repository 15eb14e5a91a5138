import { Controller, Get, HttpStatus } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Reply } from '../common/http/reply';
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
  async scrape(): Promise<Reply> {
    const { registry } = this.metrics;
    return new Reply(
      HttpStatus.OK,
      { 'Content-Type': registry.contentType },
      await registry.metrics(),
    );
  }
}
