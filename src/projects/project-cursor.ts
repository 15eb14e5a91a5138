import { isWellFormedId } from '../common/ids';
import { InputValidationException } from '../failures/input-validation.error';
import {
  DEFAULT_LIST_ORDER,
  isDefaultOrder,
  LIST_SORTS,
  SORT_ORDERS,
  type ListOrder,
} from './list-order';

/** toISOString's form for the years 0000 to 9999. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** No project was written before 1970 (nor after 9999, which the form excludes). */
const EARLIEST_CURSOR_TIME = 0;

/**
 * Where a page of GET /api/projects ends, in list order: the last project's
 * sort key (an ISO timestamp for createdAt and updatedAt, the folded name
 * for name) and its id, the tie-breaker.
 */
export interface ProjectCursor {
  key: string;
  id: string;
}

/**
 * Cursors are opaque to clients: base64url of a JSON array. In the default
 * order (updatedAt, descending) it is [updatedAt, id], the form cursors had
 * before other orders existed, so those pages keep their bytes and old
 * cursors keep working; in any other order [sort, order, key, id], so a
 * cursor carries the order it was made in and is refused in another one.
 * A cursor the service did not write (another spelling, a date out of
 * range, an id that is not one of ours) is refused with 400 `custom`
 * before any query. Keyset pagination stays fast however deep the page,
 * and a project updated meanwhile is neither skipped twice nor shown twice
 * within one walk.
 */
export function encodeCursor(
  cursor: ProjectCursor,
  order: ListOrder = DEFAULT_LIST_ORDER,
): string {
  const fields = isDefaultOrder(order)
    ? [cursor.key, cursor.id]
    : [order.sort, order.order, cursor.key, cursor.id];
  return Buffer.from(JSON.stringify(fields)).toString('base64url');
}

const refused = (message: string) =>
  new InputValidationException([{ path: ['cursor'], message, code: 'custom' }]);

/** The order and position a cursor holds, or undefined when it is not one. */
function parseCursor(
  text: string,
): { order: ListOrder; cursor: ProjectCursor } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === 'string')) {
    return undefined;
  }
  const fields = parsed;
  if (fields.length === 2) {
    return {
      order: DEFAULT_LIST_ORDER,
      cursor: { key: fields[0], id: fields[1] },
    };
  }
  const [sort, order, key, id] = fields;
  if (
    fields.length !== 4 ||
    !(LIST_SORTS as readonly string[]).includes(sort) ||
    !(SORT_ORDERS as readonly string[]).includes(order)
  ) {
    return undefined;
  }
  return { order: { sort, order } as ListOrder, cursor: { key, id } };
}

/** Whether `key` is a timestamp as encodeCursor writes it. */
function isCursorTimestamp(key: string): boolean {
  // Only toISOString's own form, within the years the service can have
  // written (a date PostgreSQL cannot hold was a 500 there), and this very
  // spelling of it.
  const at = new Date(key);
  return (
    ISO_TIMESTAMP.test(key) &&
    !Number.isNaN(at.getTime()) &&
    at.toISOString() === key &&
    at.getTime() >= EARLIEST_CURSOR_TIME
  );
}

/**
 * The position of a cursor made for a list in `order`; 400 for a cursor
 * the service did not write, or one made for another sort or order (its
 * position means nothing there).
 */
export function decodeCursor(
  text: string,
  order: ListOrder = DEFAULT_LIST_ORDER,
): ProjectCursor {
  const parsed = parseCursor(text);
  if (
    parsed === undefined ||
    !isWellFormedId(parsed.cursor.id) ||
    (parsed.order.sort !== 'name' && !isCursorTimestamp(parsed.cursor.key)) ||
    encodeCursor(parsed.cursor, parsed.order) !== text
  ) {
    throw refused('Invalid cursor');
  }
  if (parsed.order.sort !== order.sort || parsed.order.order !== order.order) {
    throw refused(
      `Cursor of another order (${parsed.order.sort} ${parsed.order.order}); start again without cursor`,
    );
  }
  return parsed.cursor;
}
