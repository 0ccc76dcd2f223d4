/**
 * The bid rules both halves apply, defined once: what a bid amount looks like, the minimum bid, and
 * the 10% cap on partial-funding listings under a day old. The mock enforces them; the bids-file
 * check and `order submit --dry-run` predict them, to the cent.
 */
/** Minimum bid amount in dollars. */
export const MIN_BID = 25;

/** A bid amount as text: digits with at most 2 decimals (signs, exponents and separators are not amounts). */
const AMOUNT_TEXT = /^\d+(\.\d{1,2})?$/;

/** True when `text` is an amount with at most 2 decimals. */
export const isAmountText = (text: string): boolean => AMOUNT_TEXT.test(text);

/** A listing is young for this long after its listing_creation_date. */
export const YOUNG_LISTING_MS = 86_400_000;
/** The share of a young partial-funding listing one bid may take. */
export const YOUNG_PARTIAL_SHARE = 0.1;

/** Rounds to cents, as the marketplace does. */
export const toCents = (x: number): number => Math.round(x * 100) / 100;

/**
 * The most one bid may take of a listing at `now`: 10% of the listing amount, to the cent, while a
 * partial-funding listing is under a day old; null when the rule does not apply. A larger bid ends
 * LENDER_NOT_ELIGIBLE_TO_BID.
 */
export function youngPartialCap(
  listing: { listing_amount: number; partial_funding_indicator: boolean },
  createdAt: number,
  now: number,
): number | null {
  if (!listing.partial_funding_indicator || now - createdAt >= YOUNG_LISTING_MS) return null;
  return toCents(listing.listing_amount * YOUNG_PARTIAL_SHARE);
}
