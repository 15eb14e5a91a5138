import {
  DEFAULT_PRICES,
  estimateCallCost,
  estimateCallCostMicros,
  parsePriceTable,
} from './price-table';

const image = (model: string, quality?: string, size = '1024x1024') => ({
  kind: 'image' as const,
  model,
  size,
  quality,
  units: { images: 1, inputTokens: 0, outputTokens: 0 },
});

describe('the price table', () => {
  it('prices an image by model, size and quality, counting `auto` as the dearest quality', () => {
    expect(estimateCallCost(image('gpt-image-1', 'low'))).toBe(0.011);
    expect(estimateCallCost(image('gpt-image-1', 'high', '1536x1024'))).toBe(
      0.25,
    );
    expect(estimateCallCost(image('gpt-image-1', 'auto'))).toBe(0.167);
    expect(estimateCallCost(image('dall-e-3', 'auto'))).toBe(0.04);
  });

  it('prices a model it does not list at the dearest entry of its kind, never at zero', () => {
    expect(estimateCallCost(image('some-new-model', 'low'))).toBe(0.25);
    expect(
      estimateCallCostMicros({
        kind: 'text',
        model: 'some-new-llm',
        units: { images: 0, inputTokens: 1_000_000, outputTokens: 1_000_000 },
      }),
    ).toBe(25_000_000);
  });

  it("prices text by tokens in and out, and uses the operator's entries first", () => {
    const call = {
      kind: 'text' as const,
      model: 'gpt-4o-mini',
      units: { images: 0, inputTokens: 1000, outputTokens: 1000 },
    };
    expect(estimateCallCostMicros(call)).toBe(750);
    const table = parsePriceTable(
      '{"gpt-4o-mini":{"kind":"text","inputPerMillion":1,"outputPerMillion":1}}',
    );
    expect(estimateCallCostMicros(call, table)).toBe(2000);
    expect(DEFAULT_PRICES['gpt-4o-mini']).toBeDefined();
  });

  it.each([
    ['not json', 'is not valid JSON'],
    ['[]', 'must be a JSON object'],
    [
      '{"m":{"kind":"text","inputPerMillion":-1,"outputPerMillion":1}}',
      'm.inputPerMillion',
    ],
    ['{"m":{"kind":"image","perImage":{"*":{"*":"free"}}}}', 'm.perImage.*.*'],
    ['{"m":{"kind":"video"}}', 'needs kind'],
  ])('refuses an operator table %s, naming the entry', (text, message) => {
    expect(() => parsePriceTable(text)).toThrow(message);
  });
});
