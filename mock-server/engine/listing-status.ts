/**
 * A listing's status change: the one place that writes it, with its reason text and time, and moves the listing in
 * the listing indexes, and Pending with its origination time. Shared by the transitions (lifecycle.ts) and by settling
 * (settle.ts), where a listing's own steps make it Pending.
 */
import { LISTING_STATUS, LISTING_STATUSES } from '../../src/contract/enums.js';
import type { Listing, World } from '../world/world.js';
import { reindexListing } from '../search/listing-index.js';
import { originationTime } from './own-steps.js';

/** Sets a listing's status and its reason text (and moves it in the listing indexes). */
export function setStatus(world: World, l: Listing, status: number, at: number): void {
  const was = l.listing_status;
  l.listing_status = status;
  l.listing_status_reason = LISTING_STATUSES[status]!;
  l.last_updated_date = at;
  reindexListing(world, l, was);
}

/** Makes a listing Pending at `at`, with the time it originates (a visit's step, lifecycle.ts, or its own steps settled, settle.ts). */
export function setPending(world: World, l: Listing, at: number): void {
  setStatus(world, l, LISTING_STATUS.PENDING, at);
  l.originateAt = originationTime(world.seed, l.listing_number, l.listing_start_date, at);
}
