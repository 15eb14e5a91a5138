import {
  isGptImageModel,
  isRetired,
  MODEL_CAPABILITIES,
  capabilitiesOf,
} from '../../src/logo/providers/model-capabilities';

/**
 * Where the dev image API plays one provider strictly. Under /openai it
 * answers as OpenAI does today: a retired model is refused with 404
 * model_not_found, and a transparent background with 400 for a model that
 * refuses one. Under /together it takes Together AI's request (width,
 * height, response_format "base64"). The plain /v1 paths stay lenient (any
 * model name, any background): the stand-in of the default
 * IMAGE_PROVIDER=openai-compatible.
 */
export const OPENAI_PREFIX = '/openai';
export const TOGETHER_PREFIX = '/together';
export const RECRAFT_PREFIX = '/recraft';
const GENERATIONS = '/v1/images/generations';
const MODELS = '/v1/models';

export type ProviderRoute =
  | { kind: 'models' }
  | {
      kind: 'generations';
      strict: 'openai' | 'together' | 'recraft' | undefined;
    };

export function providerRoute(
  method: string,
  path: string,
): ProviderRoute | undefined {
  if (method === 'GET' && (path === MODELS || path === OPENAI_PREFIX + MODELS))
    return { kind: 'models' };
  if (method !== 'POST') return undefined;
  if (path === GENERATIONS) return { kind: 'generations', strict: undefined };
  if (path === OPENAI_PREFIX + GENERATIONS)
    return { kind: 'generations', strict: 'openai' };
  if (path === TOGETHER_PREFIX + GENERATIONS)
    return { kind: 'generations', strict: 'together' };
  if (path === RECRAFT_PREFIX + GENERATIONS)
    return { kind: 'generations', strict: 'recraft' };
  return undefined;
}

/**
 * OpenAI's GET /v1/models: every model of the registry not yet shut down,
 * with its `shutdown_date` (null when none is announced).
 */
export function modelList(today = new Date().toISOString().slice(0, 10)) {
  return {
    object: 'list',
    data: MODEL_CAPABILITIES.filter(
      (model) => model.providers.includes('openai') && !isRetired(model, today),
    ).map((model) => ({
      id: model.id,
      object: 'model',
      created: 1_700_000_000,
      owned_by: 'system',
      shutdown_date: model.shutdownDate ?? null,
    })),
  };
}

export interface Refusal {
  status: number;
  json: unknown;
}

/** What the strict provider answers instead of an image, if anything. */
export function refusalOf(
  strict: 'openai' | 'together' | 'recraft' | undefined,
  body: unknown,
): Refusal | undefined {
  const fields = (body ?? {}) as Record<string, unknown>;
  const model = typeof fields.model === 'string' ? fields.model : '';
  if (strict === 'openai') {
    const capabilities = capabilitiesOf(model, 'openai');
    const known = capabilities.providers.includes('openai');
    if (!known || isRetired(capabilities)) {
      return {
        status: 404,
        json: {
          error: {
            message: `The model \`${model}\` does not exist or you do not have access to it.`,
            type: 'invalid_request_error',
            param: null,
            code: 'model_not_found',
          },
        },
      };
    }
  }
  // The model refuses it wherever it is served: the lenient paths too, so
  // that a service sending it fails here as it would in production.
  const capabilities = capabilitiesOf(model, 'openai');
  if (
    strict !== 'together' &&
    strict !== 'recraft' &&
    fields.background === 'transparent' &&
    isGptImageModel(model) &&
    capabilities.providers.includes('openai') &&
    !capabilities.transparentBackground
  ) {
    return {
      status: 400,
      json: {
        error: {
          message: 'Transparent background is not supported for this model.',
          type: 'invalid_request_error',
          param: 'background',
          code: null,
        },
      },
    };
  }
  if (
    strict === 'recraft' &&
    !capabilitiesOf(model, 'recraft').providers.includes('recraft')
  ) {
    return {
      status: 400,
      json: { code: 'invalid_model', message: `Unknown model: ${model}` },
    };
  }
  if (strict === 'together') {
    const size = (value: unknown) =>
      typeof value === 'number' && Number.isInteger(value) && value > 0;
    if (!size(fields.width) || !size(fields.height)) {
      return {
        status: 400,
        json: {
          error: {
            message: 'width and height must be positive integers',
            type: 'invalid_request_error',
          },
        },
      };
    }
  }
  return undefined;
}

/** A model that draws SVG only (Recraft's vector models): it answers one. */
export function drawsSvg(model: unknown): boolean {
  if (typeof model !== 'string') return false;
  const capabilities = capabilitiesOf(model);
  return (
    capabilities.formats.length > 0 &&
    capabilities.formats.every((format) => format === 'svg')
  );
}
