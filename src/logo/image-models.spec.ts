import {
  expectsBase64,
  imageRequestBody,
  isGptImageModel,
  retiredModelWarning,
} from './image-models';

describe('image models', () => {
  it.each([
    'gpt-image-2',
    'gpt-image-2.5-sunburst',
    'chatgpt-image-latest',
    'GPT-Image-1.5',
  ])('%s is a GPT image model', (model) =>
    expect(isGptImageModel(model)).toBe(true),
  );
  it.each(['dall-e-3', 'flux-schnell', 'my-gpt-image'])(
    '%s is not a GPT image model',
    (model) => expect(isGptImageModel(model)).toBe(false),
  );

  it('the default model keeps the documented request, key order included', () => {
    const body = imageRequestBody(
      { model: 'dall-e-3', quality: 'auto', responseFormat: 'url' },
      'draw',
    );
    expect(JSON.stringify(body)).toBe(
      '{"model":"dall-e-3","prompt":"draw","n":1,"size":"1024x1024","quality":"standard","response_format":"url"}',
    );
  });

  it('a GPT image model gets size, IMAGE_QUALITY, a transparent PNG and no response_format', () => {
    const body = imageRequestBody(
      { model: 'gpt-image-2', quality: 'high', responseFormat: 'b64_json' },
      'draw',
    );
    expect(body).toEqual({
      model: 'gpt-image-2',
      prompt: 'draw',
      n: 1,
      size: '1024x1024',
      quality: 'high',
      background: 'transparent',
      output_format: 'png',
    });
  });

  it('base64 is expected from GPT image models and from IMAGE_RESPONSE_FORMAT=b64_json only', () => {
    expect(expectsBase64({ model: 'gpt-image-2', responseFormat: 'url' })).toBe(
      true,
    );
    expect(
      expectsBase64({ model: 'dall-e-3', responseFormat: 'b64_json' }),
    ).toBe(true);
    expect(expectsBase64({ model: 'dall-e-3', responseFormat: 'url' })).toBe(
      false,
    );
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

  it('a current model gets no warning', () => {
    expect(
      retiredModelWarning({ model: 'gpt-image-2.5-sunburst' }),
    ).toBeUndefined();
  });
});
