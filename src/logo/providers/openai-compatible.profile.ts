import type { BuiltImageCall, ImageCallSettings } from './built-image-call';
import type { ImageRequest } from './image-request';
import { capabilitiesOf, isGptImageModel } from './model-capabilities';

/**
 * The request the service has always sent for any OpenAI-compatible
 * endpoint (IMAGE_PROVIDER=openai-compatible): the contract's body, byte
 * for byte, for every model but the GPT image models, whose body is
 * OpenAI's. Of the registry only one fact is used: a GPT image model that
 * refuses a transparent background (gpt-image-2) is asked for an opaque
 * one, which the prompt already allows ("transparent or white").
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
        // parameter makes it a transparent one where the model can.
        background: capabilitiesOf(model).transparentBackground
          ? 'transparent'
          : 'opaque',
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
