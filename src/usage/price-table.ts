/**
 * What a model call costs: the one price table of the service. Usage
 * estimates (the reservation before a call), settlements (the cost kept
 * after it) and a run's quoted cost all read it through estimateCallCost.
 *
 * Prices as published by OpenAI (platform.openai.com/docs/pricing, image
 * generation per image, text per million tokens), read 2026-11-28. An
 * operator whose prices differ (another provider, a negotiated rate, a new
 * model) replaces or adds entries with SPEND_PRICES or SPEND_PRICES_FILE
 * (docs/operations.md, "Spend budgets"); a model the table does not list
 * is priced at the `*` entry of its kind, the dearest listed, so a budget
 * is never under-counted.
 */

export const PRICE_TABLE_DATE = '2026-11-28';
export const PRICE_TABLE_SOURCE = 'https://platform.openai.com/docs/pricing';

/** USD per image, by quality (low, medium, high, standard, hd), per size. */
export interface ImagePrice {
  kind: 'image';
  /** `WIDTHxHEIGHT` → quality → USD per image; `*` matches any. */
  perImage: Record<string, Record<string, number>>;
}

/** USD per million tokens in and out. */
export interface TextPrice {
  kind: 'text';
  inputPerMillion: number;
  outputPerMillion: number;
}

export type ModelPrice = ImagePrice | TextPrice;

/** Model name → price; `*image` and `*text` price an unlisted model. */
export type PriceTable = Record<string, ModelPrice>;

const gptImage1 = (
  square: [number, number, number],
  other: [number, number, number],
): ImagePrice => {
  const qualities = (prices: [number, number, number]) => ({
    low: prices[0],
    medium: prices[1],
    high: prices[2],
    // `auto` lets the model choose: counted as the dearest it may choose.
    auto: prices[2],
  });
  return {
    kind: 'image',
    perImage: {
      '1024x1024': qualities(square),
      '*': qualities(other),
    },
  };
};

export const DEFAULT_PRICES: PriceTable = {
  'gpt-image-1': gptImage1([0.011, 0.042, 0.167], [0.016, 0.063, 0.25]),
  'gpt-image-1-mini': gptImage1([0.005, 0.011, 0.036], [0.006, 0.015, 0.052]),
  'dall-e-3': {
    kind: 'image',
    perImage: {
      '1024x1024': { standard: 0.04, hd: 0.08, '*': 0.04 },
      '*': { standard: 0.08, hd: 0.12, '*': 0.08 },
    },
  },
  'dall-e-2': {
    kind: 'image',
    perImage: {
      '1024x1024': { '*': 0.02 },
      '512x512': { '*': 0.018 },
      '256x256': { '*': 0.016 },
      '*': { '*': 0.02 },
    },
  },
  '*image': { kind: 'image', perImage: { '*': { '*': 0.25 } } },
  'gpt-4o': { kind: 'text', inputPerMillion: 2.5, outputPerMillion: 10 },
  'gpt-4o-mini': { kind: 'text', inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'gpt-4.1': { kind: 'text', inputPerMillion: 2, outputPerMillion: 8 },
  'gpt-4.1-mini': { kind: 'text', inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'gpt-5': { kind: 'text', inputPerMillion: 1.25, outputPerMillion: 10 },
  'gpt-5-mini': { kind: 'text', inputPerMillion: 0.25, outputPerMillion: 2 },
  '*text': { kind: 'text', inputPerMillion: 5, outputPerMillion: 20 },
};

/** What one call uses: images drawn, tokens in and out. */
export interface CallUnits {
  images: number;
  inputTokens: number;
  outputTokens: number;
}

/** A call to price: its model, what it uses, and for an image its size and quality. */
export interface PricedCall {
  kind: 'image' | 'text';
  model: string;
  units: CallUnits;
  size?: string;
  quality?: string;
}

const MICROS_PER_USD = 1_000_000;

/**
 * The call's cost in whole micro-dollars (1e-6 USD), rounded up: what the
 * ledger keeps and budgets compare. A table the operator gave replaces the
 * default entries it names.
 */
export function estimateCallCostMicros(
  call: PricedCall,
  table: PriceTable = DEFAULT_PRICES,
): number {
  const price = priceOf(call.kind, call.model, table);
  if (price.kind === 'image') {
    const bySize =
      price.perImage[call.size ?? '1024x1024'] ?? price.perImage['*'] ?? {};
    const usd =
      bySize[call.quality ?? '*'] ??
      bySize['*'] ??
      Math.max(0, ...Object.values(bySize));
    return Math.ceil(usd * MICROS_PER_USD * call.units.images);
  }
  return Math.ceil(
    call.units.inputTokens * price.inputPerMillion +
      call.units.outputTokens * price.outputPerMillion,
  );
}

/** The same cost in USD: what a run's quote shows. */
export function estimateCallCost(call: PricedCall, table?: PriceTable): number {
  return estimateCallCostMicros(call, table) / MICROS_PER_USD;
}

function priceOf(
  kind: 'image' | 'text',
  model: string,
  table: PriceTable,
): ModelPrice {
  const listed = table[model] ?? DEFAULT_PRICES[model];
  if (listed && listed.kind === kind) return listed;
  return table[`*${kind}`] ?? DEFAULT_PRICES[`*${kind}`];
}

/**
 * An operator's table (JSON), checked entry by entry: a price that is not
 * a finite, non-negative number is refused at start-up, not guessed.
 * Throws a message naming the bad entry.
 */
export function parsePriceTable(text: string): PriceTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('is not valid JSON');
  }
  if (!isRecord(parsed))
    throw new Error('must be a JSON object of model → price');
  const table: PriceTable = {};
  for (const [model, entry] of Object.entries(parsed)) {
    if (!isRecord(entry)) throw new Error(`entry "${model}" must be an object`);
    if (entry.kind === 'text') {
      table[model] = {
        kind: 'text',
        inputPerMillion: usd(entry.inputPerMillion, `${model}.inputPerMillion`),
        outputPerMillion: usd(
          entry.outputPerMillion,
          `${model}.outputPerMillion`,
        ),
      };
    } else if (entry.kind === 'image' && isRecord(entry.perImage)) {
      const perImage: Record<string, Record<string, number>> = {};
      for (const [size, qualities] of Object.entries(entry.perImage)) {
        if (!isRecord(qualities))
          throw new Error(
            `entry "${model}.perImage.${size}" must be an object`,
          );
        perImage[size] = {};
        for (const [quality, value] of Object.entries(qualities)) {
          perImage[size][quality] = usd(
            value,
            `${model}.perImage.${size}.${quality}`,
          );
        }
      }
      table[model] = { kind: 'image', perImage };
    } else {
      throw new Error(
        `entry "${model}" needs kind "image" (with perImage) or "text"`,
      );
    }
  }
  return table;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function usd(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new Error(`"${where}" must be a non-negative number of USD`);
  }
  return value;
}
