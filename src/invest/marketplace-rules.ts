/**
 * Everything `src/invest` borrows from the rest of the project, imported in this one place so a
 * move elsewhere (issue 11 is moving the marketplace rules into src/contract) is a one-file change.
 */
import { buildSearchQuery } from '../commands/listings.js';
import { suggest } from '../commands/options.js';
import { PLATFORM_RATINGS, type PlatformRating } from '../contract/enums.js';
import { MIN_BID } from '../contract/enums.js';
import { UsageError } from '../errors.js';

export { MIN_BID, PLATFORM_RATINGS, suggest, type PlatformRating };
export { checkBoolean, checkFilterValue, filterParamNames, resolveFilterParam } from '../contract/listing-filters.js';
export { parseApiDateTime } from '../contract/dates.js';

/** The minimum bid in cents. */
export const MIN_BID_CENTS = Math.round(MIN_BID * 100);

/**
 * A partial-funding listing younger than this (from its listing_creation_date) takes bids of at
 * most a tenth of its amount (spec "Limits"; applied the same way in src/orders/dry-run.ts and
 * mock-server/engine/orders.ts, which compare `now - created < DAY`).
 */
export const YOUNG_LISTING_MS = 86_400_000;

/**
 * The most a bid may be on a young partial-funding listing, in cents: a tenth of the listing
 * amount rounded down, so it is never above what the marketplace's own rounding allows.
 */
export function tenPercentCapCents(listingAmountCents: number): number {
  return Math.floor(listingAmountCents / 10);
}

/** Checks a sort_by value exactly as `mkt listings search --sort-by` does. Returns the problem, or null. */
export function checkSortBy(text: string): string | null {
  try {
    buildSearchQuery({ sortBy: text }, undefined);
    return null;
  } catch (err) {
    if (err instanceof UsageError) return err.message.replace(/^--sort-by: /, '');
    throw err;
  }
}
