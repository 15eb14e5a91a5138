import { runDevServer } from '../run-dev-server';
import { DevImageApi } from './dev-image-api';
import { loadDevImageApiConfiguration } from './dev-image-api.config';
import { replyFromOptions } from './replies';

/**
 * `npm run image-api:dev`: the local image API on 127.0.0.1:IMAGE_DEV_PORT
 * (default 4010), so the whole logo flow runs without a paid key.
 */
runDevServer(
  'DevImageApi',
  () => {
    const config = loadDevImageApiConfiguration();
    return DevImageApi.start({
      port: config.port,
      defaultReply: replyFromOptions({
        reply: config.reply,
        status: config.status,
        message: config.errorMessage,
        latencyMs: config.latencyMs,
        retryAfterSeconds: config.retryAfterSeconds,
      }),
    });
  },
  (url) => `IMAGE_API_KEY=dev IMAGE_API_URL=${url} npm start`,
);
