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
import { keyArrays, radixOrder } from '../kit/radix-order.js';
import type { SortClause } from '../../src/contract/listing-query.js';
import type { ListingIndex, QueryCacheEntry } from '../world/derived.js';
import type { Listing, World } from '../world/world.js';

/** How many searches' matches are kept (a few clients paging at once). */
const CACHE_ENTRIES = 4;

function rangeTest({ field, bureau, min, max }: ListingQuery['search']['ranges'][number]): (l: Listing) => boolean {
  const get = getter(field, bureau);
  const lo = min ?? -Infinity;
  const hi = max ?? Infinity;
  return (l) => {
    const v = get(l);
    return typeof v === 'number' && v >= lo && v <= hi;
  };
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

/** One page of a kept search. */
function pageOf(entry: QueryCacheEntry, q: ListingQuery, all: readonly Listing[]): { page: Listing[]; total: number } {
  if ('words' in entry) return { page: bitsFrom(entry.words, q.offset, q.limit).map((p) => all[p]!), total: entry.total };
  return { page: entry.matches.slice(q.offset, q.offset + q.limit), total: entry.matches.length };
}

/**
 * The matches of a search not kept. Unsorted, they stay bits: the candidates failing a range test are
 * cleared, the count is a popcount and a page is read off the bits (a list of 77,000 matches at a
 * million listings was most of a search). Sorted, they are listed and put in order.
 */
function search(
  world: World,
  index: ListingIndex,
  q: ListingQuery,
  participation: ReadonlyMap<number, number>,
  key: string,
): QueryCacheEntry {
  const all = world.listings;
  const tests = q.search.ranges.map(rangeTest);
  const cand = candidates(world, index, q, participation);
  if (q.sort.length === 0) {
    if (tests.length > 0) {
      // forEachBit reads each word before visiting its bits, so clearing the visited bit is safe.
      forEachBit(cand, (p) => {
        const l = all[p]!;
        for (const t of tests) {
          if (!t(l)) {
            cand[p >>> 5]! &= ~(1 << (p & 31));
            break;
          }
        }
        return true;
      });
    }
    return { key, words: cand, total: countBits(cand) };
  }
  const matches: Listing[] = [];
  forEachBit(cand, (p) => {
    const l = all[p]!;
    for (const t of tests) if (!t(l)) return true;
    matches.push(l);
    return true;
  });
  return { key, matches: ordered(matches, q.sort, participation) };
}

/**
 * `matches` in the order `sortBy` gives (stable: ties keep the world's order), each key read once. When every
 * key is a number or null, keys sit in typed arrays and a radix sort orders the positions (radix-order.ts):
 * comparing through the field getters, a sort of 900,000 matches took three seconds.
 */
function ordered(matches: Listing[], clauses: SortClause[], participation: ReadonlyMap<number, number>): Listing[] {
  const keys = keyArrays(clauses.length, matches.length);
  // The caller's participation is no field of a listing: it is read from the caller's map (0 where none, as the row shows it).
  const sortGetter = (field: string) =>
    field === 'amount_participation' ? (l: Listing) => participation.get(l.listing_number) ?? 0 : getter(field);
  for (let c = 0; c < clauses.length; c++) {
    const get = sortGetter(clauses[c]!.field);
    const k = keys[c]!;
    for (let i = 0; i < matches.length; i++) {
      const v = get(matches[i]!);
      if (typeof v === 'number' && v === v) k[i] = v;
      else if (v === null)
        k[i] = NaN; // nulls sort last, as in sortBy
      else return orderBy(matches, clauses, (l, f) => sortGetter(f)(l));
    }
  }
  const order = radixOrder(
    keys,
    clauses.map((c) => c.desc),
    matches.length,
  );
  const out = new Array<Listing>(order.length);
  for (let i = 0; i < order.length; i++) out[i] = matches[order[i]!]!;
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
  return pageOf(entry, q, world.listings);
}
