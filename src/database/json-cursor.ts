/**
 * Rows of one SELECT read from a snapshot of their own, in chunks, for
 * answers too large to build whole (GET /api/projects without a page). The
 * statement's first column is a JSON document the database rendered.
 */
export interface JsonCursor {
  /**
   * The next documents as compact JSON text, or undefined after the last.
   * Calls must not overlap.
   */
  next(): Promise<string[] | undefined>;
  /**
   * Ends the read and releases its snapshot and connection. Safe to call
   * more than once, and while a `next()` is still running.
   */
  close(): Promise<void>;
}
