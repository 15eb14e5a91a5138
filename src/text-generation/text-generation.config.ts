import { registerAs, type ConfigType } from '@nestjs/config';
import { httpUrl, integer, read, type Env } from '../environment/env-values';

/** One OpenAI-compatible Chat Completions endpoint and the model it is asked for. */
export interface TextModelSettings {
  /** The API's base URL; calls go to `${url}/chat/completions`. */
  url: string;
  key: string | undefined;
  model: string;
}

/** A current OpenAI chat model; any OpenAI-compatible server's own name works too. */
export const DEFAULT_TEXT_MODEL = 'gpt-5.4-mini';

/**
 * The text model (TEXT_PROVIDER: marketing copy) and the code model
 * (CODE_PROVIDER: landing pages), each CODE_* defaulting to its TEXT_*,
 * and the bounds every call to them keeps.
 */
export const textGenerationConfig = registerAs(
  'textGeneration',
  (env: Env = process.env) => {
    const text: TextModelSettings = {
      url: httpUrl(env, 'TEXT_API_URL', 'https://api.openai.com/v1'),
      key: read(env, 'TEXT_API_KEY'),
      model: read(env, 'TEXT_MODEL') ?? DEFAULT_TEXT_MODEL,
    };
    const code: TextModelSettings = {
      url: httpUrl(env, 'CODE_API_URL', text.url),
      key: read(env, 'CODE_API_KEY') ?? text.key,
      model: read(env, 'CODE_MODEL') ?? text.model,
    };
    return {
      text,
      code,
      /** One call, its retries included. */
      deadlineMs: integer(env, 'TEXT_API_DEADLINE_MS', 120_000, 1000, 600_000),
      /** Calls per request, the first included (429, 5xx, lost connections). */
      maxAttempts: integer(env, 'TEXT_API_MAX_ATTEMPTS', 3, 1, 10),
      /** Calls in flight per instance. */
      concurrency: integer(env, 'TEXT_API_CONCURRENCY', 4, 1, 256),
      /** Calls in flight per client (a project's owner). */
      clientConcurrency: integer(env, 'TEXT_API_CLIENT_CONCURRENCY', 2, 1, 256),
    };
  },
);

export type TextGenerationConfig = ConfigType<typeof textGenerationConfig>;
