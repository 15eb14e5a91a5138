/**
 * A model's answer read as JSON; a text that does not parse is the
 * caller's `invalid('not JSON')` (the error its task fails with).
 */
export function jsonAnswer(
  content: string,
  invalid: (why: string) => Error,
): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch {
    throw invalid('not JSON');
  }
}
