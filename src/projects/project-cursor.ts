import { isWellFormedId } from '../common/ids';
import { InputValidationException } from '../failures/input-validation.error';

/** toISOString's form for the years 0000 to 9999. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** No project was written before 1970 (nor after 9999, which the form excludes). */
const EARLIEST_CURSOR_TIME = 0;

/** Where a page of GET /api/projects ends, in list order (updatedAt, id). */
export interface ProjectCursor {
  updatedAt: Date;
  id: string;
}

/**
 * Cursors are opaque to clients: base64url of [updatedAt, id]. A cursor the
 * service did not write (another spelling, a date out of range, an id that
 * is not one of ours) is refused with 400 `custom` before any query. Keyset
 * pagination stays fast however deep the page, and a project updated
 * meanwhile is neither skipped twice nor shown twice within one walk.
 */
export function encodeCursor(cursor: ProjectCursor): string {
  return Buffer.from(
    JSON.stringify([cursor.updatedAt.toISOString(), cursor.id]),
  ).toString('base64url');
}

export function decodeCursor(text: string): ProjectCursor {
  const invalid = () =>
    new InputValidationException([
      { path: ['cursor'], message: 'Invalid cursor', code: 'custom' },
    ]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== 'string' ||
    typeof parsed[1] !== 'string' ||
    !isWellFormedId(parsed[1])
  ) {
    throw invalid();
  }
  // Only what encodeCursor writes: a timestamp in toISOString's own form,
  // within the years the service can have written (a date PostgreSQL cannot
  // hold was a 500 there), and this very spelling of it.
  const updatedAt = new Date(parsed[0]);
  if (
    !ISO_TIMESTAMP.test(parsed[0]) ||
    Number.isNaN(updatedAt.getTime()) ||
    updatedAt.toISOString() !== parsed[0] ||
    updatedAt.getTime() < EARLIEST_CURSOR_TIME ||
    encodeCursor({ updatedAt, id: parsed[1] }) !== text
  ) {
    throw invalid();
  }
  return { updatedAt, id: parsed[1] };
}
