/**
 * The one reader of a listings search's parameters, shared by both halves: the mock answers its
 * problems with a 400 naming the parameter, the CLI with exit 2 naming the flag, before anything is
 * sent. Pagination is read by each half (the API clamps a large limit; the CLI has its own flags).
 */
import { checkBoolean, checkMultivalue, checkRangeBound, resolveFilterParam } from './listing-filters.js';
import { LISTING_FIELD_BY_NAME, SORTABLE_FIELDS, type FieldType } from './listing-fields.js';

/** A parameter that cannot be read: `param` names it, `problem` says what is wrong. */
export class QueryError extends Error {
  constructor(
    readonly param: string,
    readonly problem: string,
  ) {
    super(`${param}: ${problem}`);
    this.name = 'QueryError';
  }
}

/** One sort clause. */
export interface SortClause {
  field: string;
  desc: boolean;
}

/** An inclusive range on a listing field or a bureau2 element (by short name). */
export interface RangeFilter {
  field: string;
  bureau: boolean;
  min?: number;
  max?: number;
}

/** A listings search as its parameters describe it. */
export interface ListingSearch {
  booleans: { field: string; value: boolean }[];
  multivalues: { field: string; type: FieldType; values: string[] }[];
  ranges: RangeFilter[];
  biddable: boolean | null;
  invested: boolean | null;
  wholeLoan: boolean | null;
  excludeCoBorrower: boolean | null;
  bureaus: { bureau1: boolean; bureau2: boolean };
  sort: SortClause[];
  /** True when listing numbers are named (then biddable=false alone does not mean "invested"). */
  byNumber: boolean;
}

/** Parameters that are not field filters. */
const CONTROL_PARAMS: ReadonlySet<string> = new Set([
  'offset',
  'limit',
  'include_credit_bureau_values',
  'biddable',
  'invested',
  'sort_by',
  'whole_loan',
  'exclude_co_borrower_application',
]);

/** Reads a boolean parameter case-insensitively; null when absent. */
export function readBool(params: URLSearchParams, name: string): boolean | null {
  const v = params.get(name);
  if (v === null) return null;
  const problem = checkBoolean(v);
  if (problem) throw new QueryError(name, problem);
  return v.trim().toLowerCase() === 'true';
}

/**
 * Reads sort clauses ("field" or "field asc|desc", joined by commas). A field outside `allowed` or a
 * direction other than asc/desc is a QueryError naming `param`.
 */
export function readSortClauses(text: string | null, allowed: ReadonlySet<string>, param = 'sort_by'): SortClause[] {
  if (text === null || text.trim() === '') return [];
  return text.split(',').map((clause) => {
    const [field, dir, ...rest] = clause.trim().split(/\s+/);
    if (!field || !allowed.has(field)) throw new QueryError(param, `unknown field '${field ?? ''}'`);
    if (rest.length > 0 || (dir !== undefined && !/^(asc|desc)$/i.test(dir))) {
      throw new QueryError(param, `direction must be asc or desc, got '${clause.trim()}'`);
    }
    return { field, desc: dir !== undefined && dir.toLowerCase() === 'desc' };
  });
}

/** Reads the search parameters (pagination aside); `zone` reads date bounds. Throws QueryError. */
export function readListingSearch(params: URLSearchParams, zone: string | undefined): ListingSearch {
  const booleans: ListingSearch['booleans'] = [];
  const multivalues: ListingSearch['multivalues'] = [];
  const ranges = new Map<string, RangeFilter>();
  for (const key of new Set(params.keys())) {
    if (CONTROL_PARAMS.has(key)) continue;
    const value = params.getAll(key).join(',');
    const p = resolveFilterParam(key);
    if (!p) {
      const field = LISTING_FIELD_BY_NAME.get(key);
      if (field?.filter === 'range') throw new QueryError(key, `is a range filter: use ${key}_min and/or ${key}_max`);
      if (field) throw new QueryError(key, 'cannot be filtered (see the field catalogue for filterable fields)');
      throw new QueryError(key, 'unknown parameter');
    }
    if (p.kind === 'boolean') {
      const problem = checkBoolean(value);
      if (problem) throw new QueryError(key, problem);
      booleans.push({ field: key, value: value.trim().toLowerCase() === 'true' });
    } else if (p.kind === 'multivalue') {
      const values = checkMultivalue(p.field, p.type, value);
      if (typeof values === 'string') throw new QueryError(key, values);
      multivalues.push({ field: p.field, type: p.type, values });
    } else {
      const n = checkRangeBound(p, value, zone);
      if (typeof n === 'string') throw new QueryError(key, n);
      const r = ranges.get(p.field) ?? { field: p.field, bureau: p.bureau };
      r[p.kind] = n;
      ranges.set(p.field, r);
    }
  }
  for (const r of ranges.values()) {
    if (r.min !== undefined && r.max !== undefined && r.min > r.max)
      throw new QueryError(`${r.field}_min`, `is greater than ${r.field}_max`);
  }
  return {
    booleans,
    multivalues,
    ranges: [...ranges.values()],
    biddable: readBool(params, 'biddable'),
    invested: readBool(params, 'invested'),
    bureaus: readBureaus(params.get('include_credit_bureau_values')),
    wholeLoan: readBool(params, 'whole_loan'),
    excludeCoBorrower: readBool(params, 'exclude_co_borrower_application'),
    sort: readSortClauses(params.get('sort_by'), SORTABLE_FIELDS),
    byNumber: params.has('listing_number'),
  };
}

function readBureaus(text: string | null): { bureau1: boolean; bureau2: boolean } {
  const bureaus = { bureau1: false, bureau2: false };
  if (text === null) return bureaus;
  for (const b of text.split(',').map((s) => s.trim().toLowerCase())) {
    if (b !== 'bureau1' && b !== 'bureau2')
      throw new QueryError('include_credit_bureau_values', `must be bureau1, bureau2 or both, got '${b}'`);
    bureaus[b] = true;
  }
  return bureaus;
}
