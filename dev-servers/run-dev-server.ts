import { Logger } from '@nestjs/common';
import { ConfigurationError } from '../src/environment/env-values';

/** A dev server once listening: its base URL, and how to stop it. */
interface RunningDevServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The `npm run *:dev` entry points: start the server, say where it listens
 * and how to point the service at it, stop on SIGINT or SIGTERM, and exit
 * 1 with one line on a bad setting or a failed start.
 */
export function runDevServer(
  name: string,
  start: () => Promise<RunningDevServer>,
  usage: (url: string) => string,
): void {
  const run = async () => {
    const server = await start();
    const logger = new Logger(name);
    logger.log(`Listening on ${server.url}`);
    logger.log(`Start the service against it: ${usage(server.url)}`);
    const stop = () => {
      void server.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  };
  run().catch((error: unknown) => {
    console.error(
      error instanceof ConfigurationError
        ? error.message
        : `Start-up failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}
