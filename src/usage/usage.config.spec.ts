import { ConfigurationError } from '../environment/env-values';
import { usageConfig } from './usage.config';

describe('usage configuration', () => {
  it('has no budget and no operator prices when nothing is set', () => {
    expect(usageConfig({})).toEqual({
      limitPerUserDayUsd: undefined,
      limitPerProjectUsd: undefined,
      prices: {},
    });
  });

  it('reads the budgets in USD and the operator prices as JSON', () => {
    const config = usageConfig({
      SPEND_LIMIT_USD_PER_USER_DAY: '2.5',
      SPEND_LIMIT_USD_PER_PROJECT: '40',
      SPEND_PRICES: '{"my-model":{"kind":"image","perImage":{"*":{"*":0.03}}}}',
    });
    expect(config.limitPerUserDayUsd).toBe(2.5);
    expect(config.limitPerProjectUsd).toBe(40);
    expect(config.prices['my-model']).toEqual({
      kind: 'image',
      perImage: { '*': { '*': 0.03 } },
    });
  });

  it.each([
    [{ SPEND_LIMIT_USD_PER_USER_DAY: '-1' }, 'SPEND_LIMIT_USD_PER_USER_DAY'],
    [{ SPEND_LIMIT_USD_PER_PROJECT: 'lots' }, 'SPEND_LIMIT_USD_PER_PROJECT'],
    [{ SPEND_PRICES: '{' }, 'SPEND_PRICES'],
    [{ SPEND_PRICES_FILE: '/nonexistent/prices.json' }, 'SPEND_PRICES_FILE'],
    [{ SPEND_PRICES: '{}', SPEND_PRICES_FILE: '/x' }, 'SPEND_PRICES'],
  ])('refuses %j at start-up, naming the variable', (env, variable) => {
    expect(() => usageConfig(env)).toThrow(ConfigurationError);
    expect(() => usageConfig(env)).toThrow(variable);
  });
});
