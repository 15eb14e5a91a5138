import { Logger } from '@nestjs/common';
import { ConfigurationError } from '../../src/environment/env-values';
import { DevImageApi } from './dev-image-api';
import { loadDevImageApiConfiguration } from './dev-image-api.config';
import { replyFromOptions } from './replies';

/**
 * `npm run image-api:dev`: the local image API on 127.0.0.1:IMAGE_DEV_PORT
 * (default 4010), so the whole logo flow runs without a paid key.
 */
async function main(): Promise<void> {
  const config = loadDevImageApiConfiguration();
  const api = await DevImageApi.start({
    port: config.port,
    defaultReply: replyFromOptions({
      reply: config.reply,
      status: config.status,
      message: config.errorMessage,
      latencyMs: config.latencyMs,
      retryAfterSeconds: config.retryAfterSeconds,
    }),
  });
  const logger = new Logger('DevImageApi');
  logger.log(`Listening on ${api.url}`);
  logger.log(
    `Start the service against it: IMAGE_API_KEY=dev IMAGE_API_URL=${api.url} npm start`,
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
