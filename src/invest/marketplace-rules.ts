/**
 * Everything `src/invest` borrows from the rest of the project, imported in this one place so a
 * move elsewhere (issue 11 is moving the marketplace rules into src/contract) is a one-file change.
 */
import { buildSearchQuery } from '../commands/listings-actions.js';
import { suggest } from '../commands/options.js';
import { MIN_BID, youngPartialCap } from '../contract/bid-rules.js';
import { PLATFORM_RATINGS, RATING_ALIASES, type PlatformRating } from '../contract/enums.js';
import { QueryError, readListingSearch } from '../contract/listing-query.js';
import { UsageError } from '../errors.js';

export { MIN_BID, PLATFORM_RATINGS, RATING_ALIASES, suggest, youngPartialCap, type PlatformRating };
export { checkBoolean, filterParamNames, resolveFilterParam } from '../contract/listing-filters.js';
export { parseApiDateTime } from '../contract/dates.js';

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

/** Checks a sort_by value exactly as `mkt listings search --sort-by` does. Returns the problem, or null. */
export function checkSortBy(text: string): string | null {
  try {
    buildSearchQuery({ sortBy: text }, undefined);
    return null;
  } catch (err) {
    // The hint carries the suggestion for a mistyped field.
    if (err instanceof UsageError) return `${err.message.replace(/^--sort-by: /, '')}${err.hint ? `; ${err.hint}` : ''}`;
    throw err;
  }
}
