import { Inject, Injectable, Logger, StreamableFile } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter } from 'prom-client';
import type { ConfigType } from '@nestjs/config';
import { limitsConfig } from '../limits.config';
import { matchedRoute } from '../../logging/request-log';
import { MetricsService } from '../../metrics/metrics.service';
import {
  JsonChunkStream,
  ListTooLongError,
  StalledClientError,
  type ChunkSource,
} from './json-chunk-stream';
import { JSON_CONTENT_TYPE } from './json-text';

/**
 * Sends a JSON body that is streamed rather than built whole. Once the
 * status and the first bytes are out, a failure can no longer become the
 * route's documented error body: the connection is then destroyed, so the
 * client sees a truncated body that does not parse — never a shorter list
 * that looks complete — and the failure is logged with the request id and
 * counted in /metrics.
 */
@Injectable()
export class JsonStreamResponder {
  private readonly logger = new Logger('ResponseStream');
  private readonly cutOff: Counter<'route' | 'reason'>;

  constructor(
    metrics: MetricsService,
    @Inject(limitsConfig.KEY)
    private readonly config: ConfigType<typeof limitsConfig>,
  ) {
    this.cutOff = new Counter({
      name: 'http_response_streams_cut_off_total',
      help: 'Streamed responses ended by the server after their first byte, by route and reason (error, stalled_client, too_long)',
      labelNames: ['route', 'reason'] as const,
      registers: [metrics.registry],
    });
  }

  /** The body for a handler to return; the source is closed however it ends. */
  reply(source: ChunkSource): StreamableFile {
    const stream = new JsonChunkStream(
      source,
      this.config.listIdleTimeoutMs,
      this.config.listMaxDurationMs,
    );
    return (
      new StreamableFile(stream, { type: JSON_CONTENT_TYPE })
        // On Express the response is Node's ServerResponse.
        .setErrorHandler((error, response) =>
          this.cut(error, response as unknown as ServerResponse),
        )
        // Errors of the response itself are a client's connection going
        // away; the request metrics count those already.
        .setErrorLogger(() => undefined)
    );
  }

  /**
   * The first piece is read before the handler returns, so a stream fails
   * only after the headers went out.
   */
  private cut(error: Error, response: ServerResponse): void {
    // The operations middleware gives every request its id
    // (platform/operations.middleware.ts).
    const request = response.req as IncomingMessage & { id?: string };
    const reason =
      error instanceof StalledClientError
        ? 'stalled_client'
        : error instanceof ListTooLongError
          ? 'too_long'
          : 'error';
    const route = matchedRoute(request) ?? 'unmatched';
    this.cutOff.inc({ route, reason });
    const message = `${request.method} ${route}: response cut off after the first byte (requestId ${request.id ?? 'none'}): ${error.name}: ${error.message}`;
    if (reason === 'error') this.logger.error(message, error.stack);
    else this.logger.warn(message);
    response.destroy();
  }
}
