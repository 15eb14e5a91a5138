import { LogLevel, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  ConfigurationError,
  loadConfiguration,
  type LogLevelName,
} from '../config/environment';
import { AppModule } from './app.module';

/**
 * Connections the kernel queues before Node accepts them. Node's default
 * (511) overflowed when 1,000 clients connected at once (each overflow costs
 * a client a 1 s SYN retry); the kernel caps it at net.core.somaxconn.
 */
const LISTEN_BACKLOG = 4096;

const NEST_LOG_LEVELS: Record<LogLevelName, LogLevel[]> = {
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/** Process concerns only; everything a client can observe is in AppModule. */
async function bootstrap(): Promise<void> {
  // Validated before Nest starts, so a bad value is one clear line.
  const config = loadConfiguration();
  const app = await NestFactory.create(AppModule, {
    logger: NEST_LOG_LEVELS[config.logLevel],
    // Throw start-up errors to the catch below instead of aborting.
    abortOnError: false,
  });
  // useProcessExit: exit 0 after a clean close (Nest would otherwise re-raise
  // the signal, which Kubernetes reports as an error exit).
  app.enableShutdownHooks([], { useProcessExit: true });
  // Nest's typings stop at (port, hostname), but it passes every argument on
  // to http.Server#listen, whose third is the backlog.
  const listen = app.listen.bind(app) as unknown as (
    port: number,
    host: string,
    backlog: number,
  ) => Promise<unknown>;
  await listen(config.port, config.host, LISTEN_BACKLOG);
  new Logger('Bootstrap').log(`Listening on ${await app.getUrl()}`);
}

bootstrap().catch((error: unknown) => {
  const message =
    error instanceof ConfigurationError
      ? error.message
      : `Start-up failed: ${error instanceof Error ? error.message : String(error)}`;
  console.error(message);
  process.exit(1);
});
