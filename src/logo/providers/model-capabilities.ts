import type { ImageFormat } from './image-request';
import type { ImageProvider } from './image-providers';

/** What one image model accepts, as its provider documents it. */
export interface ModelCapabilities {
  id: string;
  providers: ImageProvider[];
  /** `WIDTHxHEIGHT`, the first is the one used when a size is not offered. */
  sizes: string[];
  maxCount: number;
  formats: ImageFormat[];
  /** `background: "transparent"` is accepted (gpt-image-2 refuses it). */
  transparentBackground: boolean;
  edits: boolean;
  inputFidelity: boolean;
  /**
   * The model answers a URL unless `response_format` asks for base64;
   * false for GPT image models, which refuse the parameter.
   */
  responseFormat: boolean;
  /** The provider's announced shutdown (past: the model is gone). */
  shutdownDate?: string;
  /**
   * Any size within the rules of flexible-size.ts is accepted besides
   * `sizes` (gpt-image-2 and later).
   */
  flexibleSizes?: boolean;
}

const GPT_IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536', 'auto'];
const OPENAI: ImageProvider[] = ['openai', 'openai-compatible'];

/** A GPT image model of OpenAI's images API. */
const gptImage = (
  id: string,
  rest: Partial<ModelCapabilities> = {},
): ModelCapabilities => ({
  id,
  providers: OPENAI,
  sizes: GPT_IMAGE_SIZES,
  maxCount: 10,
  formats: ['png', 'webp', 'jpeg'],
  transparentBackground: true,
  edits: true,
  inputFidelity: true,
  responseFormat: false,
  ...rest,
});

/**
 * The models the service knows, in one place. Shutdown dates are OpenAI's
 * deprecations page (also `shutdown_date` of its GET /v1/models): dall-e-2
 * and dall-e-3 went on 2026-05-12, gpt-image-1 on 2026-10-23; gpt-image-1.5,
 * gpt-image-1-mini and chatgpt-image-latest go on 2026-12-01.
 */
export const MODEL_CAPABILITIES: readonly ModelCapabilities[] = [
  {
    id: 'dall-e-2',
    providers: OPENAI,
    sizes: ['1024x1024', '512x512', '256x256'],
    maxCount: 10,
    formats: ['png'],
    transparentBackground: false,
    edits: true,
    inputFidelity: false,
    responseFormat: true,
    shutdownDate: '2026-05-12',
  },
  {
    id: 'dall-e-3',
    providers: OPENAI,
    sizes: ['1024x1024', '1792x1024', '1024x1792'],
    maxCount: 1,
    formats: ['png'],
    transparentBackground: false,
    edits: false,
    inputFidelity: false,
    responseFormat: true,
    shutdownDate: '2026-05-12',
  },
  gptImage('gpt-image-1', { shutdownDate: '2026-10-23' }),
  gptImage('gpt-image-1-mini', {
    inputFidelity: false,
    shutdownDate: '2026-12-01',
  }),
  gptImage('gpt-image-1.5', { shutdownDate: '2026-12-01' }),
  gptImage('chatgpt-image-latest', { shutdownDate: '2026-12-01' }),
  // Transparent backgrounds were withdrawn from gpt-image-2 on 2026-09-30:
  // a request asking for one is refused with a 400.
  gptImage('gpt-image-2', {
    transparentBackground: false,
    flexibleSizes: true,
  }),
  gptImage('gpt-image-2.5-sunburst', { flexibleSizes: true }),
  {
    id: 'black-forest-labs/FLUX.1-schnell',
    providers: ['together'],
    sizes: ['1024x1024', '1024x768', '768x1024'],
    maxCount: 4,
    formats: ['png', 'jpeg'],
    transparentBackground: false,
    edits: false,
    inputFidelity: false,
    responseFormat: true,
  },
  {
    id: 'black-forest-labs/FLUX.1.1-pro',
    providers: ['together'],
    sizes: ['1024x1024', '1024x768', '768x1024'],
    maxCount: 1,
    formats: ['png', 'jpeg'],
    transparentBackground: false,
    edits: false,
    inputFidelity: false,
    responseFormat: true,
  },
  // Recraft: the vector models draw SVG only, the others raster images.
  recraft('recraftv4_1_vector', ['svg']),
  recraft('recraftv4_1_pro_vector', ['svg']),
  recraft('recraftv4_1', ['png', 'webp']),
];

/** A Recraft model: six images at most per call, no edits here. */
function recraft(
  id: string,
  formats: ModelCapabilities['formats'],
): ModelCapabilities {
  return {
    id,
    providers: ['recraft'],
    sizes: ['1024x1024', '1365x1024', '1024x1365'],
    maxCount: 6,
    formats,
    transparentBackground: false,
    edits: false,
    inputFidelity: false,
    responseFormat: true,
  };
}

/**
 * A current model that accepts a transparent background: what a retired
 * model's warning suggests.
 */
export const RECOMMENDED_IMAGE_MODEL = 'gpt-image-2.5-sunburst';

/** GPT image models by name, known or not (gpt-image…, chatgpt-image…). */
export function isGptImageModel(model: string): boolean {
  const name = model.trim().toLowerCase();
  return name.startsWith('gpt-image') || name.startsWith('chatgpt-image');
}

/**
 * What `model` accepts. A model the registry does not know gets the least
 * any model of its provider takes: one square PNG, no transparency, no
 * edits (an unknown GPT image model still refuses `response_format`).
 */
export function capabilitiesOf(
  model: string,
  provider?: string,
): ModelCapabilities {
  const name = model.trim().toLowerCase();
  const known = MODEL_CAPABILITIES.find(
    (entry) =>
      entry.id.toLowerCase() === name &&
      (provider === undefined ||
        (entry.providers as string[]).includes(provider)),
  );
  if (known) return known;
  return {
    id: model,
    providers: provider ? [provider as ImageProvider] : [],
    sizes: ['1024x1024'],
    maxCount: 1,
    formats: ['png'],
    transparentBackground: false,
    edits: false,
    inputFidelity: false,
    responseFormat: !isGptImageModel(model),
  };
}

/** The model's shutdown date has passed on `today` (YYYY-MM-DD, UTC). */
export function isRetired(
  capabilities: Pick<ModelCapabilities, 'shutdownDate'>,
  today = new Date().toISOString().slice(0, 10),
): boolean {
  return (
    capabilities.shutdownDate !== undefined &&
    capabilities.shutdownDate <= today
  );
}

/** What a logo is drawn as when none is asked: PNG, or SVG for a model that draws nothing else. */
export function defaultLogoFormat(
  capabilities: Pick<ModelCapabilities, 'formats'>,
): 'png' | 'svg' {
  const { formats } = capabilities;
  return formats.includes('png') || !formats.includes('svg') ? 'png' : 'svg';
}
