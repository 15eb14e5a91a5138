const HEX = /#[0-9a-fA-F]{6}\b/g;

/**
 * The brand's colours as a logo's prompt states them ("Use these colors:
 * #0044ff, #ff8800."): every #rrggbb, lowercase, in order, once each.
 * Named colours (`white`) are not read: what is drawn with them must be
 * exact. Each reader keeps its own fallback when there are none.
 */
export function coloursOf(prompt: string | null | undefined): string[] {
  const found = (prompt ?? '').match(HEX) ?? [];
  return [...new Set(found.map((colour) => colour.toLowerCase()))];
}
