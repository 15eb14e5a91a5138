import { isWellFormedId } from '../common/ids';
import { InputValidationException } from '../failures/input-validation.error';

/** Where a page of a project's tasks ends, in list order (createdAt, id). */
export interface TaskCursor {
  createdAt: Date;
  id: string;
}

/** Opaque to clients: base64url of [createdAt, id]. */
export const encodeTaskCursor = (cursor: TaskCursor): string =>
  Buffer.from(
    JSON.stringify([cursor.createdAt.toISOString(), cursor.id]),
  ).toString('base64url');

/**
 * Only a cursor this service wrote: anything else is 400 `custom` before
 * any query.
 */
export function decodeTaskCursor(text: string): TaskCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    Array.isArray(parsed) &&
    parsed.length === 2 &&
    typeof parsed[0] === 'string' &&
    typeof parsed[1] === 'string' &&
    isWellFormedId(parsed[1])
  ) {
    const cursor = { createdAt: new Date(parsed[0]), id: parsed[1] };
    if (
      !Number.isNaN(cursor.createdAt.getTime()) &&
      encodeTaskCursor(cursor) === text
    ) {
      return cursor;
    }
  }
  throw new InputValidationException([
    { path: ['cursor'], message: 'Invalid cursor', code: 'custom' },
  ]);
}
