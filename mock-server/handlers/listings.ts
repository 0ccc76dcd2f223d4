/** GET {root_url}/listingsvc/v2/listings/: search active listings or originated ones the caller invested in. */
import { http } from 'msw';
import type { MockContext } from '../context.js';
import { parseListingQuery } from '../listing-query.js';
import { runListingQuery } from '../listing-search.js';
import { listingJson } from '../listing-json.js';
import { participationOf } from '../store.js';
import { authedRoute, JsonAnswer, listEnvelopeJson } from './route.js';

/** The listings handlers. */
export function listingsHandlers(ctx: MockContext) {
  return [
    http.get('*/listingsvc/v2/listings', authedRoute(ctx, 'read_listing', ({ caller, url, zone }) => {
      // The listing query pages itself (its limits are part of the query), so this is not a `list` route.
      const query = parseListingQuery(url.searchParams, zone);
      const participation = participationOf(ctx.store, caller.accountId);
      const { page, total } = runListingQuery(ctx.store, query, participation);
      const view = { zone, participation, bureaus: query.bureaus, showLoanFields: query.showLoanFields };
      // Each row is its listing's kept JSON text (listing-json.ts), so the page is a join, not a serialisation.
      return new JsonAnswer(listEnvelopeJson(page.map((l) => listingJson(ctx.store, l, view)), total));
    })),
  ];
}
