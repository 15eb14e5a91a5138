import { Logger } from '@nestjs/common';
import { ConfigurationError } from '../../src/environment/env-values';
import { DevTextApi } from './dev-text-api';
import { loadDevTextApiConfiguration } from './dev-text-api.config';

/**
 * `npm run text-api:dev`: the local text and code model API on
 * 127.0.0.1:TEXT_DEV_PORT (default 4030), so marketing copy and landing
 * pages are written without a paid key.
 */
async function main(): Promise<void> {
  const config = loadDevTextApiConfiguration();
  const api = await DevTextApi.start({
    port: config.port,
    defaultReply: {
      kind: config.reply,
      status: config.status,
      message: config.errorMessage,
      latencyMs: config.latencyMs,
      retryAfterSeconds: config.retryAfterSeconds,
    },
  });
  const logger = new Logger('DevTextApi');
  logger.log(`Listening on ${api.url}`);
  logger.log(
    `Start the service against it: TEXT_API_KEY=dev TEXT_API_URL=${api.url} npm start`,
  );
  const stop = () => {
    void api.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigurationError
      ? error.message
      : `Start-up failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
