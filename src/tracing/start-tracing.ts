/**
 * Starts tracing before anything else is loaded: main.ts imports this file
 * first, because the instrumentations patch http, express, @nestjs/core, pg
 * and ioredis as they are required. With tracing off (no OTLP endpoint) the
 * SDK is not even loaded, so requests run no OpenTelemetry code at all.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { ConfigurationError } from '../environment/env-values';
import { setRunningTracing } from './running-tracing';
import { loadTracingConfiguration } from './tracing.config';

/**
 * OTEL_* lines of ./.env, for variables the environment does not set: the
 * rule ConfigModule applies to the rest of the file, only earlier, since
 * tracing starts before ConfigModule is loaded. Tests never read it.
 */
function withDotEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.NODE_ENV === 'test' || !existsSync('.env')) return env;
  const file = parseEnv(readFileSync('.env', 'utf8'));
  for (const [name, value] of Object.entries(file)) {
    if (name.startsWith('OTEL_') && env[name] === undefined) env[name] = value;
  }
  return env;
}

function start(): void {
  let config;
  try {
    config = loadTracingConfiguration(withDotEnv(process.env));
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    // The same one line as any other invalid setting (main.ts).
    console.error(error.message);
    process.exit(1);
  }
  if (!config.enabled) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./tracing-sdk') as typeof import('./tracing-sdk');
  setRunningTracing(sdk.startTracingSdk(config));
}

start();
