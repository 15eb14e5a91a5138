import { readFileSync } from 'node:fs';
import { registerAs, type ConfigType } from '@nestjs/config';
import { ConfigurationError, read, type Env } from '../environment/env-values';
import { parsePriceTable, type PriceTable } from './price-table';

/**
 * Spend budgets (USD, unset = no limit) and the operator's prices, which
 * replace the entries of src/usage/price-table.ts they name:
 * SPEND_PRICES (JSON) or SPEND_PRICES_FILE (a path to the same JSON).
 */
export const usageConfig = registerAs('usage', (env: Env = process.env) => ({
  /** A user's paid calls in one UTC day, all projects together. */
  limitPerUserDayUsd: usdLimit(env, 'SPEND_LIMIT_USD_PER_USER_DAY'),
  /** One project's paid calls in one UTC calendar month. */
  limitPerProjectUsd: usdLimit(env, 'SPEND_LIMIT_USD_PER_PROJECT'),
  prices: prices(env),
}));

export type UsageConfig = ConfigType<typeof usageConfig>;

function usdLimit(env: Env, name: string): number | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  const value = /^\d+(\.\d{1,6})?$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(value) || value > 1_000_000_000) {
    throw new ConfigurationError(
      name,
      `must be an amount of USD from 0 to 1000000000, at most 6 decimals (got "${raw}")`,
    );
  }
  return value;
}

function prices(env: Env): PriceTable {
  const inline = read(env, 'SPEND_PRICES');
  const file = read(env, 'SPEND_PRICES_FILE');
  if (inline !== undefined && file !== undefined) {
    throw new ConfigurationError(
      'SPEND_PRICES',
      'and SPEND_PRICES_FILE cannot both be set',
    );
  }
  if (inline !== undefined) return parsed('SPEND_PRICES', inline);
  if (file === undefined) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigurationError('SPEND_PRICES_FILE', 'cannot be read');
  }
  return parsed('SPEND_PRICES_FILE', text);
}

function parsed(name: string, text: string): PriceTable {
  try {
    return parsePriceTable(text);
  } catch (error) {
    throw new ConfigurationError(name, (error as Error).message);
  }
}
