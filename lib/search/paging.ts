/** Offset paging over a fully counted, sorted result. */
export interface Pagination {
  limit: number;
  offset: number;
  total: number;
}

export function pageOf<T>(
  sorted: readonly T[],
  offset: number,
  limit: number,
): { page: T[]; pagination: Pagination } {
  return { page: sorted.slice(offset, offset + limit), pagination: { limit, offset, total: sorted.length } };
}
