/**
 * One hourly market tick: simulated investors fund listings, verification stages advance, listings
 * end (Pending or Expired), Pending listings originate (or, rarely, the operator cancels them), the
 * operator withdraws a few, loans are serviced, and new listings arrive. Only what the timeline
 * (timeline.ts) has due at the hour is visited. Randomness comes from the seed, the listing or loan
 * and the hour only, so a world is the same for the same seed and sequence of events.
 */
import { LISTING_STATUS } from '../../src/contract/enums.js';
import type { Listing, World } from '../world/world.js';
import { touchListing } from '../search/listing-index.js';
import { canOriginate, endListing, fund, heldByUnprocessedBid, makePending, originate } from './lifecycle.js';
import { fundingAt, fundingPace } from './own-steps.js';
import { firstDraw } from './rng-for.js';
import { firedOf } from './listing-place.js';
import { arrivals } from './arrivals.js';
import { serviceLoan } from './servicing.js';
import { BUY, VERIFY, WITHDRAW } from './chance-processes.js';
import { catchUpTimeline, HOUR, hourAtOrAfter, requeueListing, requeueLoan, SETTLED_PENDING, takeDue } from './timeline.js';

/** The market's time step. */
export const TICK_MS = HOUR;
/** Chance that the operator cancels a Pending listing instead of originating it. */
const CANCEL_AT_ORIGINATION = 0.03;

/**
 * Runs the tick at `t` (a whole hour): only the listings and loans the timeline has due at this
 * hour are visited. Steps that end a listing (its end, a withdrawal, origination) hand out loan and
 * note numbers and post refunds, so they run in listing number order; every other step changes
 * only its own listing, so their order does not matter.
 */
export function runTick(world: World, t: number): void {
  const h = t / TICK_MS;
  const due = takeDue(world, h);
  const listings = world.listings;
  const ev = due.events;
  let ending: number[] | null = null;
  // The rows' loops are indexed: a for-of step calls the array iterator's `next`, which makes a result object while this
  // runs in code not yet optimised (its first ticks, and a while after each deoptimisation); in a 15-day move at 1M they
  // were an eighth of what the move allocated (sampled), and the move took ~0.1 s less without them. (The loans' loop
  // below takes a few hundred a move.)
  const rows = due.listings;
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    const l = listings[r]!;
    const fired = firedOf(ev, r);
    if (endsAt(l, t, fired)) {
      (ending ??= []).push(r);
      continue;
    }
    stepListing(world, l, t, fired);
    requeueListing(world, r, h);
  }
  if (ending) {
    inNumberOrder(world, ending);
    for (let k = 0; k < ending.length; k++) {
      const r = ending[k]!;
      stepListing(world, listings[r]!, t, firedOf(ev, r));
      requeueListing(world, r, h);
    }
  }
  for (const loan of due.loans) {
    serviceLoan(world, loan, t);
    requeueLoan(world, loan, h);
  }
  arrivals(world, t);
  // The hour's new listings and loans get their places now, while their rows are still in the cache (the next tick's
  // catch-up would find them as it finds them here: nothing between two ticks of a move changes them; an order between
  // two ticks of a running mock queues its listing again, placed or not: timeline.ts listingChanged).
  catchUpTimeline(world, h + 1);
}

/** Rows below this and numbers below 2^30 make a sort key (number × ROWS + row) that a double holds exactly. */
const ROWS = 2 ** 23;

/**
 * Sorts `rows` by their listings' numbers. In a table whose numbers ascend with its rows (seeded and arrived
 * listings; not once one is added with a lower number of its own: RowTable `ascending`) the rows are sorted as
 * they are, reading no number: a read of each was a cache miss a row at a million listings. Otherwise each number
 * is read once: comparing through the listings read two column values a comparison, and at a million listings
 * that sort was a fortieth of a clock move.
 */
function inNumberOrder(world: World, rows: number[]): void {
  if (world.listingTable.ascending) {
    // Taken out in row order (timeline.ts takeDue), the ending rows come sorted: a look, not a sort.
    let sorted = true;
    for (let k = 1; k < rows.length && sorted; k++) sorted = rows[k - 1]! < rows[k]!;
    if (sorted) return;
    // Rows are below 2^31 (a table's rows are array indexes): 32-bit integers sort in ~2/3 of a double's time.
    const order = Int32Array.from(rows).sort();
    for (let k = 0; k < rows.length; k++) rows[k] = order[k]!;
    return;
  }
  const listings = world.listings;
  const keys = new Float64Array(rows.length);
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    const n = listings[r]!.listing_number;
    if (r >= ROWS || !(Number.isInteger(n) && n >= 0 && n < 2 ** 30)) {
      rows.sort((a, b) => listings[a]!.listing_number - listings[b]!.listing_number);
      return;
    }
    keys[k] = n * ROWS + r;
  }
  keys.sort();
  for (let k = 0; k < rows.length; k++) rows[k] = keys[k]! % ROWS;
}

/** True when the step at `t` ends listing `l` (it reaches its end, is withdrawn, originates or is cancelled). */
function endsAt(l: Listing, t: number, fired: number): boolean {
  if (fired & SETTLED_PENDING) return true;
  if (l.listing_status === LISTING_STATUS.ACTIVE) return t >= l.listing_start_date && (t >= l.listing_end_date || (fired & WITHDRAW) !== 0);
  return l.listing_status === LISTING_STATUS.PENDING && l.originateAt != null && l.originateAt <= t;
}

/** One listing's hour at `t`, given the chance processes that `fired` for it then. */
export function stepListing(world: World, l: Listing, t: number, fired: number): void {
  // The timeline's mark first: with it the status is not read (a column, a cache miss at a million listings).
  if (!(fired & SETTLED_PENDING)) {
    const status = l.listing_status;
    if (status === LISTING_STATUS.ACTIVE) return tickActive(world, l, t, fired);
    if (status !== LISTING_STATUS.PENDING || l.originateAt == null || l.originateAt > t) return;
  }
  // Pending with its origination due; or Active, its own steps having made it Pending since its last visit (timeline.ts
  // SETTLED_PENDING): both end Completed or Cancelled here as the walk of every hour leaves them (the Pending between, its
  // status, reason, time and origination time, is overwritten by this step).
  if (cancelledAtOrigination(world, l)) endListing(world, l, LISTING_STATUS.CANCELLED, t);
  else originate(world, l, t);
}

/** Whether the operator cancels this listing when it would originate: fixed per listing, so tests can avoid it. */
export function cancelledAtOrigination(world: World, l: Listing): boolean {
  return firstDraw(world.seed, l.listing_number, 0xca9c) < CANCEL_AT_ORIGINATION;
}

function tickActive(world: World, l: Listing, t: number, fired: number): void {
  if (t < l.listing_start_date) return;
  if (t >= l.listing_end_date) {
    // The 14-day window closes with the listing: one that qualifies now originates now.
    if (canOriginate(l, true)) {
      makePending(world, l, t);
      originate(world, l, t);
    } else {
      endListing(world, l, LISTING_STATUS.EXPIRED, t);
    }
    return;
  }
  if (fired & WITHDRAW) return endListing(world, l, LISTING_STATUS.WITHDRAWN, t);
  stepOpen(world, l, t, fired);
}

/** An active listing's hour inside its window when it is not withdrawn: a verification step, simulated funding, then Pending if it qualifies. */
function stepOpen(world: World, l: Listing, t: number, fired: number): void {
  // Each field is read once: these are accessors over the listing table's columns, and this runs for most visits.
  let stage = l.verification_stage;
  if (stage < 3 && fired & VERIFY) {
    l.verification_stage = ++stage;
    l.last_updated_date = t;
    touchListing(world, l);
  }
  const remaining = l.amount_remaining;
  if (remaining > 0) {
    if (l.investment_typeid === 2) {
      // Simulated whole-loan buyers take a whole loan nobody holds a bid on.
      if (fired & BUY && l.amount_funded === 0 && !heldByUnprocessedBid(world, l.listing_number)) fund(world, l, l.listing_amount, t);
    } else {
      const total = l.listing_amount;
      const placed = fundingAt(
        fundingPace(world.seed, l.listing_number, total),
        hourAtOrAfter(l.listing_start_date),
        t / TICK_MS,
        remaining,
      );
      if (placed > 0) fund(world, l, placed, t);
    }
  }
  if (canOriginate(l, false)) makePending(world, l, t);
}
