/**
 * A live listing's place in the timeline (timeline.ts), worked out from the listing alone: the hours of its start and
 * end, the next firing of each chance process, its funding pace and next lot, the hour its own steps make it Pending,
 * and the hour it is queued at. Pure arithmetic on the seed and the listing's values (no world), so that a listing's
 * place can be worked out where the world is not: another thread works out the places of a clock move's arrivals ahead
 * of the ticks (arrival-batch.ts `drawBatch`, arrivals-worker.ts), and a tick copies each into its row (`takePlace`),
 * the place this code gives it either way.
 */
import { AT, END, EVENT_ROW, FIRED, HOURS, LOT_AT, PACE, PENDING_AT, SETTLED, START, STATES, WHOLE } from '../world/derived.js';
import type { ListingEvents } from '../world/derived.js';
import type { Listing } from '../world/world.js';
import { fireAfter, PROCESS_COUNT } from './chance-processes.js';
import { HOUR, hourAtOrAfter } from './event-hours.js';
import { fundingPace, hourOfLots, lotAfter, lotsBy, lotsToFill, originationTime, readyToOriginate } from './own-steps.js';

// The row's parts apart: the processes' hours before their states' bytes, the states before the flags, the flags in the row.
if (!(HOURS + PROCESS_COUNT <= STATES / 2 && 4 * (STATES + PROCESS_COUNT) <= FIRED && FIRED < WHOLE && WHOLE < 8 * EVENT_ROW))
  throw new Error(`a timeline row of ${EVENT_ROW} numbers has no room for ${PROCESS_COUNT} chance processes`);

/** An empty timeline of listings with room for `capacity` rows (one buffer: memory is taken only as rows are written). */
export function eventArrays(capacity: number): ListingEvents {
  const buffer = new ArrayBuffer(8 * EVENT_ROW * capacity);
  return {
    capacity,
    live: new Uint8Array(capacity),
    f: new Float64Array(buffer),
    u32: new Uint32Array(buffer),
    u8: new Uint8Array(buffer),
  };
}

/** The chance processes that fired for row `r` at the hour it was taken out at (timeline.ts takeListings). */
export const firedOf = (ev: ListingEvents, r: number): number => ev.u8[8 * EVENT_ROW * r + FIRED]!;

/**
 * The next hour at which an active listing meets more than itself: its end, a withdrawal, or a
 * whole-loan buyer while it is unfunded (the buyer looks at other investors' unprocessed bids).
 */
function sharedHour(l: Listing, ev: ListingEvents, r: number): number {
  const x = EVENT_ROW * r;
  const F = ev.f;
  const at = Math.min(F[x + END]!, F[x + HOURS]!);
  return ev.u8[8 * x + WHOLE] && l.amount_funded === 0 && l.amount_remaining > 0 ? Math.min(at, F[x + HOURS + 2]!) : at;
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
  const x = EVENT_ROW * r;
  const F = ev.f;
  const from = F[x + SETTLED]!;
  // Ready already (a state no tick leaves, a file can hold): Pending at the next hour, unless something else meets it then.
  if (readyToOriginate(stage, funded, total)) return from + 1 < limit ? from + 1 : Infinity;
  let filled = from;
  if (funded < total) {
    // A whole loan fills only by a buyer or a bid: events of their own.
    if (ev.u8[8 * x + WHOLE] === 1) return Infinity;
    const pace = F[x + PACE]!;
    const start = F[x + START]!;
    filled = hourOfLots(pace, start, lotsBy(pace, start, from) + lotsToFill(total - funded));
    if (filled >= limit) return Infinity;
  }
  let verified = from;
  if (stage < 3) {
    aheadHours[1] = F[x + HOURS + 1]!;
    aheadStates[1] = ev.u32[2 * x + STATES + 1]!;
    verified = aheadHours[1]!;
    const n = l.listing_number;
    for (let s = stage + 1; s < 3 && verified < limit; s++)
      verified = fireAfter(seed, n, 1, verified + 1, F[x + END]!, aheadHours, 0, aheadStates, 0);
  }
  const at = Math.max(filled, verified);
  return at < limit ? at : Infinity;
}

/** The first hour after `after` at which simulated funding completes a lot on row `r` (Infinity for a whole loan). */
export function nextLot(ev: ListingEvents, r: number, after: number): number {
  const x = EVENT_ROW * r;
  return ev.u8[8 * x + WHOLE] === 1 ? Infinity : lotAfter(ev.f[x + PACE]!, ev.f[x + START]!, after);
}

/**
 * Writes row `r`'s events from hour `from` on (or the listing's start): the next firing of every process up to its
 * end, its pace and next lot; not yet queued (AT NaN) and Pending at no hour worked out yet.
 */
export function placeEvents(seed: number, l: Listing, ev: ListingEvents, r: number, from: number): void {
  const x = EVENT_ROW * r;
  const F = ev.f;
  F[x + AT] = NaN;
  const whole = l.investment_typeid === 2;
  ev.u8[8 * x + WHOLE] = whole ? 1 : 0;
  const start = hourAtOrAfter(l.listing_start_date);
  const end = hourAtOrAfter(l.listing_end_date);
  F[x + START] = start;
  F[x + END] = end;
  ev.u8[8 * x + FIRED] = 0;
  const first = Math.max(from, start);
  F[x + SETTLED] = first - 1;
  // Its number read once (an accessor over a column: a read per process was a cache miss each at a million listings).
  const n = l.listing_number;
  F[x + PACE] = whole ? 0 : fundingPace(seed, n, l.listing_amount);
  F[x + LOT_AT] = nextLot(ev, r, first - 1);
  F[x + PENDING_AT] = Infinity;
  // A fractional listing meets no whole-loan buyer (process 2): that stream is never drawn.
  const unused = whole ? -1 : 2;
  for (let i = 0; i < PROCESS_COUNT; i++) {
    F[x + HOURS + i] = Infinity;
    if (i !== unused) fireAfter(seed, n, i, first, end, F, x + HOURS, ev.u32, 2 * x + STATES);
  }
}

/**
 * The hour an active listing in row `r` is next queued at, at or after `from`: its next meeting with more than itself,
 * or, when its own steps make it Pending before that (written to PENDING_AT), its origination.
 */
export function activeAt(seed: number, l: Listing, ev: ListingEvents, r: number, from: number): number {
  const shared = sharedHour(l, ev, r);
  const pending = pendingHour(seed, l, ev, r, shared);
  const x = EVENT_ROW * r;
  // Pending by its own steps before it meets anything else: settling makes it so then (settle.ts), and the visit it
  // gets is its origination's (a visit to make it Pending was a third of a clock move's visits).
  ev.f[x + PENDING_AT] = pending;
  if (pending === Infinity) return Math.max(from, shared);
  if (ev.f[x + LOT_AT]! > pending) ev.f[x + LOT_AT] = pending;
  return Math.max(from, hourAtOrAfter(originationTime(seed, l.listing_number, l.listing_start_date, pending * HOUR)));
}

/** Numbers a place is packed into (`packPlace`): seven of the row, two per chance process, and the hour it is queued at. */
export const PLACE_WIDTH = 8 + 2 * PROCESS_COUNT;

/** Packs the place of row `r` of `ev`, queued at `at`, into `out` from `k` (what `takePlace` reads back). */
export function packPlace(ev: ListingEvents, r: number, at: number, out: Float64Array, k: number): void {
  const x = EVENT_ROW * r;
  const F = ev.f;
  out[k] = ev.u8[8 * x + WHOLE]!;
  out[k + 1] = F[x + START]!;
  out[k + 2] = F[x + END]!;
  out[k + 3] = F[x + SETTLED]!;
  out[k + 4] = F[x + PACE]!;
  out[k + 5] = F[x + LOT_AT]!;
  out[k + 6] = F[x + PENDING_AT]!;
  out[k + 7] = at;
  for (let i = 0; i < PROCESS_COUNT; i++) {
    out[k + 8 + i] = F[x + HOURS + i]!;
    out[k + 8 + PROCESS_COUNT + i] = ev.u32[2 * x + STATES + i]!;
  }
}

/** Writes a packed place (`packPlace`) into row `r` of `ev`, not yet queued; returns the hour to queue it at. */
export function takePlace(from: Float64Array, k: number, ev: ListingEvents, r: number): number {
  const x = EVENT_ROW * r;
  const F = ev.f;
  F[x + AT] = NaN;
  ev.u8[8 * x + FIRED] = 0;
  ev.u8[8 * x + WHOLE] = from[k]!;
  F[x + START] = from[k + 1]!;
  F[x + END] = from[k + 2]!;
  F[x + SETTLED] = from[k + 3]!;
  F[x + PACE] = from[k + 4]!;
  F[x + LOT_AT] = from[k + 5]!;
  F[x + PENDING_AT] = from[k + 6]!;
  for (let i = 0; i < PROCESS_COUNT; i++) {
    F[x + HOURS + i] = from[k + 8 + i]!;
    ev.u32[2 * x + STATES + i] = from[k + 8 + PROCESS_COUNT + i]!;
  }
  return from[k + 7]!;
}
