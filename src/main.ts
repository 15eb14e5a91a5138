import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { ConfigurationError, loadConfiguration } from '../config/environment';
import { AppModule } from './app.module';

/**
 * Connections the kernel queues before Node accepts them. Node's default
 * (511) overflowed when 1,000 clients connected at once (each overflow costs
 * a client a 1 s SYN retry); the kernel caps it at net.core.somaxconn.
 */
const LISTEN_BACKLOG = 4096;

/** Time for the database to close after the drain before giving up. */
const SHUTDOWN_MARGIN_MS = 3000;

/** Process concerns only; everything a client can observe is in AppModule. */
async function bootstrap(): Promise<void> {
  // Validated before Nest starts, so a bad value is one clear line.
  const config = loadConfiguration();
  const app = await NestFactory.create(AppModule, {
    // Nest's start-up lines wait for the JSON logger below.
    bufferLogs: true,
    // Throw start-up errors to the catch below instead of aborting.
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  // On SIGTERM/SIGINT Nest closes the app: readiness turns 503, the server
  // stops accepting connections and waits for requests in flight (at most
  // SHUTDOWN_TIMEOUT_MS, see ShutdownState), then the database closes.
  // useProcessExit: exit 0 after a clean close (Nest would otherwise re-raise
  // the signal, which Kubernetes reports as an error exit).
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => exitIfStuck(config.shutdownTimeoutMs));
  }
  // Nest's typings stop at (port, hostname), but it passes every argument on
  // to http.Server#listen, whose third is the backlog.
  const listen = app.listen.bind(app) as unknown as (
    port: number,
    host: string,
    backlog: number,
  ) => Promise<unknown>;
  await listen(config.port, config.host, LISTEN_BACKLOG);
  app.get(Logger).log(`Listening on ${await app.getUrl()}`, 'Bootstrap');
}

/**
 * The last resort: if closing hangs past the drain and a margin (a database
 * that never answers), exit with an error instead of waiting for SIGKILL.
 */
function exitIfStuck(shutdownTimeoutMs: number): void {
  setTimeout(() => {
    console.error('Shutdown did not finish in time; exiting');
    process.exit(1);
  }, shutdownTimeoutMs + SHUTDOWN_MARGIN_MS).unref();
}

bootstrap().catch((error: unknown) => {
  const message =
    error instanceof ConfigurationError
      ? error.message
      : `Start-up failed: ${error instanceof Error ? error.message : String(error)}`;
  console.error(message);
  process.exit(1);
});
