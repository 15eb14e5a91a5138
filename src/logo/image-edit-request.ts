import {
  capabilitiesOf,
  isGptImageModel,
} from './providers/model-capabilities';

/**
 * What an edit call of the images API sends besides the prompt, the
 * image and `n`, by model — the one place that decides it. From OpenAI's
 * images edit reference: `input_fidelity` is taken by gpt-image-1,
 * gpt-image-1.5 and later GPT image models, not by gpt-image-1-mini (nor
 * by dall-e-2, the one other model with edits); GPT image models refuse
 * `response_format` and always answer base64, the others answer a URL
 * unless asked for `b64_json`.
 */
export function editRequestFields(model: string): Record<string, string> {
  if (!isGptImageModel(model)) {
    return { model, size: '1024x1024', response_format: 'b64_json' };
  }
  return {
    model,
    size: '1024x1024',
    output_format: 'png',
    // The kept logo's mark, letters and colors are what the edit must keep.
    ...(takesInputFidelity(model) ? { input_fidelity: 'high' } : {}),
  };
}

/** Whether `model` accepts `input_fidelity`, by the capability registry. */
export function takesInputFidelity(model: string): boolean {
  return capabilitiesOf(model).inputFidelity;
}

/**
 * IMAGE_API_URL's edit endpoint: its /images/generations made
 * /images/edits; undefined when the URL does not end so.
 */
export function editsUrl(generationsUrl: string): string | undefined {
  const url = new URL(generationsUrl);
  if (!/\/images\/generations\/?$/.test(url.pathname)) return undefined;
  url.pathname = url.pathname.replace(
    /\/images\/generations\/?$/,
    '/images/edits',
  );
  return url.toString();
}
