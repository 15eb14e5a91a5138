import type { LoggerService } from '@nestjs/common';
import type { Logger as Pino } from 'pino';
import { jsonLogger } from './json-logger';
import type { LoggingConfig } from './logging.config';

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

/**
 * Errors Nest and @nestjs/typeorm log on their own while the app is being
 * created or starts listening, then throw: the same failure would be two
 * or three lines, one of them TypeORM's "Retrying (1)..." although the
 * database module never retries, or NestApplication's raw "listen
 * EADDRINUSE" (it logs an error only where it also rejects). They are left
 * to the one line `startUpFailure` writes.
 */
const REPORTED_BY_BOOTSTRAP = new Set([
  'ExceptionHandler',
  'TypeOrmModule',
  'NestApplication',
]);

/**
 * Nest's logger for the life of the process, from the first line of
 * start-up: JSON lines (level, time, context, msg) at LOG_LEVEL, with key
 * scrubbing and credential paths redacted, so nothing is coloured text.
 * Request lines come from the operations middleware, on the same stdout.
 */
export class StartupLogger implements LoggerService {
  private readonly pino: Pino;

  constructor(config: LoggingConfig) {
    this.pino = jsonLogger(config, {
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    });
  }

  log(message: unknown, context?: string): void {
    this.pino.info({ context }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.pino.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.pino.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.pino.trace({ context }, String(message));
  }
  fatal(message: unknown, context?: string): void {
    this.pino.fatal({ context }, String(message));
  }

  error(message: unknown, ...rest: unknown[]): void {
    const context = rest.at(-1);
    if (typeof context === 'string' && REPORTED_BY_BOOTSTRAP.has(context)) {
      return;
    }
    this.pino.error(
      { context: typeof context === 'string' ? context : undefined },
      String(message),
    );
  }

  /** The one line of a failed start-up: what failed, and what happens now. */
  startUpFailure(error: unknown): void {
    this.pino.fatal(
      { context: 'Bootstrap', ...failureFields(error) },
      `Start-up failed: ${describeStartUpFailure(error)}; exiting with code 1`,
    );
  }
}

interface SystemError extends Error {
  code?: string;
  syscall?: string;
  address?: string;
  port?: number;
  path?: string;
}

/**
 * What failed, in words an operator can act on. The system errors a start
 * can meet: a port that cannot be listened on (the API's or the sites
 * listener's: taken, or an address that is not this machine's), a file or
 * folder that cannot be made or opened, and the database that cannot be
 * reached, the only connection a start waits for (Redis is optional and
 * only warned about).
 */
export function describeStartUpFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, syscall, address, port, path } = error as SystemError;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) {
    return `${error.name}: ${error.message}`;
  }
  const where = address
    ? `${address}${port !== undefined ? `:${port}` : ''}`
    : undefined;
  if (syscall === 'listen' || syscall === 'bind') {
    return `nothing could listen on ${where ?? 'its address'} (${code}): the port is taken or the address is not this machine's (PORT and HOST, or SITES_PORT and SITES_HOST)`;
  }
  if (typeof path === 'string' && typeof syscall === 'string') {
    return `${syscall} of ${path} failed (${code})`;
  }
  return `the database${where ? ` at ${where}` : ''} could not be reached (${code}), and start-up does not retry`;
}

/** The stack of an unexpected error, in the same line. */
function failureFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error) || 'code' in error) return {};
  return { stack: error.stack };
}
