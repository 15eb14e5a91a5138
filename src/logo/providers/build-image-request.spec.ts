import { buildImageRequest } from './build-image-request';
import type { ImageRequest } from './image-request';
import { capabilitiesOf, isGptImageModel } from './model-capabilities';
import { UnsupportedImageRequestError } from './unsupported-image-request.error';

const logo = (rest: Partial<ImageRequest> = {}): ImageRequest => ({
  prompt: 'draw',
  count: 1,
  size: { width: 1024, height: 1024 },
  background: 'transparent',
  format: 'png',
  quality: 'high',
  wantBytes: false,
  ...rest,
});
const url = { responseFormat: 'url' as const };

describe('buildImageRequest', () => {
  describe('openai-compatible keeps the request the service always sent', () => {
    it('the default model: the documented request, key order included', () => {
      const call = buildImageRequest(
        'openai-compatible',
        'dall-e-3',
        logo(),
        url,
      );
      expect(JSON.stringify(call.body)).toBe(
        '{"model":"dall-e-3","prompt":"draw","n":1,"size":"1024x1024","quality":"standard","response_format":"url"}',
      );
      expect(call.answer).toBe('url');
    });

    it('a GPT image model: size, IMAGE_QUALITY, a transparent PNG, no response_format', () => {
      const call = buildImageRequest(
        'openai-compatible',
        'gpt-image-2.5-sunburst',
        logo(),
        url,
      );
      expect(JSON.stringify(call.body)).toBe(
        '{"model":"gpt-image-2.5-sunburst","prompt":"draw","n":1,"size":"1024x1024","quality":"high","background":"transparent","output_format":"png"}',
      );
      expect(call.answer).toBe('base64');
    });

    it('gpt-image-2, which refuses a transparent background: the same body with an opaque one', () => {
      const call = buildImageRequest(
        'openai-compatible',
        'gpt-image-2',
        logo(),
        url,
      );
      expect(JSON.stringify(call.body)).toBe(
        '{"model":"gpt-image-2","prompt":"draw","n":1,"size":"1024x1024","quality":"high","background":"opaque","output_format":"png"}',
      );
    });

    it('bytes wanted: b64_json for the other models', () => {
      const call = buildImageRequest(
        'openai-compatible',
        'dall-e-3',
        logo({ wantBytes: true }),
        url,
      );
      expect(call.body.response_format).toBe('b64_json');
      expect(call.answer).toBe('base64');
    });
  });

  describe('openai obeys the model capabilities', () => {
    it('gpt-image-2 refuses transparency: it is asked for an opaque background', () => {
      const call = buildImageRequest('openai', 'gpt-image-2', logo(), url);
      expect(call.body).toEqual({
        model: 'gpt-image-2',
        prompt: 'draw',
        n: 1,
        size: '1024x1024',
        quality: 'high',
        background: 'opaque',
        output_format: 'png',
      });
      expect(call.answer).toBe('base64');
    });

    it('gpt-image-2.5-sunburst keeps the transparent background', () => {
      const call = buildImageRequest(
        'openai',
        'gpt-image-2.5-sunburst',
        logo(),
        url,
      );
      expect(call.body.background).toBe('transparent');
      expect(call.body).not.toHaveProperty('response_format');
    });

    it('the count is clamped to the model maximum', () => {
      expect(
        buildImageRequest('openai', 'gpt-image-2', logo({ count: 50 }), url)
          .body.n,
      ).toBe(10);
      expect(
        buildImageRequest('openai', 'dall-e-3', logo({ count: 3 }), url).body.n,
      ).toBe(1);
    });

    it('a format the model cannot answer is refused before any call', () => {
      expect(() =>
        buildImageRequest(
          'openai',
          'gpt-image-2',
          logo({ format: 'svg' }),
          url,
        ),
      ).toThrow(UnsupportedImageRequestError);
    });

    it('a size the model does not offer becomes its first size', () => {
      expect(
        buildImageRequest(
          'openai',
          'gpt-image-2',
          logo({ size: { width: 300, height: 300 } }),
          url,
        ).body.size,
      ).toBe('1024x1024');
    });

    it('DALL·E models take response_format and no background', () => {
      const call = buildImageRequest('openai', 'dall-e-2', logo(), url);
      expect(call.body).toEqual({
        model: 'dall-e-2',
        prompt: 'draw',
        n: 1,
        size: '1024x1024',
        response_format: 'url',
      });
    });

    it('an unknown model gets the conservative default: one opaque square PNG', () => {
      const call = buildImageRequest(
        'openai',
        'gpt-image-9',
        logo({ count: 4 }),
        url,
      );
      expect(call.body).toMatchObject({ n: 1, background: 'opaque' });
      expect(call.body).not.toHaveProperty('response_format');
    });
  });

  describe('together', () => {
    it('width, height, response_format base64 when bytes are wanted, no background', () => {
      const call = buildImageRequest(
        'together',
        'black-forest-labs/FLUX.1-schnell',
        logo({ wantBytes: true }),
        url,
      );
      expect(call.body).toEqual({
        model: 'black-forest-labs/FLUX.1-schnell',
        prompt: 'draw',
        width: 1024,
        height: 1024,
        n: 1,
        response_format: 'base64',
        output_format: 'png',
      });
      expect(call.answer).toBe('base64');
    });

    it('a URL otherwise', () => {
      const call = buildImageRequest(
        'together',
        'black-forest-labs/FLUX.1-schnell',
        logo(),
        url,
      );
      expect(call.body.response_format).toBe('url');
      expect(call.answer).toBe('url');
    });
  });
});

describe('capabilitiesOf', () => {
  it.each(['gpt-image-1-mini', 'gpt-image-1.5', 'chatgpt-image-latest'])(
    '%s shuts down on 2026-12-01',
    (model) => expect(capabilitiesOf(model).shutdownDate).toBe('2026-12-01'),
  );

  it('gpt-image-2 refuses a transparent background, gpt-image-2.5-sunburst takes one', () => {
    expect(capabilitiesOf('gpt-image-2').transparentBackground).toBe(false);
    expect(capabilitiesOf('gpt-image-2.5-sunburst').transparentBackground).toBe(
      true,
    );
  });

  it('a model of another provider is unknown to this one', () => {
    expect(
      capabilitiesOf('black-forest-labs/FLUX.1-schnell', 'openai').maxCount,
    ).toBe(1);
    expect(
      capabilitiesOf('black-forest-labs/FLUX.1-schnell', 'together').maxCount,
    ).toBe(4);
  });

  it.each(['gpt-image-2', 'chatgpt-image-latest', 'GPT-Image-1.5'])(
    '%s is a GPT image model',
    (model) => expect(isGptImageModel(model)).toBe(true),
  );
  it.each(['dall-e-3', 'flux-schnell', 'my-gpt-image'])(
    '%s is not a GPT image model',
    (model) => expect(isGptImageModel(model)).toBe(false),
  );
});
