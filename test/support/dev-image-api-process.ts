import { startDevApiProcess, type DevApiProcess } from './dev-api-process';

const IMAGE_API = {
  folder: 'image-api',
  prefix: 'IMAGE_DEV_',
  name: 'dev image API',
};

/** `url` is the generation endpoint, as the process printed it. */
export type DevImageApiProcess = DevApiProcess;

/** The built dev image API as `npm run image-api:dev` runs it. */
export const startDevImageApiProcess = (
  env: Record<string, string> = {},
): Promise<DevImageApiProcess> => startDevApiProcess(IMAGE_API, env);
