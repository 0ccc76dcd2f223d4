/** Following every page of a list endpoint, one page in memory at a time. */
import { toNumber, type Page } from '../contract/decode.js';

/**
 * Yields every item from `offset` on, fetching pages of `pageSize` with `fetchPage` until a short
 * page or `total_count` says the end is reached.
 */
export async function* paginate<T>(
  fetchPage: (offset: number, limit: number) => Promise<Page<T>>,
  pageSize: number,
  offset = 0,
): AsyncGenerator<T> {
  for (;;) {
    const page = await fetchPage(offset, pageSize);
    for (const item of page.result) yield item;
    offset += page.result.length;
    // Without a readable total_count, a short or empty page is the end.
    if (page.result.length === 0 || page.result.length < pageSize || offset >= (toNumber(page.total_count) ?? Infinity)) return;
  }
}

/**
 * Every item of a list endpoint called with `query`, page by page: `list` gets the query with each page's
 * `offset` and `limit` set, from `offset` on, `pageSize` items a page.
 */
export function paginateQuery<T>(
  query: URLSearchParams,
  list: (query: URLSearchParams) => Promise<Page<T>>,
  pageSize: number,
  offset = 0,
): AsyncGenerator<T> {
  return paginate(
    (at, limit) => {
      const q = new URLSearchParams(query);
      q.set('offset', String(at));
      q.set('limit', String(limit));
      return list(q);
    },
    pageSize,
    offset,
  );
}
