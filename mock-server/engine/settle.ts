/**
 * Settling: writing a live listing's own steps (verification, simulated funding: own-steps.ts) into its columns, which
 * the timeline (timeline.ts) lets lag between the hours it visits the listing (its SETTLED hour, world/derived.ts, says how far they
 * are written). A visit settles its listing first; the engine settles the whole world before anyone reads it
 * (`settleWorld`), or a slice at a time between requests after a clock move (`settleSome`); an order settles the
 * listing it is about to change (`settleListing`).
 */
import { LISTING_STATUS } from '../../src/contract/enums.js';
import { cents } from '../kit/money.js';
import { END, EVENT_ROW, HOURS, LOT_AT, PACE, PENDING_AT, SETTLED, START, STATES } from '../world/derived.js';
import type { ListingEvents } from '../world/derived.js';
import { rowOf } from '../world/row-table.js';
import type { Listing, World } from '../world/world.js';
import { touchListing } from '../search/listing-index.js';
import { fireAfter } from './chance-processes.js';
import { HOUR } from './event-hours.js';
import { fundedAfter, hourOfLots, lotAfter, lotsBy, lotsToFill, percentFunded } from './own-steps.js';
import { setPending } from './listing-status.js';

/**
 * Applies the own steps of the active listing in row `r` at every hour after its settled hour up to
 * `through` (none of them meets another listing or ends it: the timeline queued it no later than that), writing its
 * columns once, as the hourly walk would have left them; the last may make it Pending (its PENDING_AT hour).
 * True when they make it Pending and `visiting` (the tick's visit at the next hour, timeline.ts takeListings): that visit
 * is its origination (the timeline queued it at that hour), so the Pending is left for it to write with the origination
 * (market.ts `SETTLED_PENDING`): a status, a reason, an index move and an origination time written and overwritten within
 * one tick, by the listing's largest share of a clock move's visits.
 */
export function settleThrough(world: World, ev: ListingEvents, r: number, through: number, visiting = false): boolean {
  const x = EVENT_ROW * r;
  const F = ev.f;
  const from = F[x + SETTLED]!;
  if (through <= from) return false;
  F[x + SETTLED] = through;
  // The verification's next hour (process 1).
  const v = x + HOURS + 1;
  // No lot completes and no verification fires in the stretch: nothing to write (most listings, most hours; no column read).
  if (F[x + LOT_AT]! > through && (F[v]! > through || F[v]! <= from)) return false;
  const l = world.listings[r]!;
  if (l.listing_status !== LISTING_STATUS.ACTIVE) return false;
  // Its own steps make it Pending inside the stretch (the hour the timeline worked out when it queued it): they end there.
  const pendingAt = F[x + PENDING_AT]!;
  const upTo = pendingAt <= through ? pendingAt : through;
  // The funding pace (0 for a whole loan: timeline.ts worked it out when the row got its place), when a lot completes in the stretch.
  const pace = F[x + LOT_AT]! <= upTo ? F[x + PACE]! : 0;
  if (pace > 0) F[x + LOT_AT] = Math.min(lotAfter(pace, F[x + START]!, upTo), pendingAt);
  // Each column is read only when the stretch needs it (each read is an accessor over a column, and a cache miss at a
  // million listings): the verification's stage and the number its stream follows when it fires in the stretch, the
  // amounts when a lot completes.
  const verifies = F[v]! > from && F[v]! <= upTo;
  // The stage before the stretch; 3 (the last, no step to take) stands for one not read.
  const before = verifies ? l.verification_stage : 3;
  let stage = before;
  let last = -1;
  if (stage < 3) {
    const n = l.listing_number;
    while (stage < 3 && F[v]! > from && F[v]! <= upTo) {
      last = F[v]!;
      stage++;
      fireAfter(world.seed, n, 1, last + 1, F[x + END]!, F, x + HOURS, ev.u32, 2 * x + STATES);
    }
  }
  const funding = pace > 0 ? l.amount_funded : 0;
  let funded = funding;
  const total = pace > 0 ? l.listing_amount : 0;
  if (funded < total) {
    const start = F[x + START]!;
    const lotsBefore = lotsBy(pace, start, from);
    const lots = lotsBy(pace, start, upTo) - lotsBefore;
    if (lots > 0) {
      funded = fundedAfter(total, funded, 25 * lots);
      // The hour of the last lot placed: the one that filled it, or the last completed by `through`.
      const fundedAt = hourOfLots(pace, start, lotsBefore + Math.min(lots, lotsToFill(total - funding)));
      if (fundedAt > last) last = fundedAt;
    }
  }
  if (last >= 0) {
    if (stage !== before) l.verification_stage = stage;
    if (funded !== funding) {
      l.amount_funded = funded;
      l.amount_remaining = cents(total - funded);
      l.percent_funded = percentFunded(funded, total);
    }
    l.last_updated_date = last * HOUR;
    touchListing(world, l);
  }
  if (upTo !== pendingAt) return false;
  if (visiting) return true;
  // As the visit at that hour would have made it Pending (market.ts stepOpen, lifecycle.ts makePending); it is queued at its origination already.
  setPending(world, l, pendingAt * HOUR);
  return false;
}

/** Brings every live listing's columns up to the last tick (the engine calls it before anyone reads the world). */
export function settleWorld(world: World): void {
  const tl = world.index.timeline;
  if (!tl || tl.settled === tl.hour) return;
  const ev = tl.listings;
  const end = Math.min(tl.listingsSeen, ev.capacity);
  let first = -1;
  for (let r = tl.firstLive; r < end; r++) {
    if (ev.live[r] === 0) continue;
    if (first < 0) first = r;
    settleThrough(world, ev, r, tl.hour);
  }
  // Rows below the first live one stay dead (a listing that leaves the timeline comes back only through listingChanged, which lowers it again).
  tl.firstLive = first < 0 ? end : first;
  tl.settled = tl.hour;
}

/**
 * Brings up to `rows` more rows' columns up to the last tick, from where the last call stopped (a pass begins again when a
 * tick has come since); true once every live listing's are, as `settleWorld` leaves them (the engine's idle work after a move).
 */
export function settleSome(world: World, rows: number): boolean {
  const tl = world.index.timeline;
  if (!tl || tl.settled === tl.hour) return true;
  if (tl.settling !== tl.hour) [tl.settling, tl.settleNext] = [tl.hour, tl.firstLive];
  const ev = tl.listings;
  const end = Math.min(tl.listingsSeen, ev.capacity);
  const stop = Math.min(end, tl.settleNext + rows);
  for (let r = tl.settleNext; r < stop; r++) if (ev.live[r] === 1) settleThrough(world, ev, r, tl.hour);
  tl.settleNext = stop;
  if (stop < end) return false;
  tl.settled = tl.hour;
  return true;
}

/** Brings one listing's columns up to the last tick (an order about to read and change it). */
export function settleListing(world: World, l: Listing): void {
  const tl = world.index.timeline;
  if (!tl) return;
  const r = rowOf(l);
  if (r < tl.listings.capacity && tl.listings.live[r] === 1) settleThrough(world, tl.listings, r, tl.hour);
}
