/**
 * Reading environment variables into typed values, shared by every
 * feature's configuration. A bad value throws a ConfigurationError whose
 * message is one line naming the variable, so start-up can say exactly
 * what to fix.
 */

export type Env = Record<string, string | undefined>;

export class ConfigurationError extends Error {
  constructor(variable: string, rule: string) {
    super(`Invalid configuration: ${variable} ${rule}`);
    this.name = 'ConfigurationError';
  }
}

/** Every invalid setting found at start-up, one line each. */
export class ConfigurationErrors extends Error {
  constructor(readonly errors: ConfigurationError[]) {
    super(errors.map((error) => error.message).join('\n'));
    this.name = 'ConfigurationErrors';
  }
}

/** A blank variable counts as unset, as it does in most deployment tools. */
export function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function integer(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigurationError(
      name,
      `must be an integer from ${min} to ${max} (got "${raw}")`,
    );
  }
  return value;
}

export function optionalInteger(
  env: Env,
  name: string,
  min: number,
  max: number,
): number | undefined {
  return read(env, name) === undefined
    ? undefined
    : integer(env, name, min, min, max);
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigurationError(name, `must be true or false (got "${raw}")`);
}

export function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = read(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigurationError(name, `must be an http(s) URL (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(name, `must be an http(s) URL (got "${raw}")`);
  }
  return raw;
}

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  mb: 1024 * 1024,
};

export function byteSize(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const match = /^(\d+)\s*(b|kb|mb)?$/i.exec(raw);
  const bytes = match
    ? Number(match[1]) * SIZE_UNITS[(match[2] ?? 'b').toLowerCase()]
    : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new ConfigurationError(
      name,
      `must be a size such as 1mb, 512kb or 2048 (got "${raw}")`,
    );
  }
  return bytes;
}

/** One of a fixed list of names, case-insensitive. */
export function oneOf<T extends string>(
  env: Env,
  name: string,
  values: readonly T[],
  fallback: T,
): T {
  const raw = read(env, name)?.toLowerCase() ?? fallback;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigurationError(
      name,
      `must be one of ${values.join(', ')} (got "${raw}")`,
    );
  }
  return raw as T;
}

/** A comma-separated list: items trimmed, empty ones dropped; unset = []. */
export function commaList(env: Env, name: string): string[] {
  const value = read(env, name);
  if (value === undefined) return [];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
