import type { BuiltImageCall, ImageCallSettings } from './built-image-call';
import type { ImageRequest } from './image-request';
import type { ModelCapabilities } from './model-capabilities';
import { fitToModel } from './request-fit';

/**
 * Together AI's images API (IMAGE_PROVIDER=together): width and height in
 * pixels, `response_format` "url" or "base64", `output_format` png or
 * jpeg; the answer is `{data: [{b64_json}]}` or `{data: [{url}]}`. It has
 * no background parameter: the prompt asks for a white one.
 */
export function togetherCall(
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
      width: fit.width,
      height: fit.height,
      n: fit.count,
      response_format: base64 ? 'base64' : 'url',
      output_format: request.format,
    },
    answer: base64 ? 'base64' : 'url',
  };
}
