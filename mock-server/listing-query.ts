/**
 * The listings search engine: turns the query string of GET /listingsvc/v2/listings/ into
 * predicates driven by the field catalogue, picks the pool (active or originated, invested or not),
 * sorts and pages. Every unknown parameter or bad value is a 400 naming it.
 */
import { LISTING_STATUS, PAGINATION } from '../src/contract/enums.js';
import { checkBoolean, checkMultivalue, checkRangeBound, resolveFilterParam } from '../src/contract/listing-filters.js';
import { LISTING_FIELD_BY_NAME, SORTABLE_FIELDS } from '../src/contract/listing-fields.js';
import { validationError } from './api-error.js';
import { parseBool, parsePage, parseSortBy, sortBy, type SortClause } from './query-params.js';
import type { Listing } from './store.js';

type Predicate = (l: Listing) => boolean;

/** Parameters that are not field filters. */
const CONTROL_PARAMS = new Set([
  'offset', 'limit', 'include_credit_bureau_values', 'biddable', 'invested', 'sort_by', 'whole_loan',
  'exclude_co_borrower_application',
]);

/** A parsed search. */
export interface ListingQuery {
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

/** Parses the query string of a listings search; `zone` reads date bounds. Throws ApiError (400). */
export function parseListingQuery(params: URLSearchParams, zone: string | undefined): ListingQuery {
  const predicates: Predicate[] = [];
  const ranges = new Map<string, { min?: number; max?: number; bureau: boolean }>();
  for (const key of new Set(params.keys())) {
    if (CONTROL_PARAMS.has(key)) continue;
    const value = params.getAll(key).join(',');
    const p = resolveFilterParam(key);
    if (!p) {
      const field = LISTING_FIELD_BY_NAME.get(key);
      if (field?.filter === 'range') throw validationError(key, `is a range filter: use ${key}_min and/or ${key}_max`);
      if (field) throw validationError(key, 'cannot be filtered (see the field catalogue for filterable fields)');
      throw validationError(key, 'unknown parameter');
    }
    if (p.kind === 'boolean') {
      const problem = checkBoolean(value);
      if (problem) throw validationError(key, problem);
      const b = value.trim().toLowerCase() === 'true';
      predicates.push((l) => fieldOf(l, key) === b);
    } else if (p.kind === 'multivalue') {
      const parts = checkMultivalue(p.field, p.type, value);
      if (typeof parts === 'string') throw validationError(key, parts);
      predicates.push(multivaluePredicate(p.field, p.type, parts));
    } else {
      const n = checkRangeBound(p.type, value, zone, p.kind === 'max');
      if (typeof n === 'string') throw validationError(key, n);
      const r = ranges.get(p.field) ?? { bureau: p.bureau };
      r[p.kind] = n;
      ranges.set(p.field, r);
    }
  }
  for (const [base, r] of ranges) {
    if (r.min !== undefined && r.max !== undefined && r.min > r.max) {
      throw validationError(`${base}_min`, `is greater than ${base}_max`);
    }
    const get = r.bureau
      ? (l: Listing) => l.bureau2[base]
      : (l: Listing) => fieldOf(l, base) as number | null;
    const { min, max } = r;
    predicates.push((l) => {
      const v = get(l);
      if (v === null || v === undefined) return false;
      return (min === undefined || v >= min) && (max === undefined || v <= max);
    });
  }

  const biddableParam = parseBool(params, 'biddable');
  const invested = parseBool(params, 'invested');
  const biddable = biddableParam ?? true;
  const byNumber = params.has('listing_number');
  const bureauText = params.get('include_credit_bureau_values');
  const bureaus = { bureau1: false, bureau2: false };
  if (bureauText !== null) {
    for (const b of bureauText.split(',').map((s) => s.trim().toLowerCase())) {
      if (b !== 'bureau1' && b !== 'bureau2') {
        throw validationError('include_credit_bureau_values', `must be bureau1, bureau2 or both, got '${b}'`);
      }
      bureaus[b] = true;
    }
  }
  const page = parsePage(params, PAGINATION.listings);
  return {
    predicates,
    biddable,
    // biddable=false alone means originated listings the caller invested in, unless numbers are named.
    invested: !biddable && invested === null && !byNumber ? true : invested,
    wholeLoan: parseBool(params, 'whole_loan') ?? false,
    excludeCoBorrower: parseBool(params, 'exclude_co_borrower_application') ?? false,
    bureaus,
    sort: parseSortBy(params.get('sort_by'), SORTABLE_FIELDS),
    offset: page.offset,
    limit: page.limit,
    showLoanFields: !biddable && invested !== false,
  };
}

function fieldOf(l: Listing, name: string): unknown {
  return (l as unknown as Record<string, unknown>)[name];
}

function multivaluePredicate(name: string, type: string, parts: string[]): Predicate {
  if (type === 'integer') {
    const set = new Set(parts.map(Number));
    return (l) => set.has(fieldOf(l, name) as number);
  }
  const set = new Set(parts);
  return (l) => set.has(fieldOf(l, name) as string);
}

/** The page of matches and the total count, in the query's order. */
export function runListingQuery(
  all: readonly Listing[],
  q: ListingQuery,
  participation: ReadonlyMap<number, number>,
): { page: Listing[]; total: number } {
  const typeId = q.wholeLoan ? 2 : 1;
  const pool: Predicate = q.biddable
    ? (l) => l.listing_status === LISTING_STATUS.ACTIVE
    : (l) => l.loan_number !== null;
  const preds = q.predicates;
  const matches = (l: Listing): boolean => {
    if (!pool(l) || l.investment_typeid !== typeId) return false;
    if (q.excludeCoBorrower && l.co_borrower_application) return false;
    if (q.invested !== null && (participation.has(l.listing_number) !== q.invested)) return false;
    for (const p of preds) if (!p(l)) return false;
    return true;
  };
  if (q.sort.length > 0) {
    const hits = all.filter(matches);
    sortBy(hits, q.sort, (l, f) => fieldOf(l, f));
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
