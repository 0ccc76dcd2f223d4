/**
 * Everything `src/invest` borrows from the rest of the project, imported in this one place so a
 * move elsewhere (issue 11 is moving the marketplace rules into src/contract) is a one-file change.
 */
import { MIN_BID, youngPartialCap } from '../contract/bid-rules.js';
import { PLATFORM_RATINGS, RATING_ALIASES, type PlatformRating } from '../contract/enums.js';
import { SORTABLE_FIELDS } from '../contract/listing-fields.js';
import { QueryError, readListingSearch } from '../contract/listing-query.js';
import { sortFieldHint, suggest } from '../suggest.js';

export { MIN_BID, PLATFORM_RATINGS, RATING_ALIASES, suggest, youngPartialCap, type PlatformRating };
export { checkBoolean, filterParamNames, resolveFilterParam } from '../contract/listing-filters.js';
export { parseApiDateTime } from '../contract/dates.js';
export { whyNotBiddable } from '../orders/biddable.js';

/** Checks one filter value with the listings search's own reader (the mock's and the CLI's). Returns the problem, or null. */
export function checkFilterValue(name: string, text: string, zone: string | undefined): string | null {
  try {
    readListingSearch(new URLSearchParams([[name, text]]), zone);
    return null;
  } catch (err) {
    if (err instanceof QueryError) return err.problem;
    throw err;
  }
}

/** The minimum bid in cents. */
export const MIN_BID_CENTS = Math.round(MIN_BID * 100);

/**
 * Checks a sort_by value exactly as `mkt listings search --sort-by` does: the same reader, and the same hint
 * for a mistyped field (src/suggest.ts). Returns the problem, or null.
 */
export function checkSortBy(text: string): string | null {
  const problem = checkFilterValue('sort_by', text, undefined);
  if (problem === null) return null;
  const hint = sortFieldHint(problem, [...SORTABLE_FIELDS]);
  return `${problem}${hint ? `; ${hint}` : ''}`;
}
