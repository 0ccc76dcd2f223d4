/** GET {root_url}/listingsvc/v2/listings/: search active listings or originated ones the caller invested in. */
import { http } from 'msw';
import { authenticate } from '../auth.js';
import { engineOf } from '../engine/engine.js';
import type { MockContext } from '../context.js';
import { parseListingQuery, runListingQuery } from '../listing-query.js';
import { listingView } from '../listing-view.js';
import { participationOf } from '../store.js';
import { route } from './route.js';

/** The listings handlers. */
export function listingsHandlers(ctx: MockContext) {
  return [
    http.get('*/listingsvc/v2/listings', route(({ request, url, zone }) => {
      const caller = authenticate(ctx, request, 'read_listing');
      engineOf(ctx).sync();
      const query = parseListingQuery(url.searchParams, zone);
      const participation = participationOf(ctx.store, caller.accountId);
      const { page, total } = runListingQuery(ctx.store.listings, query, participation);
      const view = { zone, participation, bureaus: query.bureaus, showLoanFields: query.showLoanFields };
      return { result: page.map((l) => listingView(l, view)), result_count: page.length, total_count: total };
    })),
  ];
}
