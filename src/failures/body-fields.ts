/**
 * A client error whose answer carries fields beside `error` and `code`
 * (a refused publish carries the site check's report): the error class
 * holds them in `bodyFields`, and the exception filter adds them to the
 * body, so controllers still only throw.
 */
export interface WithBodyFields {
  readonly bodyFields: Readonly<Record<string, unknown>>;
}

/** The envelope's own fields, which an error's extra fields never replace. */
const RESERVED = new Set(['error', 'code', 'success']);

/** The extra fields of `exception` (none for most errors). */
export function bodyFieldsOf(exception: unknown): Record<string, unknown> {
  const fields = (exception as Partial<WithBodyFields> | null)?.bodyFields;
  if (typeof fields !== 'object' || fields === null) return {};
  return Object.fromEntries(
    Object.entries(fields).filter(([name]) => !RESERVED.has(name)),
  );
}
