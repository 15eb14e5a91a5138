import { registerAs, type ConfigType } from '@nestjs/config';
import { ConfigurationError, read, type Env } from '../environment/env-values';

export const LOG_LEVELS = [
  'silent',
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The process's log lines: how many, in which form, and what never shows. */
export const loggingConfig = registerAs(
  'logging',
  (env: Env = process.env) => ({
    logLevel: logLevel(env),
    /** 'json': one JSON object per line; 'pretty': for a human at a terminal. */
    logFormat: logFormat(env),
    /**
     * The image-API key (validated with logo generation), removed from
     * every line before it is written.
     */
    scrubbedKey: read(env, 'IMAGE_API_KEY'),
    /** The text and code models' keys, removed the same way. */
    scrubbedModelKeys: ['TEXT_API_KEY', 'CODE_API_KEY']
      .map((name) => read(env, name))
      .filter((key): key is string => key !== undefined),
  }),
);

export type LoggingConfig = ConfigType<typeof loggingConfig>;

function logLevel(env: Env): LogLevelName {
  // Under Jest (NODE_ENV=test) request lines would drown the test report; a
  // test that reads the log sets LOG_LEVEL itself.
  const fallback = env.NODE_ENV === 'test' ? 'silent' : 'info';
  const raw = read(env, 'LOG_LEVEL')?.toLowerCase() ?? fallback;
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigurationError(
      'LOG_LEVEL',
      `must be one of ${LOG_LEVELS.join(', ')} (got "${raw}")`,
    );
  }
  return raw as LogLevelName;
}

function logFormat(env: Env): LogFormat {
  const raw = read(env, 'LOG_FORMAT')?.toLowerCase() ?? 'json';
  if (!(LOG_FORMATS as readonly string[]).includes(raw)) {
    throw new ConfigurationError(
      'LOG_FORMAT',
      `must be json or pretty (got "${raw}")`,
    );
  }
  return raw as LogFormat;
}
