import { assetsConfig } from '../src/assets/assets.config';
import { authConfig } from '../src/auth/auth.config';
import { redisConfig } from '../src/common/rate-limit/redis.config';
import { databaseConfig } from '../src/database/database.config';
import { apiDocsConfig } from '../src/docs/api-docs.config';
import {
  ConfigurationError,
  ConfigurationErrors,
  type Env,
} from '../src/environment/env-values';
import { eventsConfig } from '../src/events/events.config';
import { idempotencyConfig } from '../src/idempotency/idempotency.config';
import { loggingConfig } from '../src/logging/logging.config';
import { logoConfig } from '../src/logo/logo.config';
import { httpConfig } from '../src/platform/http.config';
import { limitsConfig } from '../src/common/limits.config';
import { processConfig } from '../src/process/process.config';
import { projectsConfig } from '../src/projects/projects.config';
import { runsConfig } from '../src/runs/runs.config';
import { tasksConfig } from '../src/tasks/tasks.config';
import { textGenerationConfig } from '../src/text-generation/text-generation.config';
import { usageConfig } from '../src/usage/usage.config';
import { sitesConfig } from '../src/sites/sites.config';

/**
 * Every feature's configuration slice under its registerAs name. Each slice
 * lives next to its module and validates its own variables; tracing's are
 * read before Nest starts (src/tracing/start-tracing.ts).
 */
const SLICES = {
  process: processConfig,
  database: databaseConfig,
  limits: limitsConfig,
  logging: loggingConfig,
  http: httpConfig,
  projects: projectsConfig,
  logo: logoConfig,
  redis: redisConfig,
  idempotency: idempotencyConfig,
  auth: authConfig,
  assets: assetsConfig,
  apiDocs: apiDocsConfig,
  tasks: tasksConfig,
  runs: runsConfig,
  events: eventsConfig,
  textGeneration: textGenerationConfig,
  usage: usageConfig,
  sites: sitesConfig,
};

/** For ConfigModule.forRoot({ load }). */
export const CONFIGURATION = Object.values(SLICES);

/** Every slice's values, under the slice's name. */
export type Configuration = {
  [Name in keyof typeof SLICES]: ReturnType<(typeof SLICES)[Name]>;
};

/**
 * Reads every slice at once, before anything starts: one invalid setting
 * throws its ConfigurationError (one line naming the variable); several
 * throw ConfigurationErrors, one line for each slice that has one.
 */
export function loadConfiguration(env: Env = process.env): Configuration {
  const values: Record<string, unknown> = {};
  const problems: ConfigurationError[] = [];
  for (const [name, slice] of Object.entries(SLICES)) {
    try {
      values[name] = slice(env);
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      problems.push(error);
    }
  }
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) throw new ConfigurationErrors(problems);
  return values as Configuration;
}
