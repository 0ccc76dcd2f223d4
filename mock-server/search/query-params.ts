/** Query parameters shared by the list endpoints: pagination, sort clauses, booleans. */
import { QueryError, readSortClauses, type SortClause } from '../../src/contract/listing-query.js';
import { validationError } from '../kit/api-error.js';

export type { SortClause } from '../../src/contract/listing-query.js';

/** A page request. */
export interface Page {
  offset: number;
  limit: number;
}

const INT_RE = /^\d+$/;

/** Reads offset and limit: limit above the maximum is clamped; 0, negative or non-integer is a 400. */
export function parsePage(params: URLSearchParams, limits: { default: number; max: number }): Page {
  const offsetText = params.get('offset');
  const limitText = params.get('limit');
  let offset = 0;
  let limit = limits.default;
  if (offsetText !== null) {
    if (!INT_RE.test(offsetText.trim())) throw validationError('offset', `must be a whole number 0 or more, got '${offsetText}'`);
    offset = Number(offsetText);
  }
  if (limitText !== null) {
    if (!INT_RE.test(limitText.trim()) || Number(limitText) < 1) {
      throw validationError('limit', `must be a whole number from 1 to ${limits.max}, got '${limitText}'`);
    }
    limit = Math.min(Number(limitText), limits.max);
  }
  return { offset, limit };
}

/**
 * Reads `sort_by` with the contract's reader: clauses of "field" or "field asc|desc", joined by
 * commas. A field outside `allowed` or a direction other than asc/desc is a 400 naming it.
 */
export function parseSortBy(text: string | null, allowed: ReadonlySet<string>, fallback: SortClause[] = []): SortClause[] {
  const clauses = asValidation(() => readSortClauses(text, allowed));
  return clauses.length > 0 ? clauses : fallback;
}

/** Sorts `items` in place by the clauses, reading fields with `get`; nulls sort last. */
export function sortBy<T>(items: T[], clauses: SortClause[], get: (item: T, field: string) => unknown): T[] {
  if (clauses.length === 0) return items;
  return items.sort((a, b) => {
    for (const c of clauses) {
      const cmp = compareValues(get(a, c.field), get(b, c.field), c.desc);
      if (cmp !== 0) return cmp;
    }
    return 0;
  });
}

/** One clause's comparison of two values: 0 when equal, nulls last whatever the direction. */
function compareValues(x: unknown, y: unknown, desc: boolean): number {
  if (x === y) return 0;
  if (x === null || x === undefined) return 1;
  if (y === null || y === undefined) return -1;
  const cmp = x < y ? -1 : 1;
  return desc ? -cmp : cmp;
}

/**
 * `items` in the order `sortBy` gives, each clause's value read once per item with `value` (so a list
 * is ordered by its keys alone, and only the page asked for is viewed). A new array; `items` is kept.
 */
export function orderBy<T>(items: readonly T[], clauses: SortClause[], value: (item: T, field: string) => unknown): T[] {
  if (clauses.length === 0) return [...items];
  // The sort is stable, so items the clauses leave tied keep their order in `items`.
  const keys = clauses.map((c) => items.map((item) => value(item, c.field)));
  const order = items
    .map((_, i) => i)
    .sort((a, b) => {
      for (let k = 0; k < clauses.length; k++) {
        const cmp = compareValues(keys[k]![a], keys[k]![b], clauses[k]!.desc);
        if (cmp !== 0) return cmp;
      }
      return 0;
    });
  return order.map((i) => items[i]!);
}

/** Runs a contract reader, answering its QueryError with a 400 VAL0001 naming the parameter. */
export function asValidation<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof QueryError) throw validationError(err.param, err.problem);
    throw err;
  }
}
