/** What the user can do about an order the marketplace rejected, by its ORD code. */

/** What the user can do about an order rejection. */
export function rejectionHint(code: string | undefined): string | undefined {
  switch (code) {
    case 'ORD0021':
      return 'insufficient funds: check `mkt account` and lower the amounts or the number of bids';
    case 'ORD0005':
      return 'amounts must be at least 25.00 with at most 2 decimals';
    case 'ORD0003':
      return 'the listing does not exist; check the number with `mkt listings get`';
    case 'ORD0013':
    case 'ORD0019':
      return 'the listing no longer takes bids; search for active ones with `mkt listings search`';
    case 'ORD0015':
      return 'the amount is above the whole listing amount';
    case 'ORD0030':
      return 'a listing may appear only once in an order';
    case 'ORD0012':
    case 'ORD0036':
      return 'your account may not bid on this kind of listing (whole-loan vs fractional)';
    case 'ORD0040':
    case 'ORD0022':
      return 'your state or financial suitability does not allow this investment';
    // No code, or one without advice of ours: the marketplace's message stands alone.
    case undefined:
    default:
      return undefined;
  }
}
