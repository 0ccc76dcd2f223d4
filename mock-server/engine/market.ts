/**
 * One hourly market tick: simulated investors fund listings, verification stages advance, listings
 * end (Pending or Expired), Pending listings originate (or, rarely, the operator cancels them), the
 * operator withdraws a few, loans are serviced, and new listings arrive. Randomness comes from the
 * seed and the tick's time only, so a world is the same for the same seed and sequence of events.
 */
import { LISTING_STATUS } from '../../src/contract/enums.js';
import { makeListing } from '../seed.js';
import type { Listing, Store } from '../store.js';
import { touchListing } from '../listing-index.js';
import { canOriginate, endListing, fund, heldByUnprocessedBid, makePending, originate } from './lifecycle.js';
import { firstDraw, rngFor } from './rng-for.js';
import { serviceLoans } from './servicing.js';
import type { Rng } from '../rng.js';

/** The market's time step. */
export const TICK_MS = 3_600_000;
/** Chance per hour that the operator withdraws an active listing. */
const WITHDRAW_PER_HOUR = 0.0001;
/** Chance per hour that a listing's verification moves up a stage. */
const VERIFY_PER_HOUR = 0.05;
/** Chance that the operator cancels a Pending listing instead of originating it. */
const CANCEL_AT_ORIGINATION = 0.03;

/** Runs the tick at `t` (a whole hour). */
export function runTick(store: Store, t: number): void {
  const rng = rngFor(store.seed, t / TICK_MS);
  const live = liveListings(store);
  // Only Active and Pending listings can change in a tick; ended ones leave the list as the tick passes them.
  let kept = 0;
  for (let i = 0; i < live.length; i++) {
    const l = live[i]!;
    if (l.listing_status === LISTING_STATUS.ACTIVE) tickActive(store, l, t, rng);
    else if (l.listing_status === LISTING_STATUS.PENDING && l.originateAt != null && l.originateAt <= t) {
      if (cancelledAtOrigination(store, l)) endListing(store, l, LISTING_STATUS.CANCELLED, t);
      else originate(store, l, t);
    }
    if (isLive(l)) live[kept++] = l;
  }
  live.length = kept;
  serviceLoans(store, t, rng);
  arrivals(store, t, rng);
}

/** A listing a tick can still change: Active, or Pending with an origination time. */
function isLive(l: Listing): boolean {
  return l.listing_status === LISTING_STATUS.ACTIVE || (l.listing_status === LISTING_STATUS.PENDING && l.originateAt != null);
}

/** The live listings of a store, in store order (derived, never saved: rebuilt for a loaded or reset store). */
interface LiveSet {
  listings: Listing[];
  /** How many of `store.listings` have been looked at; listings are only ever appended. */
  scanned: number;
}
const liveSets = new WeakMap<Store, LiveSet>();

/** The store's live listings, with those added since the last tick (seed, arrivals) joined in store order. */
function liveListings(store: Store): Listing[] {
  let set = liveSets.get(store);
  if (!set) liveSets.set(store, (set = { listings: [], scanned: 0 }));
  const all = store.listings;
  for (; set.scanned < all.length; set.scanned++) if (isLive(all[set.scanned]!)) set.listings.push(all[set.scanned]!);
  return set.listings;
}

/** Whether the operator cancels this listing when it would originate: fixed per listing, so tests can avoid it. */
export function cancelledAtOrigination(store: Store, l: Listing): boolean {
  return firstDraw(store.seed, l.listing_number, 0xca9c) < CANCEL_AT_ORIGINATION;
}

/** How keen simulated investors are on a listing: a fixed factor per listing, 0.3 to 1.7. */
function appetite(store: Store, l: Listing): number {
  return 0.3 + firstDraw(store.seed, l.listing_number, 0xa99e) * 1.4;
}

function tickActive(store: Store, l: Listing, t: number, rng: Rng): void {
  if (t < l.listing_start_date) return;
  if (t >= l.listing_end_date) {
    // The 14-day window closes with the listing: one that qualifies now originates now.
    if (canOriginate(l, true)) {
      makePending(store, l, t);
      originate(store, l, t);
    } else {
      endListing(store, l, LISTING_STATUS.EXPIRED, t);
    }
    return;
  }
  if (rng.chance(WITHDRAW_PER_HOUR)) return endListing(store, l, LISTING_STATUS.WITHDRAWN, t);
  if (l.verification_stage < 3 && rng.chance(VERIFY_PER_HOUR)) {
    l.verification_stage += 1;
    l.last_updated_date = t;
    touchListing(store, l);
  }
  if (l.amount_remaining > 0) {
    if (l.investment_typeid === 2) {
      // Simulated whole-loan buyers take a whole loan nobody holds a bid on.
      if (l.amount_funded === 0 && rng.chance(0.004) && !heldByUnprocessedBid(store, l.listing_number)) fund(store, l, l.listing_amount, t);
    } else if (rng.chance(0.25)) {
      const lots = Math.max(1, Math.round((l.listing_amount * appetite(store, l) * rng.range(0.5, 1.5)) / 84 / 25));
      fund(store, l, Math.min(l.amount_remaining, lots * 25), t);
    }
  }
  if (canOriginate(l, false)) makePending(store, l, t);
}

/** New active listings, about as many per hour as keep the seeded number of active listings steady. */
function arrivals(store: Store, t: number, rng: Rng): void {
  const rate = store.engine.arrivalsPerHour;
  const count = Math.floor(rate) + (rng.chance(rate - Math.floor(rate)) ? 1 : 0);
  for (let i = 0; i < count; i++) {
    const number = store.counters.listing++;
    const l = makeListing(rng, number, t, t, number);
    Object.assign(l, { amount_funded: 0, amount_remaining: l.listing_amount, percent_funded: 0, verification_stage: 1, last_updated_date: t });
    store.listings.push(l);
    store.listingByNumber.set(number, l);
  }
}
