// First: the right Node.js, or one line and exit 1 (see runtime-check.ts).
import './runtime-check';
// Then tracing, which patches modules as they load (see start-tracing.ts).
import './tracing/start-tracing';
import { NestFactory } from '@nestjs/core';
import { loadConfiguration, type Configuration } from '../config/configuration';
import { AppModule } from './app.module';
import { SitesServer } from './sites/sites-server';
import { StartupLogger } from './logging/startup-logger';
import { WarmUp } from './start/warm-up';

/**
 * Connections the kernel queues before Node accepts them. Node's default
 * (511) overflowed when 1,000 clients connected at once (each overflow costs
 * a client a 1 s SYN retry); the kernel caps it at net.core.somaxconn.
 */
const LISTEN_BACKLOG = 4096;

/** Time for the database to close after the drain before giving up. */
const SHUTDOWN_MARGIN_MS = 3000;

/** Process concerns only; everything a client can observe is in AppModule. */
async function bootstrap(
  config: Configuration['process'],
  role: Configuration['tasks']['role'],
  logger: StartupLogger,
) {
  const app = await NestFactory.create(AppModule, {
    // JSON lines from the first to the last.
    logger,
    // Throw start-up errors to the caller instead of aborting.
    abortOnError: false,
  });
  // On SIGTERM/SIGINT Nest closes the app: readiness turns 503, the server
  // stops accepting connections and waits for requests in flight (at most
  // SHUTDOWN_TIMEOUT_MS, see ShutdownState), then the database closes.
  // useProcessExit: exit 0 after a clean close (Nest would otherwise re-raise
  // the signal, which Kubernetes reports as an error exit).
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => exitIfStuck(config.shutdownTimeoutMs, logger));
  }
  // Nest's typings stop at (port, hostname), but it passes every argument on
  // to http.Server#listen, whose third is the backlog.
  const listen = app.listen.bind(app) as unknown as (
    port: number,
    host: string,
    backlog: number,
  ) => Promise<unknown>;
  // Readiness answers 503 until the warm-up below has run.
  const warmUp = app.get(WarmUp);
  warmUp.expect();
  await listen(config.port, config.host, LISTEN_BACKLOG);
  logger.log(`Listening on ${await app.getUrl()}`, 'Bootstrap');
  // Published sites on their own port and origin, in the processes that
  // serve the API (a worker serves neither); closed with the app.
  if (role !== 'worker') await app.get(SitesServer).start();
  await warmUp.run(await app.getUrl());
}

/**
 * The last resort: if closing hangs past the drain and a margin (a database
 * that never answers), exit with an error instead of waiting for SIGKILL.
 */
function exitIfStuck(shutdownTimeoutMs: number, logger: StartupLogger): void {
  setTimeout(() => {
    logger.fatal(
      'Shutdown did not finish in time; exiting with code 1',
      'Shutdown',
    );
    process.exit(1);
  }, shutdownTimeoutMs + SHUTDOWN_MARGIN_MS).unref();
}

function main(): void {
  let config: Configuration;
  try {
    // Every slice is read before anything starts: one line per invalid slice.
    config = loadConfiguration();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  const logger = new StartupLogger(config.logging);
  bootstrap(config.process, config.tasks.role, logger).catch(
    (error: unknown) => {
      logger.startUpFailure(error);
      process.exit(1);
    },
  );
}

main();
