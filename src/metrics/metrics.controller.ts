import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { MetricsService } from './metrics.service';

/**
 * Prometheus scrape endpoint, outside /api. Its body is Prometheus's text
 * format, the one exception to "every body is JSON": scrapers expect it.
 * The registry is made with prom-client's default (Prometheus text)
 * content type, so the header is known before the handler runs.
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
