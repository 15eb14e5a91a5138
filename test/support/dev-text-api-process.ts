import { startDevApiProcess, type DevApiProcess } from './dev-api-process';

const TEXT_API = {
  folder: 'text-api',
  prefix: 'TEXT_DEV_',
  name: 'dev text API',
};

/** `url` is the base URL to set as TEXT_API_URL, as the process printed it. */
export type DevTextApiProcess = DevApiProcess;

/** The built dev text API as `npm run text-api:dev` runs it. */
export const startDevTextApiProcess = (
  env: Record<string, string> = {},
): Promise<DevTextApiProcess> => startDevApiProcess(TEXT_API, env);
