import { LogLevel, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  ConfigurationError,
  loadConfiguration,
  type LogLevelName,
} from '../config/environment';
import { AppModule } from './app.module';

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
  await app.listen(config.port, config.host);
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
