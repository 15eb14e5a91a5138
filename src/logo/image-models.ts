import type { ImageApiConfig } from './logo.config';

/**
 * What the image models of OpenAI's images API accept, in one place: which
 * request a model gets, and which model names the provider has retired.
 */

/**
 * GPT image models take size, quality, background and output_format, refuse
 * `response_format` (400 "Unknown parameter") and always answer base64.
 */
export function isGptImageModel(model: string): boolean {
  const name = model.trim().toLowerCase();
  return name.startsWith('gpt-image') || name.startsWith('chatgpt-image');
}

/**
 * A current GPT image model that accepts a transparent background (the
 * prompt asks for one): what a retired model's warning suggests.
 */
export const RECOMMENDED_IMAGE_MODEL = 'gpt-image-2.5-sunburst';

/**
 * Models the provider has shut down: a request naming one is refused
 * (`model_not_found`). dall-e-2 and dall-e-3 on 2026-05-12, gpt-image-1 on
 * 2026-10-23.
 */
export const RETIRED_IMAGE_MODELS: readonly string[] = [
  'dall-e-2',
  'dall-e-3',
  'gpt-image-1',
];

/** The one start-up warning for a retired IMAGE_MODEL, or undefined. */
export function retiredModelWarning(
  imageApi: Pick<ImageApiConfig, 'model'>,
): string | undefined {
  const model = imageApi.model.trim().toLowerCase();
  if (!RETIRED_IMAGE_MODELS.includes(model)) return undefined;
  return `IMAGE_MODEL=${imageApi.model} names a model the provider has retired; its calls are refused. Set IMAGE_MODEL=${RECOMMENDED_IMAGE_MODEL} (or another current GPT image model) for OpenAI.`;
}

/** The body of one generation call, by the configured model. */
export function imageRequestBody(
  imageApi: Pick<ImageApiConfig, 'model' | 'quality' | 'responseFormat'>,
  prompt: string,
): Record<string, unknown> {
  const { model } = imageApi;
  if (isGptImageModel(model)) {
    return {
      model,
      prompt,
      n: 1,
      size: '1024x1024',
      quality: imageApi.quality,
      // The prompt asks for a transparent or white background; the
      // parameter makes it a transparent one.
      background: 'transparent',
      output_format: 'png',
    };
  }
  // The documented request, key order included; only the answer format may
  // be switched to base64 (IMAGE_RESPONSE_FORMAT).
  return {
    model,
    prompt,
    n: 1,
    size: '1024x1024',
    quality: 'standard',
    response_format: imageApi.responseFormat,
  };
}

/** Whether the configured call answers base64 (so the service hosts it). */
export function expectsBase64(
  imageApi: Pick<ImageApiConfig, 'model' | 'responseFormat'>,
): boolean {
  return (
    isGptImageModel(imageApi.model) || imageApi.responseFormat === 'b64_json'
  );
}
