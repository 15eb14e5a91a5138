import type { BuiltImageCall, ImageCallSettings } from './built-image-call';
import type { ImageRequest } from './image-request';
import { isGptImageModel } from './model-capabilities';

/**
 * The request the service has always sent, byte for byte, for any
 * OpenAI-compatible endpoint (IMAGE_PROVIDER=openai-compatible): which
 * models such an endpoint serves, and what they accept, is not known here,
 * so the registry is not consulted.
 */
export function openAiCompatibleCall(
  model: string,
  request: ImageRequest,
  settings: ImageCallSettings,
): BuiltImageCall {
  if (isGptImageModel(model)) {
    return {
      body: {
        model,
        prompt: request.prompt,
        n: 1,
        size: '1024x1024',
        quality: request.quality,
        // The prompt asks for a transparent or white background; the
        // parameter makes it a transparent one.
        background: 'transparent',
        output_format: 'png',
      },
      answer: 'base64',
    };
  }
  const responseFormat = request.wantBytes
    ? 'b64_json'
    : settings.responseFormat;
  // The documented request, key order included; only the answer format may
  // be switched to base64 (IMAGE_RESPONSE_FORMAT).
  return {
    body: {
      model,
      prompt: request.prompt,
      n: 1,
      size: '1024x1024',
      quality: 'standard',
      response_format: responseFormat,
    },
    answer: responseFormat === 'b64_json' ? 'base64' : 'url',
  };
}
