import { loggingConfig } from './logging.config';

const PRODUCTION = { NODE_ENV: 'production' };

describe('logging configuration', () => {
  it('writes JSON lines at info by default', () => {
    expect(loggingConfig(PRODUCTION)).toEqual({
      logLevel: 'info',
      logFormat: 'json',
      scrubbedKey: undefined,
      scrubbedModelKeys: [],
    });
  });

  it('defaults LOG_LEVEL to silent under NODE_ENV=test, so test output stays readable', () => {
    expect(loggingConfig({ NODE_ENV: 'test' }).logLevel).toBe('silent');
    expect(
      loggingConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' }).logLevel,
    ).toBe('info');
  });

  it('reads LOG_LEVEL and LOG_FORMAT whatever their case', () => {
    expect(
      loggingConfig({
        ...PRODUCTION,
        LOG_LEVEL: 'DEBUG',
        LOG_FORMAT: 'Pretty',
      }),
    ).toMatchObject({ logLevel: 'debug', logFormat: 'pretty' });
  });

  it('keeps the image-API key to scrub it from every line; a blank one is none', () => {
    expect(loggingConfig({ IMAGE_API_KEY: 'sk-test' }).scrubbedKey).toBe(
      'sk-test',
    );
    expect(loggingConfig({ IMAGE_API_KEY: '   ' }).scrubbedKey).toBeUndefined();
  });

  it.each([
    ['LOG_LEVEL', 'loud'],
    ['LOG_FORMAT', 'xml'],
  ])('refuses %s=%s with one line naming it', (name, value) => {
    expect(() => loggingConfig({ [name]: value })).toThrow(
      new RegExp(`^Invalid configuration: ${name} must be`),
    );
  });
});
