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

/**
 * One page of a project's rows newest first, by (createdAt, id), as the
 * task and run lists answer it: the cursor checked first (400), then
 * `visible` (404), then `limit + 1` rows read so that the extra one tells
 * whether a next page exists.
 */
export async function newestFirstPage<
  T extends { id: string; createdAt: string },
>(
  query: { limit?: number; cursor?: string },
  pageSize: number,
  visible: () => Promise<void>,
  read: (limit: number, after: TaskCursor | undefined) => Promise<T[]>,
): Promise<{ rows: T[]; nextCursor: string | null }> {
  const after =
    query.cursor === undefined ? undefined : decodeTaskCursor(query.cursor);
  await visible();
  const limit = query.limit ?? pageSize;
  const rows = await read(limit + 1, after);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor:
      rows.length > limit && last
        ? encodeTaskCursor({ createdAt: new Date(last.createdAt), id: last.id })
        : null,
  };
}
