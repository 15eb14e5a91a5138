import { isWellFormedId } from '../common/ids';
import { InputValidationException } from '../common/errors/input-validation.exception';

/** Where a page of GET /api/projects ends, in list order (updatedAt, id). */
export interface ProjectCursor {
  updatedAt: Date;
  id: string;
}

/**
 * Cursors are opaque to clients: base64url of [updatedAt, id]. Keyset
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
  const updatedAt = new Date(parsed[0]);
  if (Number.isNaN(updatedAt.getTime())) throw invalid();
  return { updatedAt, id: parsed[1] };
}
