/** GET {root_url}/listingsvc/v2/listings/: search active listings or originated ones the caller invested in. */
import { http } from 'msw';
import type { MockContext } from '../context.js';
import { parseListingQuery } from '../search/listing-query.js';
import { runListingQuery } from '../search/listing-search.js';
import { listingJson } from '../search/listing-json.js';
import { keptParticipation } from '../search/kept-participation.js';
import { headRoute, JsonText, listEnvelopeJson, type RequestHead, type Route } from './route.js';

/** The search's path, normalised (request-target.ts): the HTTP adapter answers it directly (app.ts). */
export const LISTINGS_PATH = '/listingsvc/v2/listings';

/** The listings search: msw's resolver, and its `direct` form for the adapter's hot path (it reads only the request's head). */
export function listingsSearch(ctx: MockContext): Route<RequestHead> {
  return headRoute(ctx, 'read_listing', ({ caller, url, zone }) => {
    // The listing query pages itself (its limits are part of the query), so this is not a `list` route.
    const query = parseListingQuery(url.searchParams, zone);
    const participation = keptParticipation(ctx.store, ctx.engine.version, caller.accountId);
    const { page, total } = runListingQuery(ctx.store, query, participation);
    const view = { zone, participation, bureaus: query.bureaus, showLoanFields: query.showLoanFields };
    // Each row is its listing's kept JSON text (listing-json.ts), so the page is a join, not a serialisation.
    return new JsonText(listEnvelopeJson(page.map((l) => listingJson(ctx.store, l, view)), total));
  });
}

/** The listings handlers, over `search` (made here unless the caller shares it with the adapter's direct path). */
export function listingsHandlers(ctx: MockContext, search = listingsSearch(ctx)) {
  return [http.get(`*${LISTINGS_PATH}`, search)];
}
