/** The orders GET /api/projects pages in (`sort`, `order`). */
export const LIST_SORTS = ['updatedAt', 'createdAt', 'name'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export interface ListOrder {
  sort: ListSort;
  order: SortOrder;
}

/** The list's order since the first version: most recently updated first. */
export const DEFAULT_LIST_ORDER: ListOrder = {
  sort: 'updatedAt',
  order: 'desc',
};

export const isDefaultOrder = (order: ListOrder) =>
  order.sort === DEFAULT_LIST_ORDER.sort &&
  order.order === DEFAULT_LIST_ORDER.order;

/**
 * The order a request asks for: `sort` defaults to updatedAt; `order` to
 * ascending for names (A to Z, as a list page sorted by name reads) and to
 * descending for times (newest first, as the default list).
 */
export function listOrderOf(sort?: ListSort, order?: SortOrder): ListOrder {
  const by = sort ?? DEFAULT_LIST_ORDER.sort;
  return { sort: by, order: order ?? (by === 'name' ? 'asc' : 'desc') };
}

/** What a list item holds: everything (the default), or a list page's needs. */
export const LIST_VIEWS = ['full', 'summary'] as const;
export type ListView = (typeof LIST_VIEWS)[number];
