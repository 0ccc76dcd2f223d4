/**
 * The listings search engine: turns the query string of GET /listingsvc/v2/listings/ into
 * predicates driven by the field catalogue, picks the pool (active or originated, invested or not),
 * sorts and pages. Every unknown parameter or bad value is a 400 naming it.
 */
import { BUREAU2_BY_SHORT } from '../src/contract/bureau.js';
import { parseFilterDate } from '../src/contract/dates.js';
import { FICO_BINS, LISTING_CATEGORIES, LISTING_STATUSES, LISTING_TERMS, PAGINATION, PLATFORM_RATINGS, US_STATES } from '../src/contract/enums.js';
import { LISTING_FIELD_BY_NAME, SORTABLE_FIELDS, type ListingField } from '../src/contract/listing-fields.js';
import { validationError } from './api-error.js';
import { parseBool, parsePage, parseSortBy, sortBy, type SortClause } from './query-params.js';
import { LISTING_STATUS } from '../src/contract/enums.js';
import type { Listing } from './store.js';

type Predicate = (l: Listing) => boolean;

/** Parameters that are not field filters. */
const CONTROL_PARAMS = new Set([
  'offset', 'limit', 'include_credit_bureau_values', 'biddable', 'invested', 'sort_by', 'whole_loan',
  'exclude_co_borrower_application',
]);

/** Closed value lists for multivalue filters: a value outside them is a 400, not an empty result. */
const ALLOWED_VALUES: Readonly<Record<string, ReadonlySet<string>>> = {
  fico_score: new Set(FICO_BINS),
  platform_rating: new Set(PLATFORM_RATINGS),
  borrower_state: new Set(US_STATES),
  listing_term: new Set(LISTING_TERMS.map(String)),
  income_range: new Set(['0', '1', '2', '3', '4', '5', '6', '7']),
  listing_category_id: new Set(Object.keys(LISTING_CATEGORIES)),
  listing_status: new Set(Object.keys(LISTING_STATUSES)),
};

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
  const ranges = new Map<string, { min?: number; max?: number; field: string }>();
  for (const key of new Set(params.keys())) {
    if (CONTROL_PARAMS.has(key)) continue;
    const values = params.getAll(key);
    const value = values.join(',');
    const field = LISTING_FIELD_BY_NAME.get(key);
    if (field && field.filter === 'boolean') {
      const b = parseBool(params, key)!;
      predicates.push((l) => fieldOf(l, key) === b);
      continue;
    }
    if (field && field.filter === 'multivalue') {
      predicates.push(multivaluePredicate(field, value));
      continue;
    }
    const m = /^(.+)_(min|max)$/.exec(key);
    if (m) {
      const [, base, bound] = m as unknown as [string, string, 'min' | 'max'];
      const rangeField = LISTING_FIELD_BY_NAME.get(base);
      const isBureau = BUREAU2_BY_SHORT.has(base);
      if ((rangeField && rangeField.filter === 'range') || isBureau) {
        const n = rangeBound(key, value, rangeField?.type ?? 'integer', zone, bound === 'max');
        const r = ranges.get(base) ?? { field: base };
        r[bound] = n;
        ranges.set(base, r);
        continue;
      }
    }
    if (field) throw validationError(key, `'${key}' cannot be filtered (see the field catalogue for filterable fields)`);
    throw validationError(key, 'unknown parameter');
  }
  for (const [base, r] of ranges) {
    if (r.min !== undefined && r.max !== undefined && r.min > r.max) {
      throw validationError(`${base}_min`, `is greater than ${base}_max`);
    }
    const get = BUREAU2_BY_SHORT.has(base) && !LISTING_FIELD_BY_NAME.has(base)
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

function multivaluePredicate(field: ListingField, value: string): Predicate {
  const parts = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (parts.length === 0) throw validationError(field.name, 'needs at least one value');
  const allowed = ALLOWED_VALUES[field.name];
  for (const p of parts) {
    if (field.type === 'integer' && !/^-?\d+$/.test(p)) throw validationError(field.name, `'${p}' is not a whole number`);
    if (allowed && !allowed.has(p)) throw validationError(field.name, `unknown value '${p}'; expected one of ${[...allowed].join(', ')}`);
  }
  const name = field.name;
  if (field.type === 'integer') {
    const set = new Set(parts.map(Number));
    return (l) => set.has(fieldOf(l, name) as number);
  }
  const set = new Set(parts);
  return (l) => set.has(fieldOf(l, name) as string);
}

function rangeBound(param: string, text: string, type: string, zone: string | undefined, isMax: boolean): number {
  if (type === 'datetime' || type === 'date') {
    const ms = parseFilterDate(text, zone, isMax);
    if (ms === null) throw validationError(param, `'${text}' is not a date (yyyy-MM-dd or yyyy-MM-dd HH:mm:ss)`);
    return ms;
  }
  const t = text.trim();
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(t)) throw validationError(param, `'${text}' is not a number`);
  return Number(t);
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
