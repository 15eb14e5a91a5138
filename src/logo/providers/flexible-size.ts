import type { ModelCapabilities } from './model-capabilities';

/**
 * The size rules of OpenAI's images API for models of flexible sizes
 * (gpt-image-2 and later): both edges multiples of 16, neither over 3840,
 * the long edge at most three times the short one, and from 655,360 to
 * 8,294,400 pixels in all.
 */
export const FLEXIBLE_SIZE_RULES = {
  multipleOf: 16,
  maxEdge: 3840,
  maxRatio: 3,
  minPixels: 655_360,
  maxPixels: 8_294_400,
} as const;

/** Why `width`×`height` breaks the flexible rules, or undefined when it does not. */
export function flexibleSizeProblem(
  width: number,
  height: number,
): string | undefined {
  const rules = FLEXIBLE_SIZE_RULES;
  if (width % rules.multipleOf !== 0 || height % rules.multipleOf !== 0) {
    return `both edges must be multiples of ${rules.multipleOf}`;
  }
  if (Math.max(width, height) > rules.maxEdge) {
    return `the longest edge must be at most ${rules.maxEdge}`;
  }
  if (Math.max(width, height) > rules.maxRatio * Math.min(width, height)) {
    return `the aspect ratio must be at most ${rules.maxRatio}:1`;
  }
  const pixels = width * height;
  if (pixels < rules.minPixels || pixels > rules.maxPixels) {
    return `the image must have from ${rules.minPixels} to ${rules.maxPixels} pixels`;
  }
  return undefined;
}

/** Whether `model` takes `size` (`WIDTHxHEIGHT` or one of its listed sizes). */
export function acceptsSize(
  capabilities: ModelCapabilities,
  size: string,
): boolean {
  if (capabilities.sizes.includes(size)) return true;
  const match = /^(\d+)x(\d+)$/.exec(size);
  return (
    capabilities.flexibleSizes === true &&
    match !== null &&
    flexibleSizeProblem(Number(match[1]), Number(match[2])) === undefined
  );
}

/**
 * The size to draw a `width`×`height` picture at: for a model of flexible
 * sizes, the smallest multiple-of-16 size at least as large (cropped to it
 * afterwards); otherwise the listed size nearest its shape (scaled to cover
 * it and cropped).
 */
export function drawSizeFor(
  capabilities: ModelCapabilities,
  width: number,
  height: number,
): string {
  const step = FLEXIBLE_SIZE_RULES.multipleOf;
  const up = (edge: number) => Math.ceil(edge / step) * step;
  const flexible = `${up(width)}x${up(height)}`;
  if (capabilities.flexibleSizes && acceptsSize(capabilities, flexible)) {
    return flexible;
  }
  const ratio = width / height;
  const listed = capabilities.sizes
    .map((size) => /^(\d+)x(\d+)$/.exec(size))
    .filter((match): match is RegExpExecArray => match !== null);
  if (listed.length === 0) return '1024x1024';
  const distance = (match: RegExpExecArray) =>
    Math.abs(Math.log(Number(match[1]) / Number(match[2]) / ratio));
  return listed.reduce((best, next) =>
    distance(next) < distance(best) ? next : best,
  )[0];
}
