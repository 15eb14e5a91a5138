import type { ImageApiConfig } from './logo.config';
import { buildImageRequest } from './providers/build-image-request';
import type { ImageRequest } from './providers/image-request';
import {
  capabilitiesOf,
  defaultLogoFormat,
  isRetired,
  RECOMMENDED_IMAGE_MODEL,
} from './providers/model-capabilities';

type ModelSettings = Pick<
  ImageApiConfig,
  'model' | 'quality' | 'responseFormat' | 'provider'
>;

/**
 * A logo: one 1024x1024 PNG on a transparent background (the prompt also
 * asks for a white one, for models that cannot draw transparency).
 */
export function logoImageRequest(
  prompt: string,
  imageApi: Pick<ImageApiConfig, 'quality'>,
  wantBytes: boolean,
  format: 'png' | 'svg' = 'png',
): ImageRequest {
  return {
    prompt,
    count: 1,
    size: { width: 1024, height: 1024 },
    background: 'transparent',
    format,
    quality: imageApi.quality,
    wantBytes,
  };
}

/** Whether the configured call answers base64 (so the service hosts it). */
export function expectsBase64(imageApi: ModelSettings): boolean {
  return (
    buildImageRequest(
      imageApi.provider,
      imageApi.model,
      logoImageRequest(
        '',
        imageApi,
        false,
        defaultLogoFormat(capabilitiesOf(imageApi.model, imageApi.provider)),
      ),
      imageApi,
    ).answer === 'base64'
  );
}

/**
 * The one start-up warning for an IMAGE_MODEL whose shutdown date (the
 * registry's) has passed, or undefined.
 */
export function retiredModelWarning(
  imageApi: Pick<ImageApiConfig, 'model'>,
  today?: string,
): string | undefined {
  if (!isRetired(capabilitiesOf(imageApi.model), today)) return undefined;
  return `IMAGE_MODEL=${imageApi.model} names a model the provider has retired; its calls are refused. Set IMAGE_MODEL=${RECOMMENDED_IMAGE_MODEL} (or another current GPT image model) for OpenAI.`;
}
