/**
 * An answer as an Idempotency-Key keeps it: what the route sent for the
 * first request's result (a common/http Reply has this shape), replayed
 * byte for byte.
 */
export interface ReplayableAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON text; undefined only for an answer without a body. */
  readonly body?: string;
}
