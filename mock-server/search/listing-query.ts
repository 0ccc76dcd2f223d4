/**
 * The listings search engine: turns the query string of GET /listingsvc/v2/listings/, read by the
 * contract's reader (src/contract/listing-query.ts), into a search driven by the field catalogue, picks the pool (active or originated, invested or not),
 * sorts and pages. Every unknown parameter or bad value is a 400 naming it.
 *
 * `runListingQuery` answers from the listing indexes (listing-index.ts): bitsets narrow the
 * candidates, compiled predicates test only the fields that change, and a query's matches are kept
 * (keyed by the query and the world's version) so its later pages are slices. `scanListingQuery`
 * is the plain full scan it must always agree with (the property test compares them).
 */
import { LISTING_STATUS, PAGINATION } from '../../src/contract/enums.js';
import { readListingSearch, type ListingSearch, type RangeFilter, type SortClause } from '../../src/contract/listing-query.js';
import { asValidation, parsePage, sortBy } from './query-params.js';
import type { Listing } from '../world/world.js';

type Predicate = (l: Listing) => boolean;

/** A parsed search. */
export interface ListingQuery {
  /** The filters as read (the indexed search uses them; `predicates` is their full-scan form). */
  search: ListingSearch;
  /** The query without its page: matches of equal keys are equal in the same world. */
  key: string;
  predicates: Predicate[];
  biddable: boolean;
  invested: boolean | null;
  wholeLoan: boolean;
  excludeCoBorrower: boolean;
  bureaus: { bureau1: boolean; bureau2: boolean };
  sort: SortClause[];
  offset: number;
  limit: number;
  /** True when the pool is originated listings the caller invested in: loan fields are shown. */
  showLoanFields: boolean;
}

/** Parses the query string of a listings search (the contract's reader); `zone` reads date bounds. Throws ApiError (400). */
export function parseListingQuery(params: URLSearchParams, zone: string | undefined): ListingQuery {
  const s = asValidation(() => readListingSearch(params, zone));
  const predicates: Predicate[] = [
    ...s.booleans.map(
      ({ field, value }): Predicate =>
        (l) =>
          fieldOf(l, field) === value,
    ),
    ...s.multivalues.map(({ field, type, values }) => multivaluePredicate(field, type, values)),
    ...s.ranges.map(rangePredicate),
  ];
  const page = parsePage(params, PAGINATION.listings);
  const biddable = s.biddable ?? true;
  const key = JSON.stringify([
    s.booleans,
    s.multivalues,
    s.ranges,
    s.biddable,
    s.invested,
    s.wholeLoan,
    s.excludeCoBorrower,
    s.byNumber,
    s.sort,
  ]);
  return {
    search: s,
    key,
    predicates,
    biddable,
    // biddable=false alone means originated listings the caller invested in, unless numbers are named.
    invested: !biddable && s.invested === null && !s.byNumber ? true : s.invested,
    wholeLoan: s.wholeLoan ?? false,
    excludeCoBorrower: s.excludeCoBorrower ?? false,
    bureaus: s.bureaus,
    sort: s.sort,
    offset: page.offset,
    limit: page.limit,
    showLoanFields: !biddable && s.invested !== false,
  };
}

/** A listing's value of a catalogue field, by name (the catalogue drives which names are asked for). */
function fieldOf(l: Listing, name: string): unknown {
  return Reflect.get(l, name);
}

function rangePredicate({ field, bureau, min, max }: RangeFilter): Predicate {
  const get = bureau ? (l: Listing) => l.bureau2[field] : (l: Listing) => fieldOf(l, field);
  return (l) => {
    const v = get(l);
    if (typeof v !== 'number') return false;
    return (min === undefined || v >= min) && (max === undefined || v <= max);
  };
}

function multivaluePredicate(name: string, type: string, parts: string[]): Predicate {
  const set = new Set<unknown>(type === 'integer' ? parts.map(Number) : parts);
  return (l) => set.has(fieldOf(l, name));
}

/** The page of matches and the total count, in the query's order, by scanning every listing (the reference the indexed search must equal). */
export function scanListingQuery(
  all: readonly Listing[],
  q: ListingQuery,
  participation: ReadonlyMap<number, number>,
): { page: Listing[]; total: number } {
  const typeId = q.wholeLoan ? 2 : 1;
  const pool: Predicate = q.biddable ? (l) => l.listing_status === LISTING_STATUS.ACTIVE : (l) => l.loan_number !== null;
  const preds = q.predicates;
  const matches = (l: Listing): boolean => {
    if (!pool(l) || l.investment_typeid !== typeId) return false;
    if (q.excludeCoBorrower && l.co_borrower_application) return false;
    if (q.invested !== null && participation.has(l.listing_number) !== q.invested) return false;
    for (const p of preds) if (!p(l)) return false;
    return true;
  };
  if (q.sort.length > 0) {
    const hits = all.filter(matches);
    sortBy(hits, q.sort, (l, f) => (f === 'amount_participation' ? (participation.get(l.listing_number) ?? 0) : fieldOf(l, f)));
    return { page: hits.slice(q.offset, q.offset + q.limit), total: hits.length };
  }
  const page: Listing[] = [];
  let total = 0;
  const end = q.offset + q.limit;
  for (const l of all) {
    if (!matches(l)) continue;
    if (total >= q.offset && total < end) page.push(l);
    total++;
  }
  return { page, total };
}
