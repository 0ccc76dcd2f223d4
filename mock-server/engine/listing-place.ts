/**
 * A live listing's place in the timeline (timeline.ts), worked out from the listing alone: the hours of its start and
 * end, the next firing of each chance process, its funding pace and next lot, the hour its own steps make it Pending,
 * and the hour it is queued at. Pure arithmetic on the seed and the listing's values (no world), so that a listing's
 * place can be worked out where the world is not: another thread works out the places of a clock move's arrivals ahead
 * of the ticks (arrival-batch.ts `drawBatch`, arrivals-worker.ts), and a tick copies each into its row (`takePlace`),
 * the place this code gives it either way.
 */
import type { ListingEvents } from '../world/derived.js';
import type { Listing } from '../world/world.js';
import { fireAfter, PROCESS_COUNT } from './chance-processes.js';
import { HOUR, hourAtOrAfter } from './event-hours.js';
import { fundingPace, hourOfLots, lotAfter, lotsBy, lotsToFill, originationTime, readyToOriginate } from './own-steps.js';

/** Empty event arrays with room for `capacity` rows (typed arrays: memory is taken only as rows are written). */
export function eventArrays(capacity: number): ListingEvents {
  return {
    capacity,
    live: new Uint8Array(capacity),
    at: new Float64Array(capacity),
    start: new Float64Array(capacity),
    end: new Float64Array(capacity),
    settled: new Float64Array(capacity),
    fired: new Uint8Array(capacity),
    whole: new Uint8Array(capacity),
    pace: new Float64Array(capacity),
    hours: new Float64Array(PROCESS_COUNT * capacity),
    states: new Uint32Array(PROCESS_COUNT * capacity),
    lotAt: new Float64Array(capacity),
    pendingAt: new Float64Array(capacity),
  };
}

/**
 * The next hour at which an active listing meets more than itself: its end, a withdrawal, or a
 * whole-loan buyer while it is unfunded (the buyer looks at other investors' unprocessed bids).
 */
function sharedHour(l: Listing, ev: ListingEvents, r: number): number {
  const o = PROCESS_COUNT * r;
  const at = Math.min(ev.end[r]!, ev.hours[o]!);
  return ev.whole[r] && l.amount_funded === 0 && l.amount_remaining > 0 ? Math.min(at, ev.hours[o + 2]!) : at;
}

/** Where a look ahead keeps its own copy of a listing's verification stream, so that the listing's stays where its columns are. */
const aheadHours = new Float64Array(PROCESS_COUNT);
const aheadStates = new Uint32Array(PROCESS_COUNT);

/**
 * The first hour before `limit` at which the listing's own steps (from its settled hour on) leave it
 * verified and funded in full, so that settling that hour makes it Pending (settle.ts); Infinity if none. The
 * verification stream is followed for the stages it lacks (two at most); simulated funding is a
 * steady pace, so the hour it fills is worked out, not walked.
 */
function pendingHour(seed: number, l: Listing, ev: ListingEvents, r: number, limit: number): number {
  const stage = l.verification_stage;
  const total = l.listing_amount;
  const funded = l.amount_funded;
  const from = ev.settled[r]!;
  // Ready already (a state no tick leaves, a file can hold): Pending at the next hour, unless something else meets it then.
  if (readyToOriginate(stage, funded, total)) return from + 1 < limit ? from + 1 : Infinity;
  let filled = from;
  if (funded < total) {
    // A whole loan fills only by a buyer or a bid: events of their own.
    if (ev.whole[r] === 1) return Infinity;
    const pace = ev.pace[r]!;
    const start = ev.start[r]!;
    filled = hourOfLots(pace, start, lotsBy(pace, start, from) + lotsToFill(total - funded));
    if (filled >= limit) return Infinity;
  }
  let verified = from;
  if (stage < 3) {
    const o = PROCESS_COUNT * r;
    aheadHours[1] = ev.hours[o + 1]!;
    aheadStates[1] = ev.states[o + 1]!;
    verified = aheadHours[1]!;
    const n = l.listing_number;
    for (let s = stage + 1; s < 3 && verified < limit; s++)
      verified = fireAfter(seed, n, 1, verified + 1, ev.end[r]!, aheadHours, aheadStates, 0);
  }
  const at = Math.max(filled, verified);
  return at < limit ? at : Infinity;
}

/** The first hour after `after` at which simulated funding completes a lot on row `r` (Infinity for a whole loan). */
export function nextLot(ev: ListingEvents, r: number, after: number): number {
  return ev.whole[r] === 1 ? Infinity : lotAfter(ev.pace[r]!, ev.start[r]!, after);
}

/**
 * Writes row `r`'s events from hour `from` on (or the listing's start): the next firing of every process up to its
 * end, its pace and next lot; not yet queued (`at` NaN) and Pending at no hour worked out yet.
 */
export function placeEvents(seed: number, l: Listing, ev: ListingEvents, r: number, from: number): void {
  ev.at[r] = NaN;
  const whole = l.investment_typeid === 2;
  ev.whole[r] = whole ? 1 : 0;
  const start = hourAtOrAfter(l.listing_start_date);
  const end = hourAtOrAfter(l.listing_end_date);
  ev.start[r] = start;
  ev.end[r] = end;
  ev.fired[r] = 0;
  const first = Math.max(from, start);
  ev.settled[r] = first - 1;
  // Its number read once (an accessor over a column: a read per process was a cache miss each at a million listings).
  const n = l.listing_number;
  ev.pace[r] = whole ? 0 : fundingPace(seed, n, l.listing_amount);
  ev.lotAt[r] = nextLot(ev, r, first - 1);
  ev.pendingAt[r] = Infinity;
  const o = PROCESS_COUNT * r;
  // A fractional listing meets no whole-loan buyer (process 2): that stream is never drawn.
  const unused = whole ? -1 : 2;
  for (let i = 0; i < PROCESS_COUNT; i++) {
    ev.hours[o + i] = Infinity;
    if (i !== unused) fireAfter(seed, n, i, first, end, ev.hours, ev.states, o);
  }
}

/**
 * The hour an active listing in row `r` is next queued at, at or after `from`: its next meeting with more than itself,
 * or, when its own steps make it Pending before that (written to `pendingAt`), its origination.
 */
export function activeAt(seed: number, l: Listing, ev: ListingEvents, r: number, from: number): number {
  const shared = sharedHour(l, ev, r);
  const pending = pendingHour(seed, l, ev, r, shared);
  // Pending by its own steps before it meets anything else: settling makes it so then (settle.ts), and the visit it
  // gets is its origination's (a visit to make it Pending was a third of a clock move's visits).
  ev.pendingAt[r] = pending;
  if (pending === Infinity) return Math.max(from, shared);
  if (ev.lotAt[r]! > pending) ev.lotAt[r] = pending;
  return Math.max(from, hourAtOrAfter(originationTime(seed, l.listing_number, l.listing_start_date, pending * HOUR)));
}

/** Numbers a place is packed into (`packPlace`): seven of the row, two per chance process, and the hour it is queued at. */
export const PLACE_WIDTH = 8 + 2 * PROCESS_COUNT;

/** Packs the place of row `r` of `ev`, queued at `at`, into `out` from `k` (what `takePlace` reads back). */
export function packPlace(ev: ListingEvents, r: number, at: number, out: Float64Array, k: number): void {
  out[k] = ev.whole[r]!;
  out[k + 1] = ev.start[r]!;
  out[k + 2] = ev.end[r]!;
  out[k + 3] = ev.settled[r]!;
  out[k + 4] = ev.pace[r]!;
  out[k + 5] = ev.lotAt[r]!;
  out[k + 6] = ev.pendingAt[r]!;
  out[k + 7] = at;
  for (let i = 0; i < PROCESS_COUNT; i++) {
    out[k + 8 + i] = ev.hours[PROCESS_COUNT * r + i]!;
    out[k + 8 + PROCESS_COUNT + i] = ev.states[PROCESS_COUNT * r + i]!;
  }
}

/** Writes a packed place (`packPlace`) into row `r` of `ev`, not yet queued; returns the hour to queue it at. */
export function takePlace(from: Float64Array, k: number, ev: ListingEvents, r: number): number {
  ev.at[r] = NaN;
  ev.fired[r] = 0;
  ev.whole[r] = from[k]!;
  ev.start[r] = from[k + 1]!;
  ev.end[r] = from[k + 2]!;
  ev.settled[r] = from[k + 3]!;
  ev.pace[r] = from[k + 4]!;
  ev.lotAt[r] = from[k + 5]!;
  ev.pendingAt[r] = from[k + 6]!;
  for (let i = 0; i < PROCESS_COUNT; i++) {
    ev.hours[PROCESS_COUNT * r + i] = from[k + 8 + i]!;
    ev.states[PROCESS_COUNT * r + i] = from[k + 8 + PROCESS_COUNT + i]!;
  }
  return from[k + 7]!;
}
