import type { BuiltImageCall, ImageCallSettings } from './built-image-call';
import type { ImageRequest } from './image-request';
import type { ModelCapabilities } from './model-capabilities';
import { fitToModel } from './request-fit';

/**
 * Recraft's images API (IMAGE_PROVIDER=recraft, POST
 * https://external.api.recraft.ai/v1/images/generations): `model`, `n`,
 * `size` and `response_format` ("url" or "b64_json"); a vector model
 * (`…_vector`) answers SVG, the others raster images; the answer is
 * `{data: [{url}]}` or `{data: [{b64_json}]}`. It has no background
 * parameter: the prompt asks for a transparent or white one.
 */
export function recraftCall(
  model: string,
  request: ImageRequest,
  capabilities: ModelCapabilities,
  settings: ImageCallSettings,
): BuiltImageCall {
  const fit = fitToModel(request, capabilities);
  const base64 = request.wantBytes || settings.responseFormat === 'b64_json';
  return {
    body: {
      model,
      prompt: request.prompt,
      n: fit.count,
      size: fit.size,
      response_format: base64 ? 'b64_json' : 'url',
    },
    answer: base64 ? 'base64' : 'url',
  };
}
