import type { IncomingMessage } from 'node:http';
import sharp from 'sharp';
import {
  capabilitiesOf,
  isGptImageModel,
} from '../../src/logo/providers/model-capabilities';
import {
  acceptsSize,
  flexibleSizeProblem,
} from '../../src/logo/providers/flexible-size';
import { takesInputFidelity } from '../../src/logo/image-edit-request';
import { drawBackdropPng, type Rgb } from './backdrop-png';
import { drawLogoPng } from './logo-png';

/** The size an edit is drawn at when none is asked (and the logo's). */
const LOGO_SIZE = '1024x1024';

export const EDITS_PATH = '/v1/images/edits';

/** An edit call as read: its fields (the image as its size and type), and the image. */
export interface EditCall {
  /** What is recorded: the text fields, and `image` as {filename, type, size}. */
  fields: Record<string, unknown>;
  image?: Buffer;
  /** The image's dominant and mean colours, when it decodes. */
  colours?: Rgb[];
}

/**
 * Reads a multipart/form-data edit request with the platform's own parser.
 * A body that is not a form reads as no fields (and is refused as such).
 */
export async function readEditCall(req: IncomingMessage): Promise<EditCall> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
  } catch {
    return { fields: {} };
  }
  const fields: Record<string, unknown> = {};
  let image: Buffer | undefined;
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      fields[name] = value;
    } else if (name === 'image') {
      image = Buffer.from(await value.arrayBuffer());
      fields.image = {
        filename: value.name,
        type: value.type,
        size: value.size,
      };
    }
  }
  return { fields, image, colours: image && (await coloursOf(image)) };
}

/** What a picture is mostly painted in: its dominant colour, then its mean. */
async function coloursOf(image: Buffer): Promise<Rgb[] | undefined> {
  try {
    const stats = await sharp(image, { limitInputPixels: 4096 * 4096 })
      .flatten({ background: '#ffffff' })
      .stats();
    const { r, g, b } = stats.dominant;
    const mean = stats.channels
      .slice(0, 3)
      .map((channel) => Math.round(channel.mean)) as Rgb;
    return [[r, g, b], mean];
  } catch {
    return undefined;
  }
}

/** The provider's 400 for an edit it would not run, or undefined. */
export function refuseEdit(call: EditCall): object | undefined {
  const { prompt, model, input_fidelity: fidelity, size } = call.fields;
  const refusal = (message: string, param: string) => ({
    error: { message, type: 'invalid_request_error', param, code: null },
  });
  if (!call.image || call.image.length === 0) {
    return refusal("'image' is required", 'image');
  }
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    return refusal(
      "'prompt' is required and must be a non-empty string",
      'prompt',
    );
  }
  if (
    fidelity !== undefined &&
    !(typeof model === 'string' && takesInputFidelity(model))
  ) {
    return refusal(
      `'input_fidelity' is not supported for model ${String(model)}.`,
      'input_fidelity',
    );
  }
  if (size !== undefined) {
    const capabilities = capabilitiesOf(typeof model === 'string' ? model : '');
    if (typeof size !== 'string' || !acceptsSize(capabilities, size)) {
      return {
        error: {
          message: sizeRefusal(
            typeof size === 'string' ? size : JSON.stringify(size),
            capabilities,
          ),
          type: 'invalid_request_error',
          param: 'size',
          code: 'invalid_value',
        },
      };
    }
  }
  return undefined;
}

/** The provider's words for a size the model does not take. */
function sizeRefusal(
  size: string,
  capabilities: ReturnType<typeof capabilitiesOf>,
): string {
  const listed = capabilities.sizes.map((one) => `'${one}'`).join(', ');
  const match = /^(\d+)x(\d+)$/.exec(size);
  const why =
    capabilities.flexibleSizes && match
      ? ` Invalid size: ${flexibleSizeProblem(Number(match[1]), Number(match[2]))}.`
      : '';
  return `Invalid value: '${size}'. Supported values are: ${listed}.${why}`;
}

/**
 * The answer to an edit: n PNGs redrawn from the prompt — the edit's
 * instructions as the sketch (their first words as initials, any colors
 * they name), on the input's size as a seed, so the result is never the
 * input's bytes. Asked at a size other than the logo's, a picture of that
 * size in the source's colours instead (drawBackdropPng).
 */
export function editAnswer(call: EditCall): object {
  const prompt = String(call.fields.prompt);
  const size = typeof call.fields.size === 'string' ? call.fields.size : '';
  const asked = /^(\d+)x(\d+)$/.exec(size);
  if (asked && size !== LOGO_SIZE) {
    // A picture at the size asked, in the source's colours (a hero's background).
    const png = drawBackdropPng(
      Number(asked[1]),
      Number(asked[2]),
      call.colours ?? [],
    );
    return answerOf(call, prompt, png);
  }
  const instructions = prompt.split('\n')[1] ?? prompt;
  const colors = instructions.match(/#[0-9a-f]{6}\b|#[0-9a-f]{3}\b/gi) ?? [];
  const png = drawLogoPng({
    companyName: instructions.split(/\s+/).slice(0, 2).join(' '),
    style: 'modern',
    colors,
  });
  return answerOf(call, prompt, png);
}

/** The answer's body: n copies of `png`, and for a GPT image model its usage. */
function answerOf(call: EditCall, prompt: string, png: Buffer): object {
  const n = Math.min(Math.max(Number(call.fields.n) || 1, 1), 10);
  const model = call.fields.model;
  return {
    created: Math.floor(Date.now() / 1000),
    data: Array.from({ length: n }, () => ({
      b64_json: png.toString('base64'),
    })),
    ...(typeof model === 'string' && isGptImageModel(model)
      ? {
          // The shape of the provider's usage; the counts are made up.
          usage: {
            input_tokens: prompt.length + 323,
            output_tokens: 272 * n,
            total_tokens: prompt.length + 323 + 272 * n,
            input_tokens_details: {
              text_tokens: prompt.length,
              image_tokens: 323,
            },
          },
        }
      : {}),
  };
}
