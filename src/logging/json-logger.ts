import pino, { stdTimeFunctions, type LoggerOptions } from 'pino';
import { ownSpansEnabled } from '../tracing/spans';
import { logDestination } from './log-destination';
import type { LoggingConfig } from './logging.config';
import { scrubSecret } from './request-log';

/**
 * A pino logger writing the process's JSON lines (level, time, pid,
 * hostname, fields, msg) at LOG_LEVEL, every line checked for the model APIs'
 * keys before it is written; LOG_FORMAT=pretty writes through pino-pretty
 * instead.
 */
export function jsonLogger(
  config: LoggingConfig,
  options: Pick<LoggerOptions, 'redact'> = {},
): pino.Logger {
  const shared = sharedOptions(config, options);
  if (config.logFormat === 'pretty') {
    return pino({
      ...shared,
      transport: { target: 'pino-pretty', options: { singleLine: true } },
    });
  }
  return pino(shared, logDestination());
}

/**
 * A logger like jsonLogger's whose lines go nowhere: the start-up warm-up's
 * requests run the request line's code (and so have it compiled before
 * readiness) without writing a line.
 */
export function discardingLogger(config: LoggingConfig): pino.Logger {
  return pino(sharedOptions(config), { write: () => undefined });
}

function sharedOptions(
  config: LoggingConfig,
  options: Pick<LoggerOptions, 'redact'> = {},
): LoggerOptions {
  const keys = [config.scrubbedKey, ...config.scrubbedModelKeys];
  const scrub = (line: string): string =>
    keys.reduce<string>((text, key) => scrubSecret(text, key), line);
  return {
    ...options,
    level: config.logLevel,
    mixin: traceFieldsMixin(),
    timestamp: stdTimeFunctions.isoTime,
    hooks: { streamWrite: scrub },
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
