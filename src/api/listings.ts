/** Listings: search (one page or every page) and get one by number, active or originated. */
import { decodeEnvelope, decodeListing } from '../contract/decode.js';
import { PAGINATION } from '../contract/enums.js';
import type { Listing, Page } from '../contract/decode.js';
import type { ApiClient } from './client.js';
import { paginateQuery } from './pagination.js';

export type { Listing } from '../contract/decode.js';

const decodePage = decodeEnvelope(decodeListing);

const PATH = '/listingsvc/v2/listings/';

/** One page of a search. */
export function search(client: ApiClient, query: URLSearchParams): Promise<Page<Listing>> {
  return client.call({ method: 'GET', base: 'root', path: PATH, query, what: 'listings search', decode: decodePage });
}

/** Every match, page by page (pages of the maximum size unless the query sets `limit`). */
export function searchAll(client: ApiClient, query: URLSearchParams): AsyncGenerator<Listing> {
  const pageSize = Number(query.get('limit') ?? PAGINATION.listings.max);
  const start = Number(query.get('offset') ?? 0);
  return paginateQuery(query, (q) => search(client, q), pageSize, start);
}

/** One listing by number: active (fractional, then whole-loan), then originated. Null when none has it. */
export async function get(client: ApiClient, listingNumber: number): Promise<Listing | null> {
  for (const [biddable, whole] of [
    ['true', 'false'],
    ['true', 'true'],
    ['false', 'false'],
  ] as const) {
    const q = new URLSearchParams({ listing_number: String(listingNumber), biddable, whole_loan: whole, limit: '1' });
    const page = await search(client, q);
    if (page.result[0]) return page.result[0];
  }
  return null;
}
