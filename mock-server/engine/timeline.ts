/**
 * The market's timeline: the next hour at which each live listing and each loan can change, so an
 * hourly tick visits only those (its cost grows with activity, not with history). Whether a chance
 * process (a withdrawal, a verification step, a whole-loan buyer) fires for a listing at an hour is a
 * pure function of the seed, the listing number, the process and the hour (`nextFiring`,
 * chance-processes.ts), simulated funding by an hour is a formula of the seed, the listing and the hour
 * (own-steps.ts), and every other event time is a field of the listing or loan; so the timeline is
 * derived data, never saved: rebuilt from the world after a load, a reset or a skipped stretch, it
 * is the timeline the world would have had without the break.
 *
 * A listing's own steps (verification and funding: own-steps.ts) touch nothing but the listing, so a
 * tick does not visit them one by one: the timeline queues a listing only at the hours that involve
 * more than itself (its end, a withdrawal, a whole-loan buyer, its origination) and applies the steps in
 * between at once, the one that makes it Pending too (worked out ahead: `pendingHour`), when the listing is next
 * visited or read (settle.ts: the engine settles the world before anyone looks).
 * Between two reads a listing's columns may lag its timeline (its SETTLED hour says how far
 * they are applied); what anyone reads is the world a walk of every hour would show.
 *
 * A live listing's place is a row of one buffer (`ListingEvents`, by the listing's row in the world),
 * and the hour buckets hold row numbers: a clock move makes no object per listing it visits.
 */
import { LISTING_STATUS } from '../../src/contract/enums.js';
import { AT, END, EVENT_ROW, FIRED, HOURS, LOT_AT, SETTLED, STATES } from '../world/derived.js';
import type { ListingEvents, RowBucket, Timeline } from '../world/derived.js';
import { rowOf } from '../world/row-table.js';
import { grown } from '../world/typed-growth.js';
import type { Listing, Loan, World } from '../world/world.js';
import { BUY, fireAfter, PROCESS_COUNT, VERIFY, WITHDRAW } from './chance-processes.js';
import { HOUR, hourAtOrAfter } from './event-hours.js';
import { activeAt, eventArrays, firedOf, nextLot, placeEvents, takePlace } from './listing-place.js';
import { settleThrough, settleWorld } from './settle.js';
import { bringUpToDate, payOnSchedule } from './servicing.js';
import { queueLoan, queueNewLoan, searchUnsearched } from './loan-queue.js';

export { requeueLoan } from './loan-queue.js';

export type { ListingEvents };

export { HOUR, hourAtOrAfter };

/**
 * When a listing stops taking bids: the hourly tick at or after its end date, which ends it. Until then
 * search shows it active, so the order checks and bid processing must take a bid on it too.
 */
export function biddableUntil(l: Listing): number {
  return hourAtOrAfter(l.listing_end_date) * HOUR;
}

/** A listing a tick can still change: Active, or Pending with an origination time. */
export function isLive(l: Listing): boolean {
  return l.listing_status === LISTING_STATUS.ACTIVE || (l.listing_status === LISTING_STATUS.PENDING && l.originateAt != null);
}

/**
 * Hours ahead kept in the ring of hour buckets: every event of a live listing lies within its 14 days
 * and the 3 days it may wait to originate, so all but odd hand-made listings fit (those wait in `later`).
 */
const RING = 512;

/** Adds row `r` to `bucket`, growing its room when full. */
function pushRow(bucket: RowBucket, r: number): void {
  if (bucket.size === bucket.rows.length) bucket.rows = grown(bucket.rows, Math.max(64, 2 * bucket.size));
  bucket.rows[bucket.size++] = r;
}

function push<T>(map: Map<number, T[]>, hour: number, item: T): void {
  const list = map.get(hour);
  if (list) list.push(item);
  else map.set(hour, [item]);
}

/** The listings' places with room for row `r`: the same, or a larger buffer holding the same rows (room for the world's growth, as its columns have). */
function roomFor(tl: Timeline, r: number): ListingEvents {
  const ev = tl.listings;
  if (r < ev.capacity) return ev;
  // Four times the rows, as the listing table grows (world/typed-growth.ts GROWTH): each growth copies every row.
  const next = eventArrays(Math.max(4 * ev.capacity, r + 1024));
  next.live.set(ev.live);
  next.f.set(ev.f);
  return (tl.listings = next);
}

/** Queues row `r` at its next event at or after hour `from`; one that can no longer change leaves the timeline. */
function queueListing(world: World, tl: Timeline, r: number, from: number): void {
  const ev = tl.listings;
  const l = world.listings[r]!;
  let at = NaN;
  if (l.listing_status === LISTING_STATUS.ACTIVE) at = activeAt(world.seed, l, ev, r, from);
  else if (l.listing_status === LISTING_STATUS.PENDING && l.originateAt != null) at = Math.max(from, hourAtOrAfter(l.originateAt));
  queueAt(tl, r, at);
}

/** Queues row `r` at hour `at` (NaN: it leaves the timeline); nothing when it is queued there already. */
function queueAt(tl: Timeline, r: number, at: number): void {
  const F = tl.listings.f;
  const x = EVENT_ROW * r;
  if (at === F[x + AT]) return;
  if (Number.isNaN(at)) leave(tl, r);
  else {
    F[x + AT] = at;
    if (at - tl.hour < RING) pushRow(tl.ring[at % RING]!, r);
    else push(tl.later, at, r);
  }
}

/** Row `r` leaves the timeline: its listing can no longer change. */
function leave(tl: Timeline, r: number): void {
  const ev = tl.listings;
  ev.f[EVENT_ROW * r + AT] = NaN;
  ev.live[r] = 0;
  tl.liveCount--;
}

/** Gives row `r` (listing `l`) its place: the next firing of every process at or after `from` (or the listing's start), up to its end. */
function addEvents(world: World, tl: Timeline, l: Listing, r: number, from: number): void {
  const ev = roomFor(tl, r);
  ev.live[r] = 1;
  tl.liveCount++;
  if (r < tl.firstLive) tl.firstLive = r;
  placeEvents(world.seed, l, ev, r, from);
}

/**
 * Gives the `count` listings the tick at hour `h` just added, from row `row` on, the places worked out for them ahead
 * (arrival-batch.ts `drawBatch`, on the arrivals' thread: packed by listing-place.ts `packPlace` in `places`, from
 * `k`, `stride` apart), as catching up at the tick's end gives them: true when it did, which is when the timeline is
 * that tick's and has seen every row before them; false otherwise, and catching up works theirs out.
 */
export function placeArrived(
  world: World,
  row: number,
  count: number,
  places: Float64Array,
  k: number,
  stride: number,
  h: number,
): boolean {
  const tl = world.index.timeline;
  if (!tl || tl.hour !== h || tl.listingsSeen !== row || world.listings.length !== row + count) return false;
  for (let j = 0; j < count; j++) {
    const r = row + j;
    const ev = roomFor(tl, r);
    ev.live[r] = 1;
    tl.liveCount++;
    if (r < tl.firstLive) tl.firstLive = r;
    queueAt(tl, r, takePlace(places, k + j * stride, ev, r));
  }
  tl.listingsSeen = row + count;
  return true;
}

/** Every loan brought up to the hour `h` its timeline last ticked (before that timeline goes, or as a reader looks). */
function bringLoansUpTo(world: World, h: number): void {
  for (const loan of world.loans.keptValues()) bringUpToDate(world, loan, h * HOUR);
}

/**
 * Adds listings and loans made since the timeline last looked (seeded, arrived, originated), at most
 * `rows` listings of them; true once none is left (the loans come with the last listings).
 */
function catchUp(world: World, tl: Timeline, from: number, rows = Infinity): boolean {
  const all = world.listings;
  const stop = Math.min(all.length, tl.listingsSeen + rows);
  for (; tl.listingsSeen < stop; tl.listingsSeen++) {
    const r = tl.listingsSeen;
    // A row with its place already (a clock move's arrival: placeArrived; or one queued since) is skipped before its
    // row is read: a cache miss a row.
    if (r < tl.listings.capacity && tl.listings.live[r] === 1) continue;
    const l = all[r]!;
    if (!isLive(l)) continue;
    addEvents(world, tl, l, r, from);
    queueListing(world, tl, r, from);
  }
  if (tl.listingsSeen < all.length) return false;
  if (tl.loansSeen === 0) {
    for (const loan of world.loans.keptValues()) queueLoan(world, tl, loan, from);
    tl.loansSeen = world.counters.loan;
  }
  for (; tl.loansSeen < world.counters.loan; tl.loansSeen++) {
    // A loan made since the last tick is not behind it: not brought up (loans.get would look).
    const loan = world.loans.kept(tl.loansSeen);
    if (loan) queueNewLoan(world, tl, loan, from);
  }
  return true;
}

/** Adds the listings and loans made since the timeline last looked, from hour `from` (the tick before it, at its end: market.ts). */
export function catchUpTimeline(world: World, from: number): void {
  const tl = world.index.timeline;
  if (tl && tl.hour === from - 1) catchUp(world, tl, from);
}

/** An empty timeline whose last tick was at hour `h - 1`. */
function newTimeline(world: World, h: number): Timeline {
  const ring = Array.from({ length: RING }, () => ({ rows: new Int32Array(0), size: 0 }));
  // Room for the world's rows and more again than a 15-day move adds (the columns reserve as much: row-table.ts `reserveRows`).
  const listings = eventArrays(Math.ceil(2.5 * world.listings.length) + 1024);
  const tl: Timeline = {
    hour: h - 1,
    settled: h - 1,
    settling: NaN,
    settleNext: 0,
    listings,
    liveCount: 0,
    firstLive: listings.capacity,
    ring,
    later: new Map(),
    due: new Int32Array(0),
    loansAt: new Map(),
    lazyLoansAt: new Map(),
    unsearched: [],
    unsearchedFrom: 0,
    listingsSeen: 0,
    loansSeen: 0,
    readAheadSum: 0,
  };
  // A loan read is first brought up to the last tick run (the ticks leave lazily serviced loans behind: servicing.ts).
  world.loans.reader = (loan) => bringUpToDate(world, loan, Math.min(world.engine.lastTick, tl.hour * HOUR));
  return (world.index.timeline = tl);
}

/**
 * The timeline of `world` as the tick at hour `h` begins, built from the world when there is none
 * or the ticks skipped ahead (a long catch-up), with listings and loans made since the last tick.
 */
function timelineAt(world: World, h: number): Timeline {
  let tl = world.index.timeline;
  if (!tl || tl.hour !== h - 1) {
    // The old timeline's listings get the steps they are owed before it goes (a skipped stretch after it is skipped for all).
    if (tl) {
      settleWorld(world);
      bringLoansUpTo(world, tl.hour);
    }
    tl = newTimeline(world, h);
  }
  catchUp(world, tl, h);
  // Loans made earlier whose first due date is now (kept aside unsearched: loan-queue.ts).
  searchUnsearched(world, tl, h, h);
  tl.hour = h;
  return tl;
}

/**
 * Builds up to `rows` more listings' places of the timeline the tick at hour `h` will begin with (the
 * engine calls it between requests while a server listens: at 100,000 live listings the whole build is
 * ~0.15 s that a clock move need not wait for); true once that timeline is whole, or when the world has a timeline of another
 * hour (the ticks keep that one). The tick at `h` then only catches up what came after (timelineAt). Places
 * built early are the ones the tick would build: each is worked out from the hour `h`, and a listing
 * changed meanwhile is queued again (listingChanged), as it is between two ticks.
 */
export function prepareTimeline(world: World, h: number, rows: number): boolean {
  const tl = world.index.timeline ?? newTimeline(world, h);
  return tl.hour !== h - 1 || (catchUp(world, tl, h, rows) && searchUnsearched(world, tl, h, Infinity, rows));
}

/** What can change at hour `h`: the listings' rows (in row order; the processes that fire for each: listing-place.ts `firedOf` of `events`) and the loans (by number) due then. */
export interface DueAt {
  listings: Int32Array;
  events: ListingEvents;
  loans: Loan[];
}

/** Begins the tick at hour `h`: takes out of the timeline everything due at it (the listings' rows are valid until the next tick). */
export function takeDue(world: World, h: number): DueAt {
  const tl = timelineAt(world, h);
  const bucket = tl.ring[h % RING]!;
  const later = tl.later.size > 0 ? tl.later.get(h) : undefined;
  if (later) {
    tl.later.delete(h);
    for (const r of later) pushRow(bucket, r);
  }
  const rows = inRowOrder(bucket);
  tl.readAheadSum = readAhead(world, tl.listings, rows);
  const listings = takeListings(world, tl, rows, h);
  bucket.size = 0;
  const loans = tl.loansAt.get(h) ?? [];
  tl.loansAt.delete(h);
  const lazy = tl.lazyLoansAt.get(h);
  if (lazy) {
    tl.lazyLoansAt.delete(h);
    // Their months on schedule first (they posted to nobody, so when does not matter); the visit is the departure's.
    for (const loan of lazy) payOnSchedule(world, loan, h);
    loans.push(...lazy);
  }
  loans.sort((a, b) => a.loan_number - b.loan_number);
  return { listings, events: tl.listings, loans };
}

/**
 * A bit of what fired (`DueAt`) beside the chance processes': the listing's own steps made it Pending before the hour it is
 * taken out at (settle.ts), and that hour is its origination's (queueListing queued it there), so the visit originates it
 * (or the operator cancels it) from Active, writing no Pending first (market.ts stepListing).
 */
export const SETTLED_PENDING = 1 << PROCESS_COUNT;

/**
 * The rows of an hour's bucket, sorted in place: a visit changes only its own listing (the steps that end one run in
 * number order after: market.ts), so the order they are visited in is free, and in row order the visits walk each column
 * of the table and the timeline's rows forward, not at random (at a million rows, a cache and a page-table miss each);
 * the ending ones come out in number order already where rows ascend with numbers (RowTable `ascending`).
 */
function inRowOrder(bucket: RowBucket): Int32Array {
  return bucket.rows.subarray(0, bucket.size).sort();
}

/**
 * Reads, for each row of an hour's bucket, what its visit reads first: its event row's first line, its row object, its
 * number and its status (two columns). At a million listings each is a cache and a page-table miss, and in the visits
 * each waits for the one before it (the row object for the table's row, the column for the row object, the step for the
 * status: settleThrough, endsAt, cancelledAtOrigination). Here no row's reads wait for another's, so the processor has
 * many rows' misses in flight at once, and the visits that follow find the lines in its caches (an hour has ~4,000 rows
 * in a 15-day move at 1M, 14,000 at most). A 15-day move at 1M: ~0.15 s less of ~2.65 s on the main thread
 * (docs/performance.md, session 38). Stale copies (takeListings skips them) are read too: they are few, the reads change
 * nothing, and leaving them out (a test of each row's hour in the second loop) made the move ~0.1 s slower (three
 * alternated pairs). Returns the sum of what it read, for the caller to keep.
 */
function readAhead(world: World, ev: ListingEvents, rows: Int32Array): number {
  const F = ev.f;
  const listings = world.listings;
  let sum = 0;
  for (let k = 0; k < rows.length; k++) sum += F[EVENT_ROW * rows[k]! + AT]!;
  for (let k = 0; k < rows.length; k++) {
    const l = listings[rows[k]!]!;
    sum += l.listing_number + (l.listing_status === LISTING_STATUS.ACTIVE ? 1 : 0);
  }
  return sum;
}

/** The rows of `bucket` still queued at `h` (in `tl.due`), with the processes that fire for each (a row queued twice is taken once). */
function takeListings(world: World, tl: Timeline, bucket: Int32Array, h: number): Int32Array {
  if (tl.due.length < bucket.length) tl.due = new Int32Array(Math.max(bucket.length, 2 * tl.due.length));
  const out = tl.due;
  let n = 0;
  const ev = tl.listings;
  const F = ev.f;
  for (let k = 0; k < bucket.length; k++) {
    const r = bucket[k]!;
    const x = EVENT_ROW * r;
    if (F[x + AT] !== h) continue; // moved since, or a second copy
    F[x + AT] = NaN;
    // The visit at h sees the listing as every hour before it left it (Pending by then, it originates at h: SETTLED_PENDING).
    const pending = settleThrough(world, ev, r, h - 1, true);
    const o = x + HOURS;
    ev.u8[8 * x + FIRED] =
      (F[o] === h ? WITHDRAW : 0) | (F[o + 1] === h ? VERIFY : 0) | (F[o + 2] === h ? BUY : 0) | (pending ? SETTLED_PENDING : 0);
    out[n++] = r;
  }
  return out.subarray(0, n);
}

/** Puts row `r`, taken out at hour `h`, back at its next event (drawing the next firing of the processes that fired). */
export function requeueListing(world: World, r: number, h: number): void {
  const tl = world.index.timeline!;
  const ev = tl.listings;
  const l = world.listings[r]!;
  if (!isLive(l)) {
    // Ended by its step (most visits of a clock move end their listing: an origination): it leaves the timeline, as
    // queueListing would let it go, without drawing the next firing of what fired or the next lot first.
    leave(tl, r);
    return;
  }
  const fired = firedOf(ev, r);
  const n = l.listing_number;
  const x = EVENT_ROW * r;
  const F = ev.f;
  for (let i = 0; i < PROCESS_COUNT; i++)
    if (fired & (1 << i)) fireAfter(world.seed, n, i, h + 1, F[x + END]!, F, x + HOURS, ev.u32, 2 * x + STATES);
  F[x + SETTLED] = h;
  if (F[x + LOT_AT]! <= h) F[x + LOT_AT] = nextLot(ev, r, h);
  queueListing(world, tl, r, h + 1);
}

/** Called when a listing changed outside its own event (an order funded it, perhaps to Pending): it is queued at its new next event. */
export function listingChanged(world: World, l: Listing): void {
  const tl = world.index.timeline;
  if (!tl || !isLive(l)) return;
  const r = rowOf(l);
  if (!(r < tl.listings.capacity && tl.listings.live[r] === 1)) addEvents(world, tl, l, r, tl.hour + 1);
  // Its own steps up to now came before the change (the caller settled it first: settleListing); the look ahead starts from the new state.
  queueListing(world, tl, r, tl.hour + 1);
}
