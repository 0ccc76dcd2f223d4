/**
 * What is derived from a world and kept with it, never saved: the world's indexes and every layer's
 * caches of it, typed here so that the world's type shows all it holds. Each is made empty with the
 * world (`emptyIndex`) and dropped with it: a reset or a loaded state file is a new world with empty
 * caches, and a cache keyed by a version (`listingsVersion`, the engine's) is read only while it holds.
 * The code that fills each one lives in its own layer (named on each field).
 */
import type { Bits } from '../kit/bitset.js';
import type { SortRoom } from '../kit/radix-order.js';
import type { Bid, LedgerEntry, Listing, Loan, Note, Order } from './records.js';

/** One bid with the order it belongs to. */
export interface BidRef {
  order: Order;
  bid: Bid;
}

/** Lookups and caches kept beside the world's own collections (never saved: derived from them). */
export interface WorldIndex {
  ordersByAccount: Map<string, Order[]>;
  notesByAccount: Map<string, Note[]>;
  notesByLoan: Map<number, Note[]>;
  bidsByListing: Map<number, BidRef[]>;
  /** The last ledger entry of each account and kind (engine/ledger.ts `lastEntry`), made on the first read; null until then. */
  lastEntries: LastEntries | null;
  /** The listing indexes (search/listing-index.ts), built on the first search; null until then. */
  listings: ListingIndex | null;
  /** The listing index (or a value index of it) being built between requests (search/index-build.ts); null when none is. */
  indexBuild: IndexBuild | null;
  /** Bumped by every change to a listing: part of the key of cached search answers. */
  listingsVersion: number;
  /** The last few searches' matches (search/listing-search.ts), so offset pages of one query do not search again. */
  queryCache: QueryCacheEntry[];
  /** The buffers the listings search sorts its matches' keys in (kit/radix-order.ts), grown to the largest sort; null until the first. */
  sortRoom: SortRoom | null;
  /** The last few sorted lists of notes and loans (views/kept-orders.ts), so their later pages are slices. */
  keptOrders: KeptOrder[];
  /** Each listing's view as encoded JSON bytes, until the listing changes (search/listing-json.ts). */
  listingTexts: ListingTexts;
  /** 1 for a row that may have bytes kept in `listingTexts` (0: none), so that a change to a listing whose bytes no one keeps costs no lookup. */
  textRows: Uint8Array;
  /** The last page answered to each parsed listings query, kept whole with what it was made of (routes/listings.ts). */
  keptPages: Map<object, KeptPage>;
  /** The last few callers' participation, each under the versions it was worked out at (search/kept-participation.ts). */
  participation: Map<string, KeptParticipation>;
  /** The market's timeline (engine/timeline.ts), made by the first tick; null until then. */
  timeline: Timeline | null;
  /** The arrivals drawn ahead of the ticks for the clock move under way (engine/engine.ts, a long move's), or null. */
  arrivalsAhead: ArrivalsAhead | null;
  /**
   * What describes an arrived listing's row (engine/arrivals.ts), made by the first tick with arrivals and kept: the
   * listing table calls it where a row's description is first needed, and with a new function each tick V8's optimised
   * code there was thrown away ("wrong call target") and compiled again, 90–170 ms a compile.
   */
  describeArrival: ((row: number, drawnFrom: number) => void) | null;
  /** The seeded users' passwords, which the request log redacts (routes/request log.ts), and how many users they are of. */
  passwords: { users: number; list: string[] } | null;
}

/** Empty indexes and caches, for a new world: made with it and dropped with it. */
export function emptyIndex(): WorldIndex {
  return {
    ordersByAccount: new Map(),
    notesByAccount: new Map(),
    notesByLoan: new Map(),
    bidsByListing: new Map(),
    lastEntries: null,
    listings: null,
    indexBuild: null,
    listingsVersion: 0,
    queryCache: [],
    sortRoom: null,
    keptOrders: [],
    listingTexts: new Map(),
    textRows: new Uint8Array(0),
    keptPages: new Map(),
    participation: new Map(),
    timeline: null,
    arrivalsAhead: null,
    describeArrival: null,
    passwords: null,
  };
}

/**
 * Arrivals drawn ahead of the ticks (engine/arrivals-thread.ts, for a long clock move): `take` gives the batch of the
 * hour `t` whose first listing is `number` (engine/arrival-batch.ts `drawBatch`) when it is ready, and says that the
 * ticks reached `t`; undefined when it is not (the tick draws its own). `stop` lets it go.
 */
export interface ArrivalsAhead {
  take(t: number, number: number): Float64Array | undefined;
  stop(): void;
}

/** The last ledger entry of each account and kind, as of the first `seen` entries of `ledger` (which only grows). */
export interface LastEntries {
  ledger: readonly LedgerEntry[];
  seen: number;
  /** Account id → kind → its last entry. */
  byAccount: Map<string, Map<string, LedgerEntry>>;
}

/** The listing indexes (search/listing-index.ts), built on the first search. */
export interface ListingIndex {
  /** Positions of `world.listings` indexed so far (new listings are caught up on the next search). */
  size: number;
  /** Listing number of position 0: numbers are handed out in the world's order, so most sit at number − base. */
  base: number;
  /** Positions of the few listings that do not sit at number − base (a dense map of a million cost 40 MB). */
  position: Map<number, number>;
  byStatus: Map<number, Bits>;
  originated: Bits;
  /** Field → value → positions, for the static filter fields asked for so far. */
  byValue: Map<string, Map<unknown, Bits>>;
  /** True while every position indexed holds the listing of that row of the listing table: the search may then read fields by row from the columns. */
  inPlace: boolean;
}

/**
 * A build of the listing index between requests (search/index-build.ts): `index` holds its rows below `next`, read while
 * the listings' version was `version` (a build of the index itself starts over when it moved); with `field`, the rows
 * below `next` of that field's value index, `values`.
 */
export interface IndexBuild {
  version: number;
  field: string | null;
  next: number;
  index: ListingIndex;
  values: Map<unknown, Bits> | null;
}

/**
 * The most recent searches' matches: repeated pages of one query (`--all`) read them instead of searching
 * again. A search without a sort keeps its matches' bits (a page is read off them); a sorted one its
 * matches' positions and the first of them in order (`order`: all of them once a page past those was asked
 * for), or, sorted by a field that is not a number, its matches in order.
 */
export type QueryCacheEntry =
  | { key: string; words: Uint32Array; total: number }
  | { key: string; positions: Uint32Array; order: Uint32Array }
  | { key: string; matches: Listing[] };

/** One kept order of a list endpoint (views/kept-orders.ts). */
export interface KeptOrder {
  key: string;
  rows: readonly unknown[];
}

/** A listing's kept bytes (UTF-8 JSON) for one kind of request, each row's led by the comma that joins it to the row before. */
export interface Fragments {
  /** The whole row for a caller without participation. */
  uninvested: Buffer;
  /** The row for a caller with participation, around its amount; null: the amount is not spliceable. */
  invested?: readonly [Buffer, Buffer] | null;
}

/** Each listing's kept bytes (search/listing-json.ts) per kind of request (zone, bureaus, loan fields), most recently started last. */
export type ListingTexts = Map<string, Map<number, Fragments>>;

/**
 * A listings page kept whole (routes/listings.ts): its bytes, and what they were made of. The world's version moves with every
 * change a tick or an operation makes, the listings' with every change to a listing (settling included), and a caller's
 * participation is a new map whenever either moves: with all three the same, the page is the same.
 */
export interface KeptPage {
  version: number;
  listings: number;
  participation: ReadonlyMap<number, number>;
  bytes: Buffer;
}

/** A caller's participation as the listings search last worked it out, and the versions it holds for. */
export interface KeptParticipation {
  /** The world's version, the listings' version and the caller's counts of notes and orders it was worked out at. */
  version: number;
  listings: number;
  notes: number;
  orders: number;
  participation: ReadonlyMap<number, number>;
}

/**
 * The live listings' places in the timeline, by the listing's row in the world (`world.listings[r]`): a row of
 * `EVENT_ROW` numbers (96 bytes) a listing, its fields side by side, in typed arrays the garbage collector never walks.
 * A visit reads most of a row's fields, so a row together misses the cache once or twice where an array a field missed
 * once a field at a million rows (a micro-benchmark: 1.5M random visits to 11 fields took 410 ms across 11 arrays,
 * 210 ms in one row). Three views of one buffer, each indexed from the row's start `x = r * EVENT_ROW`:
 * - `f[x + field]`: AT, START, END, SETTLED, PACE, LOT_AT, PENDING_AT, and HOURS + i for chance process i;
 * - `u32[2 * x + STATES + i]`: where process i's stream stood at its next hour;
 * - `u8[8 * x + FIRED]`, `u8[8 * x + WHOLE]`.
 */
export interface ListingEvents {
  /** Rows the arrays have room for. */
  capacity: number;
  /** 1 while the row's listing is live (has a place in the timeline): an array of its own, since settling scans it in row order. */
  live: Uint8Array;
  f: Float64Array;
  u32: Uint32Array;
  u8: Uint8Array;
}

/** Numbers (8 bytes) in a row of `ListingEvents`. */
export const EVENT_ROW = 12;
/** The hour the row is queued at; NaN while taken out or no longer queued (older copies in buckets are stale). */
export const AT = 0;
/** The hours of the listing's start and end (the first ticks at or after them). */
export const START = 1;
export const END = 2;
/** The last hour whose own steps (verification, funding) are in the listing's columns (engine/timeline.ts applies later ones when it is read). */
export const SETTLED = 3;
/**
 * Simulated funding's pace (engine/own-steps.ts `fundingPace`, a hash of the listing), 0 for a whole loan: worked out
 * once when the row gets its place (the amount never changes), not at each visit (a hash and two column reads each).
 */
export const PACE = 4;
/**
 * The first hour after SETTLED at which simulated funding completes a lot (Infinity for a whole loan): before it,
 * and before the next verification firing, settling the listing has nothing to write. Never after PENDING_AT.
 */
export const LOT_AT = 5;
/**
 * The hour the listing's own steps make it Pending, worked out when it was queued (Infinity: none before its next
 * visit): settling past it makes it Pending then (engine/settle.ts), and the timeline queues it at its origination.
 */
export const PENDING_AT = 6;
/** Per chance process i (engine/chance-processes.ts, three): the next hour it fires, at f[x + HOURS + i], and where its stream stood then, at u32[2x + STATES + i]. */
export const HOURS = 7;
export const STATES = 20;
/** Bytes: the processes that fire at the hour it was taken out at; 1 for a whole loan (never changes once listed: the hot loop reads no column for it). */
export const FIRED = 92;
export const WHOLE = 93;

/** Rows queued at one hour: `rows[0..size)`, with room kept for the hours to come. */
export interface RowBucket {
  rows: Int32Array;
  size: number;
}

/** The market's timeline of one world (engine/timeline.ts): when each live listing and loan next can change. */
export interface Timeline {
  /** The last hour whose tick has begun: changes made now are due at the next hour at the earliest. */
  hour: number;
  /** The hour through which every listing's own steps were last applied (engine/settle.ts): when it is `hour`, the columns are up to date. */
  settled: number;
  /** Settling a slice at a time between requests (engine/settle.ts `settleSome`): the hour that pass settles to, and its next row. */
  settling: number;
  settleNext: number;
  /** The live listings' streams and queue places, by row. */
  listings: ListingEvents;
  /** How many listings are live; every row below `firstLive` is not. */
  liveCount: number;
  firstLive: number;
  /**
   * Listings queued at hour h, in `ring[h % RING]` (RING: engine/timeline.ts) for the next RING hours and in `later`
   * beyond (copies whose AT moved are stale). A bucket keeps its room when its hour is taken out (emptied, not freed:
   * regrown every hour, the buckets were a fifth of what a 1M move allocated), so an hour's tick makes no arrays and no Map
   * entries.
   */
  ring: RowBucket[];
  later: Map<number, number[]>;
  /** The rows the current hour's tick took out, in `due[0..)` (reused; grown as needed). */
  due: Int32Array;
  /** Hour → loans with something due at it. */
  loansAt: Map<number, Loan[]>;
  /** Hour → loans nobody we model holds, queued at their next departure from their schedule (engine/servicing.ts `lazyLoanHour`): their months on schedule are paid before the visit. */
  lazyLoansAt: Map<number, Loan[]>;
  /**
   * Loans made by the ticks that nobody we model holds, not yet searched for their next departure (engine/loan-queue.ts):
   * from `unsearchedFrom` on, in the order of their first due dates, each searched by the tick of that due date's hour at the latest.
   */
  unsearched: Loan[];
  unsearchedFrom: number;
  /** How many of `world.listings` have been looked at; listings are only ever appended. */
  listingsSeen: number;
  /** The next loan number to look at; loans are numbered in the order they are made. */
  loansSeen: number;
  /** What the last tick's read-ahead added up (engine/timeline.ts `readAhead`): kept so that its reads are not compiled away. */
  readAheadSum: number;
}
