import type { BuiltImageCall, ImageCallSettings } from './built-image-call';
import type { ImageRequest } from './image-request';
import type { ModelCapabilities } from './model-capabilities';
import { fitToModel } from './request-fit';

/**
 * OpenAI's images API (IMAGE_PROVIDER=openai). GPT image models take a size
 * string, quality, background, output_format and n, refuse
 * `response_format` and always answer base64; the DALL·E models take
 * `response_format` instead.
 */
export function openAiCall(
  model: string,
  request: ImageRequest,
  capabilities: ModelCapabilities,
  settings: ImageCallSettings,
): BuiltImageCall {
  const fit = fitToModel(request, capabilities);
  if (!capabilities.responseFormat) {
    return {
      body: {
        model,
        prompt: request.prompt,
        n: fit.count,
        size: fit.size,
        ...(request.quality ? { quality: request.quality } : {}),
        background: fit.background,
        output_format: request.format,
      },
      answer: 'base64',
    };
  }
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
