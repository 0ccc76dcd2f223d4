/**
 * The indexed listings search: the same answers as `scanListingQuery` (listing-query.ts), at a cost
 * that follows the answer rather than the world. Filters on fields that never change once a listing
 * exists are bitset ANDs (listing-index.ts); ranges are compiled predicates over the remaining
 * candidates; a query's matches are kept so the next pages of it (`--all`) are slices, not searches.
 */
import { LISTING_STATUS } from '../../src/contract/enums.js';
import { andInto, andNotInto, Bits, bitsFrom, copyWords, countBits, forEachBit, orInto } from '../kit/bitset.js';
import { fieldGetter as getter, listingIndex, positionOf, positionsWith } from './listing-index.js';
import type { ListingQuery } from './listing-query.js';
import { orderBy } from './query-params.js';
import { emptySortRoom, keyArrays, radixOrder } from '../kit/radix-order.js';
import { topOrder } from '../kit/top-order.js';
import { keepInRange, readKeys } from '../world/column-read.js';
import type { SortClause } from '../../src/contract/listing-query.js';
import type { ListingIndex, QueryCacheEntry } from '../world/derived.js';
import type { Listing, World } from '../world/world.js';

/** How many searches' matches are kept (a few clients paging at once). */
const CACHE_ENTRIES = 4;

/**
 * Clears from `cand` the candidates outside a range filter: by row from the field's column while the world's positions are
 * the table's rows (a tight loop over the column), else through each listing's object.
 */
function applyRange(
  world: World,
  inPlace: boolean,
  cand: Uint32Array,
  { field, bureau, min, max }: ListingQuery['search']['ranges'][number],
): void {
  const get = getter(field, bureau);
  const lo = min ?? -Infinity;
  const hi = max ?? Infinity;
  const all = world.listings;
  const slow = (row: object) => get(row as Listing);
  if (inPlace && keepInRange(world.listingTable, all, bureau ? 'bureau2' : field, bureau ? field : null, cand, lo, hi, slow)) return;
  // forEachBit reads each word before visiting its bits, so clearing the visited bit is safe.
  forEachBit(cand, (p) => {
    const v = get(all[p]!);
    if (!(typeof v === 'number' && v >= lo && v <= hi)) cand[p >>> 5]! &= ~(1 << (p & 31));
    return true;
  });
}

function union(bits: readonly (Bits | undefined)[], n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (const b of bits) if (b) orInto(out, b.words);
  return out;
}

/** The candidates as a word array: the pool ANDed with every filter the indexes can answer. */
function candidates(world: World, index: ListingIndex, q: ListingQuery, participation: ReadonlyMap<number, number>): Uint32Array {
  const n = (index.size + 31) >>> 5;
  const s = q.search;
  const pool = q.biddable ? index.byStatus.get(LISTING_STATUS.ACTIVE) : index.originated;
  const cand = pool ? copyWords(pool, n) : new Uint32Array(n);
  andInto(cand, union(positionsWith(world, 'investment_typeid', [q.wholeLoan ? 2 : 1]), n));
  if (q.excludeCoBorrower) andNotInto(cand, union(positionsWith(world, 'co_borrower_application', [true]), n));
  for (const { field, value } of s.booleans) andInto(cand, union(positionsWith(world, field, [value]), n));
  for (const { field, type, values } of s.multivalues) {
    const wanted = type === 'integer' ? values.map(Number) : values;
    if (field === 'listing_status')
      andInto(
        cand,
        union(
          wanted.map((v) => index.byStatus.get(v as number)),
          n,
        ),
      );
    else if (field === 'listing_number') andInto(cand, positionsOf(index, world.listings, wanted as number[], n));
    else andInto(cand, union(positionsWith(world, field, wanted), n));
  }
  if (q.invested !== null) {
    const mine = positionsOf(index, world.listings, [...participation.keys()], n);
    if (q.invested) andInto(cand, mine);
    else andNotInto(cand, mine);
  }
  return cand;
}

function positionsOf(index: ListingIndex, listings: readonly Listing[], numbers: readonly number[], n: number): Uint32Array {
  const b = new Bits(n * 32);
  for (const num of numbers) {
    const pos = positionOf(index, listings, num);
    if (pos !== undefined) b.set(pos);
  }
  return copyWords(b, n);
}

/**
 * One page of a kept search. A sorted one kept in part (its first matches in order: `search`) is put in order whole
 * when a page lies past that part: a later page of the same query (`--all`) asks for it.
 */
function pageOf(
  world: World,
  entry: QueryCacheEntry,
  q: ListingQuery,
  participation: ReadonlyMap<number, number>,
): { page: Listing[]; total: number } {
  const all = world.listings;
  if ('words' in entry) return { page: bitsFrom(entry.words, q.offset, q.limit).map((p) => all[p]!), total: entry.total };
  if ('matches' in entry) return { page: entry.matches.slice(q.offset, q.offset + q.limit), total: entry.matches.length };
  const end = Math.min(q.offset + q.limit, entry.positions.length);
  if (end > entry.order.length) entry.order = sortedPositions(world, entry.positions, q.sort, participation, Infinity)!;
  const page: Listing[] = [];
  for (let i = q.offset; i < end; i++) page.push(all[entry.order[i]!]!);
  return { page, total: entry.positions.length };
}

/**
 * The matches of a search not kept. Unsorted, they stay bits: the candidates failing a range test are
 * cleared, the count is a popcount and a page is read off the bits (a list of 77,000 matches at a
 * million listings was most of a search). Sorted, their positions are listed and the first up to the
 * page asked for put in order (all of them when that is a good part of them: a later page orders the rest).
 * Fields are read by row from the listing table's columns while the world's positions are its rows.
 */
function search(
  world: World,
  index: ListingIndex,
  q: ListingQuery,
  participation: ReadonlyMap<number, number>,
  key: string,
): QueryCacheEntry {
  const cand = candidates(world, index, q, participation);
  for (const r of q.search.ranges) applyRange(world, index.inPlace, cand, r);
  if (q.sort.length === 0) return { key, words: cand, total: countBits(cand) };
  // The matches' positions in bit order, lowest bit first (a call per match was a tenth of a sorted search).
  const positions = new Uint32Array(countBits(cand));
  let k = 0;
  for (let w = 0; w < cand.length; w++) {
    for (let bits = cand[w]!; bits !== 0; bits &= bits - 1) positions[k++] = (w << 5) + 31 - Math.clz32(bits & -bits);
  }
  const order = sortedPositions(world, positions, q.sort, participation, q.offset + q.limit);
  if (order) return { key, positions, order };
  const matches = Array.from(positions, (p) => world.listings[p]!);
  return { key, matches: orderBy(matches, q.sort, (l, f) => sortGetter(f, participation)(l)) };
}

/** The getter of a sort field: the caller's participation is no field of a listing, it is read from the caller's map (0 where none, as the row shows it). */
function sortGetter(field: string, participation: ReadonlyMap<number, number>): (l: Listing) => unknown {
  return field === 'amount_participation' ? (l: Listing) => participation.get(l.listing_number) ?? 0 : getter(field);
}

/**
 * The first `want` (or more) of `positions` in the order `sortBy` gives (stable: ties keep the world's order), each key
 * read once; null when a key is neither a number nor null (the caller orders by comparison then). Keys sit in typed
 * arrays: a radix sort orders them all (radix-order.ts; comparing through the field getters, a sort of 900,000 matches
 * took three seconds), or, when the page asked for is a small part of them, a heap picks the first (top-order.ts).
 */
function sortedPositions(
  world: World,
  positions: Uint32Array,
  clauses: SortClause[],
  participation: ReadonlyMap<number, number>,
  want: number,
): Uint32Array | null {
  const all = world.listings;
  const n = positions.length;
  const room = (world.index.sortRoom ??= emptySortRoom());
  const keys = keyArrays(room, clauses.length, n);
  const inPlace = listingIndex(world).inPlace;
  for (let c = 0; c < clauses.length; c++) {
    const field = clauses[c]!.field;
    const get = sortGetter(field, participation);
    const k = keys[c]!;
    const read =
      inPlace && field !== 'amount_participation'
        ? readKeys(world.listingTable, all, field, positions, k, (row) => get(row as Listing))
        : 'none';
    if (read === 'other') return null;
    if (read === 'ok') continue;
    for (let i = 0; i < n; i++) {
      const v = get(all[positions[i]!]!);
      if (typeof v === 'number' && v === v) k[i] = v;
      else if (v === null)
        k[i] = NaN; // nulls sort last, as in sortBy
      else return null;
    }
  }
  const desc = clauses.map((c) => c.desc);
  // The radix sort's answer is a buffer of the room: copied out with the positions it orders.
  const order = (want * 4 < n ? topOrder(keys, desc, n, want) : null) ?? radixOrder(keys, desc, n, room);
  const out = new Uint32Array(order.length);
  for (let i = 0; i < order.length; i++) out[i] = positions[order[i]!]!;
  return out;
}

/** The page of matches and the total count, in the query's order, from the indexes. */
export function runListingQuery(
  world: World,
  q: ListingQuery,
  participation: ReadonlyMap<number, number>,
): { page: Listing[]; total: number } {
  const index = listingIndex(world);
  // The caller's participation is part of the answer when the query filters or sorts by it.
  const byParticipation = q.sort.some((c) => c.field === 'amount_participation');
  const mine = q.invested === null && !byParticipation ? '' : [...participation].join(',');
  const key = `${q.key}|${world.index.listingsVersion}|${index.size}|${mine}`;
  const cache = world.index.queryCache;
  let entry = cache.find((e) => e.key === key);
  if (!entry) {
    entry = search(world, index, q, participation, key);
    cache.unshift(entry);
    cache.length = Math.min(cache.length, CACHE_ENTRIES);
  }
  return pageOf(world, entry, q, participation);
}
