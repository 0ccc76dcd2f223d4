/**
 * A world's listings kept by column (row-table.ts): the fields set on a few of them later, and the market's fields, the
 * only ones a listing the market adds during a clock move is made with (its description is written when first read).
 */
import type { Listing } from './records.js';
import { emptyRowTable, reserveRows, tableRow, type RowTable } from './row-table.js';

/**
 * Fields the mock sets on a few listings after making them (seed extras, the engine's origination
 * time): columns of their own holding only the rows that have them, so setting one never gives a row
 * object a property of its own (rows of several shapes made the engine's walk over listings slow).
 */
const LATER_FIELDS: readonly (keyof Listing)[] = ['mockRole', 'authorizedUsers', 'investmentTypeUnset', 'originateAt'];

/**
 * The fields the market reads and writes while a listing is live (its amounts, status, dates, what
 * origination copies into the loan), and those set later. A listing the market adds during a clock move
 * gets only these when it arrives (`describedLaterRow`); its other fields, the borrower's description, are
 * written the first time anything reads or writes one of them, or between requests after the move.
 */
const MARKET_FIELDS: readonly (keyof Listing)[] = [
  'listing_number',
  'listing_status',
  'listing_status_reason',
  'listing_amount',
  'amount_funded',
  'amount_remaining',
  'percent_funded',
  'partial_funding_indicator',
  'investment_typeid',
  'investment_type_description',
  'listing_term',
  'borrower_rate',
  'platform_rating',
  'verification_stage',
  'listing_creation_date',
  'listing_start_date',
  'listing_end_date',
  'last_updated_date',
  'loan_number',
  'loan_origination_date',
  'borrowerUserId',
  ...LATER_FIELDS,
];

/** A world's listings by column: the world holds its own (`world.listingTable`), made with it. */
export type ListingTable = RowTable;

/** An empty table, for a new world (its origination times in a typed column: the market sets one on most listings it funds). */
export function emptyListingTable(): ListingTable {
  return emptyRowTable(LATER_FIELDS, MARKET_FIELDS, ['originateAt']);
}

/** Makes room for `rows` listings in all (reserveRows). */
export function reserveListingRows(t: ListingTable, rows: number): void {
  reserveRows(t, rows);
}

/** `listing` as a row of table `t`: the object to keep in the world instead of the plain one. */
export function listingRow(t: ListingTable, listing: Listing): Listing {
  return tableRow(t, listing);
}
