/**
 * A connection string as a start-up message may show it: whatever stands
 * between the scheme and the last `@` (user and password, in any scheme)
 * and the value of any `password` parameter become `***`; the rest is kept,
 * so an operator sees which value was read.
 */
export function withoutCredentials(raw: string): string {
  return raw
    .replace(/^([a-z][a-z0-9+.-]*:\/*)?.*@/i, '$1***@')
    .replace(/(password=)[^&]*/gi, '$1***');
}
