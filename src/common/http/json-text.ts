/**
 * Response bodies assembled from JSON text the database already rendered
 * (see database/sql.ts), so it is neither parsed nor serialized again. A
 * route answers one as a Reply (reply.ts), which sets this
 * Content-Type; the project list, streamed or paged, declares it with
 * `@Header` and returns the text, which Nest sends as it is.
 */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** `{"key":value,…}` from members that are JSON text; undefined ones left out. */
export function jsonObjectText(
  members: Record<string, string | undefined>,
): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(members)) {
    if (value !== undefined) parts.push(`${JSON.stringify(key)}:${value}`);
  }
  return `{${parts.join(',')}}`;
}

/** `[a,b,…]` from items that are JSON text. */
export const jsonArrayText = (items: string[]): string =>
  `[${items.join(',')}]`;
