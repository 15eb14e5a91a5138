import type { BuiltImageCall, ImageCallSettings } from './built-image-call';
import type { ImageProvider } from './image-providers';
import type { ImageRequest } from './image-request';
import { capabilitiesOf } from './model-capabilities';
import { openAiCompatibleCall } from './openai-compatible.profile';
import { openAiCall } from './openai.profile';
import { recraftCall } from './recraft.profile';
import { togetherCall } from './together.profile';

/**
 * The HTTP body of one generation by `model` at `provider`, built from the
 * model's capabilities (capabilitiesOf), and how its image comes back.
 * Throws UnsupportedImageRequestError for a format the model cannot answer.
 */
export function buildImageRequest(
  provider: ImageProvider,
  model: string,
  request: ImageRequest,
  settings: ImageCallSettings,
): BuiltImageCall {
  switch (provider) {
    case 'openai-compatible':
      return openAiCompatibleCall(model, request, settings);
    case 'openai':
      return openAiCall(
        model,
        request,
        capabilitiesOf(model, provider),
        settings,
      );
    case 'recraft':
      return recraftCall(
        model,
        request,
        capabilitiesOf(model, provider),
        settings,
      );
    case 'together':
      return togetherCall(
        model,
        request,
        capabilitiesOf(model, provider),
        settings,
      );
  }
}
