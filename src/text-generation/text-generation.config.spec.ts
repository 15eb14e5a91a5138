import {
  DEFAULT_TEXT_MODEL,
  textGenerationConfig,
} from './text-generation.config';

describe('text generation configuration', () => {
  it('gives the code model the text model’s URL, key and model unless CODE_* says otherwise', () => {
    const config = textGenerationConfig({
      TEXT_API_URL: 'http://127.0.0.1:4020/v1',
      TEXT_API_KEY: 'sk-text',
      TEXT_MODEL: 'gpt-5.4',
    });
    expect(config.code).toEqual(config.text);
    const apart = textGenerationConfig({
      TEXT_API_KEY: 'sk-text',
      CODE_API_KEY: 'sk-code',
      CODE_MODEL: 'gpt-5.5',
    });
    expect(apart.text.model).toBe(DEFAULT_TEXT_MODEL);
    expect(apart.code).toMatchObject({ key: 'sk-code', model: 'gpt-5.5' });
  });

  it('refuses a URL that is not http(s)', () => {
    expect(() => textGenerationConfig({ TEXT_API_URL: 'ftp://x' })).toThrow(
      'TEXT_API_URL',
    );
  });
});
