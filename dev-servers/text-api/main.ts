import { runDevServer } from '../run-dev-server';
import { DevTextApi } from './dev-text-api';
import { loadDevTextApiConfiguration } from './dev-text-api.config';

/**
 * `npm run text-api:dev`: the local text and code model API on
 * 127.0.0.1:TEXT_DEV_PORT (default 4030), so marketing copy, landing
 * pages and icons are written without a paid key.
 */
runDevServer(
  'DevTextApi',
  () => {
    const config = loadDevTextApiConfiguration();
    return DevTextApi.start({
      port: config.port,
      beaconUrl: config.beaconUrl,
      defaultReply: {
        kind: config.reply,
        status: config.status,
        message: config.errorMessage,
        latencyMs: config.latencyMs,
        retryAfterSeconds: config.retryAfterSeconds,
      },
    });
  },
  (url) => `TEXT_API_KEY=dev TEXT_API_URL=${url} npm start`,
);
