import { expectsBase64, retiredModelWarning } from './image-models';

const settings = (
  model: string,
  responseFormat: 'url' | 'b64_json',
  provider: 'openai-compatible' | 'openai' | 'together' = 'openai-compatible',
) => ({ model, responseFormat, provider, quality: 'auto' as const });

describe('image models', () => {
  it('base64 is expected from GPT image models and from IMAGE_RESPONSE_FORMAT=b64_json only', () => {
    expect(expectsBase64(settings('gpt-image-2', 'url'))).toBe(true);
    expect(expectsBase64(settings('dall-e-3', 'b64_json'))).toBe(true);
    expect(expectsBase64(settings('dall-e-3', 'url'))).toBe(false);
    expect(
      expectsBase64(
        settings('black-forest-labs/FLUX.1-schnell', 'url', 'together'),
      ),
    ).toBe(false);
  });

  it.each(['dall-e-2', 'dall-e-3', 'gpt-image-1'])(
    'a retired model (%s) gets one warning naming IMAGE_MODEL and a current model',
    (model) => {
      const warning = retiredModelWarning({ model });
      expect(warning).toContain(`IMAGE_MODEL=${model}`);
      expect(warning).toMatch(/Set IMAGE_MODEL=gpt-image-2\.5-sunburst/);
      expect(warning).not.toContain('\n');
    },
  );

  it('a model shut down on 2026-12-01 counts as retired from that day on', () => {
    expect(
      retiredModelWarning({ model: 'gpt-image-1.5' }, '2026-11-30'),
    ).toBeUndefined();
    expect(
      retiredModelWarning({ model: 'gpt-image-1.5' }, '2026-12-01'),
    ).toContain('IMAGE_MODEL=gpt-image-1.5');
  });

  it('a current model gets no warning', () => {
    expect(
      retiredModelWarning({ model: 'gpt-image-2.5-sunburst' }),
    ).toBeUndefined();
  });
});
