import { Module } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { stdTimeFunctions } from 'pino';
import type { Options } from 'pino-http';
import { appConfig } from '../../config/app.config';
import type { AppConfig } from '../../config/environment';
import {
  REQUEST_ID_HEADER,
  requestIdFor,
  requestLogFields,
  scrubSecret,
} from './request-log';
import { ownSpansEnabled } from '../tracing/spans';

/** Field paths that could carry a credential, should any ever be logged. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.Authorization',
  'config.headers.Authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
];

export function pinoHttpOptions(config: AppConfig): Options {
  const imageApiKey = config.imageApi.key;
  return {
    level: config.logLevel,
    mixin: traceFieldsMixin(),
    timestamp: stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    hooks: {
      streamWrite: (line: string) => scrubSecret(line, imageApiKey),
    },
    transport:
      config.logFormat === 'pretty'
        ? { target: 'pino-pretty', options: { singleLine: true } }
        : undefined,
    genReqId: (request, response: ServerResponse) => {
      const id = requestIdFor(request.headers['x-request-id']);
      response.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    customAttributeKeys: { reqId: 'requestId' },
    // One flat line per request, with only the fields below: no headers
    // (Authorization), no bodies, no query objects.
    quietReqLogger: true,
    quietResLogger: true,
    customSuccessObject: (request, response, value: { responseTime: number }) =>
      requestLogFields(request, response, value.responseTime),
    customErrorObject: (
      request,
      response,
      _error,
      value: { responseTime: number },
    ) => requestLogFields(request, response, value.responseTime),
    customSuccessMessage: () => 'request completed',
    customErrorMessage: () => 'request failed',
    customLogLevel: (_request, response, error) =>
      error || response.statusCode >= 500 ? 'error' : 'info',
  };
}

/**
 * While tracing is on, every line carries the active span's `trace_id` and
 * `span_id`; with it off, no mixin runs at all.
 */
function traceFieldsMixin(): (() => Record<string, string>) | undefined {
  if (!ownSpansEnabled()) return undefined;
  type Fields = typeof import('../tracing/trace-log-fields');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fields = require('../tracing/trace-log-fields') as Fields;
  return fields.traceLogFields;
}

/**
 * JSON logs (nestjs-pino): one line per request with its id, method, route,
 * status and duration, and Nest's own log lines in the same format once
 * main.ts hands Nest this logger. Registered in AppModule, so an app built
 * from AppModule alone logs its requests too (silently under Jest unless
 * LOG_LEVEL is set).
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (config: AppConfig) => ({
        pinoHttp: pinoHttpOptions(config),
        forRoutes: ['{*path}'],
      }),
    }),
  ],
})
export class LoggingModule {}
