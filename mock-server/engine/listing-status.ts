/**
 * A listing's status change: the one place that writes it, with its reason text and time, and moves the listing in
 * the listing indexes. Shared by the transitions (lifecycle.ts) and by settling (settle.ts), where a listing's own
 * steps make it Pending.
 */
import { LISTING_STATUSES } from '../../src/contract/enums.js';
import type { Listing, Store } from '../world/store.js';
import { reindexListing } from '../search/listing-index.js';

/** Sets a listing's status and its reason text (and moves it in the listing indexes). */
export function setStatus(store: Store, l: Listing, status: number, at: number): void {
  const was = l.listing_status;
  l.listing_status = status;
  l.listing_status_reason = LISTING_STATUSES[status]!;
  l.last_updated_date = at;
  reindexListing(store, l, was);
}
