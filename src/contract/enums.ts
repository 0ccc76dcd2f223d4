/** Enumerations the spec leaves open, fixed by DESIGN.md, and the ones the spec names. */

/** The ratings new listings get, best first. */
export const LISTING_RATINGS = ['AA', 'A', 'B', 'C', 'D', 'E', 'HR'] as const;
/**
 * Every platform rating, best first: the listing ratings and `N/A`, which old loans and notes rated before
 * the ratings carry (spelt so in both public clients' enumerations and in their real answers: grahamtt/prosper-api
 * ProsperRating, mtlynch/gofn-prosper parseRating; DESIGN.md).
 */
export const PLATFORM_RATINGS = [...LISTING_RATINGS, 'N/A'] as const;
export type PlatformRating = (typeof PLATFORM_RATINGS)[number];

/** The keys of the account's by-rating maps (`invested_notes`, `pending_bids`): the same ratings, the old one spelt `NA`, as the real account answer keys them. */
export const ACCOUNT_RATING_KEYS = [...LISTING_RATINGS, 'NA'] as const;
export type AccountRatingKey = (typeof ACCOUNT_RATING_KEYS)[number];

/** Other spellings of a rating that are read as it (a filter value, a `--rating`, a strategy key): `NA`, as the account's maps spell `N/A`. */
export const RATING_ALIASES: Readonly<Record<string, PlatformRating>> = { NA: 'N/A' };

/** The rating `text` names, in any case and by alias (`na` is `N/A`), or undefined when it names none. */
export function readRating(text: string): PlatformRating | undefined {
  const upper = text.trim().toUpperCase();
  return RATING_ALIASES[upper] ?? PLATFORM_RATINGS.find((r) => r === upper);
}

/** The key of the account's by-rating maps that `rating` is counted under (`N/A` under `NA`; anything unknown too). */
export function accountRatingKey(rating: string | undefined): AccountRatingKey {
  const r = rating === undefined ? undefined : readRating(rating);
  return r === undefined || r === 'N/A' ? 'NA' : r;
}

/** Listing terms in months. */
export const LISTING_TERMS = [24, 36, 48, 60] as const;

/** Binned FICO scores as filter values and responses carry them. */
export const FICO_BINS = [
  '<600',
  '600-619',
  '620-639',
  '640-659',
  '660-679',
  '680-699',
  '700-719',
  '720-739',
  '740-759',
  '760-779',
  '780-799',
  '800-819',
  '820-850',
] as const;

/** income_range code → description. */
export const INCOME_RANGES: Readonly<Record<number, string>> = {
  0: 'Not displayed',
  1: '$0',
  2: '$1-24,999',
  3: '$25,000-49,999',
  4: '$50,000-74,999',
  5: '$75,000-99,999',
  6: '$100,000+',
  7: 'Not employed',
};

/** listing_status code → listing_status_reason. */
export const LISTING_STATUSES: Readonly<Record<number, string>> = {
  2: 'Active',
  4: 'Withdrawn',
  5: 'Expired',
  6: 'Completed',
  7: 'Cancelled',
  8: 'Pending',
};
export const LISTING_STATUS = { ACTIVE: 2, WITHDRAWN: 4, EXPIRED: 5, COMPLETED: 6, CANCELLED: 7, PENDING: 8 } as const;

/** listing_category_id → name (and the borrower's listing_title). */
export const LISTING_CATEGORIES: Readonly<Record<number, string>> = {
  1: 'Debt consolidation',
  2: 'Home improvement',
  3: 'Business',
  4: 'Personal loan',
  5: 'Student use',
  6: 'Auto',
  7: 'Other',
  8: 'Baby & adoption',
  9: 'Boat',
  10: 'Cosmetic procedures',
  11: 'Engagement ring',
  12: 'Green loans',
  13: 'Household expenses',
  14: 'Large purchases',
  15: 'Medical/dental',
  16: 'Motorcycle',
  17: 'RV',
  18: 'Taxes',
  19: 'Vacation',
  20: 'Wedding',
  21: 'Special occasion',
};

/** investment_typeid → investment_type_description. */
export const INVESTMENT_TYPES: Readonly<Record<number, string>> = { 1: 'Fractional', 2: 'Whole' };

/** Employment status descriptions found on listings: the real marketplace's values, as its public clients enumerate them. */
export const EMPLOYMENT_STATUSES = ['Employed', 'Self-employed', 'Retired', 'Not employed', 'Other'] as const;

/** Two-letter state codes (50 states and DC). */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
] as const;

/** Order bid outcomes of the initial processing. */
export const BID_RESULTS = [
  'NONE',
  'BID_SUCCEEDED',
  'PARTIAL_BID_SUCCEEDED',
  'LISTING_NOT_BIDDABLE',
  'LENDER_NOT_ELIGIBLE_TO_BID',
  'INSUFFICIENT_FUNDS',
  'AMOUNT_BID_TOO_HIGH',
  'AMOUNT_BID_TOO_LOW',
  'BID_FAILED',
  'CANNOT_BID_ON_FRACTIONAL_LOANS',
  'CANNOT_BID_ON_OWN_LISTING',
  'SUITABILITY_REQUIREMENTS_NOT_MET',
  'INVESTMENT_ORDER_ALREADY_PROCESSED',
  'INTERNAL_ERROR',
] as const;
export type BidResult = (typeof BID_RESULTS)[number];

export const BID_STATUSES = ['PENDING', 'INVESTED', 'EXPIRED'] as const;
export type BidStatus = (typeof BID_STATUSES)[number];

export const ORDER_STATUSES = ['IN_PROGRESS', 'COMPLETED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** loan_status code → description. */
export const LOAN_STATUSES: Readonly<Record<number, string>> = {
  0: 'ORIGINATIONDELAYED',
  1: 'CURRENT',
  2: 'CHARGEOFF',
  3: 'DEFAULTED',
  4: 'COMPLETED',
  5: 'FINALPAYMENTINPROGRESS',
  6: 'CANCELLED',
};
export const LOAN_STATUS = {
  ORIGINATIONDELAYED: 0,
  CURRENT: 1,
  CHARGEOFF: 2,
  DEFAULTED: 3,
  COMPLETED: 4,
  FINALPAYMENTINPROGRESS: 5,
  CANCELLED: 6,
} as const;

/** loan_default_reason code → description (null: not in default). */
export const LOAN_DEFAULT_REASONS: Readonly<Record<number, string>> = {
  1: 'Delinquency',
  2: 'Bankruptcy',
  3: 'Deceased',
  4: 'Repurchased',
  5: 'PaidInFull',
  6: 'SettledInFull',
  7: 'Sold',
};

/** A note's `loan_settlement_status`: the real answer's `Unspecified`, and the mock's `Settled` for a loan settled in full. */
export const LOAN_SETTLEMENT_STATUSES = ['Unspecified', 'Settled'] as const;
/** A note's `loan_extension_status`: the real answer's `Unspecified` (the mock extends no loan). */
export const LOAN_EXTENSION_STATUSES = ['Unspecified'] as const;

/** Fields `sort_by` may name on GET /loans/ (the spec does not show them; these are the loan's scalar fields). */
export const LOAN_SORT_FIELDS: ReadonlySet<string> = new Set([
  'loan_number',
  'age_in_months',
  'amount_borrowed',
  'borrower_rate',
  'days_past_due',
  'collection_fees_paid',
  'interest_paid',
  'late_fees_paid',
  'loan_default_reason',
  'loan_status',
  'next_payment_due_date',
  'next_payment_due_amount',
  'origination_date',
  'principal_balance',
  'principal_paid',
  'platform_fees_paid',
  'platform_rating',
  'service_fees_paid',
  'term',
]);

/** Fields `sort_by` may name on GET /orders/{id}/listings (the spec does not show them; the order listing's fields). */
export const ORDER_LISTING_SORT_FIELDS: ReadonlySet<string> = new Set([
  'listing_title',
  'invested_amount',
  'listing_amount',
  'loan_term_months',
  'current_yield',
  'amount_funded',
  'platform_rating',
  'verification_stage',
  'percent_funded',
  'historical_return',
  'historical_return_10th_pctl',
  'historical_return_90th_pctl',
  'listing_duration',
  'listing_number',
  'status',
  'status_reason',
  'estimated_end_date',
  'listing_status',
  'start_date',
  'note_number',
  'listing_category_id',
  'listing_category_name',
]);

/** OAuth scopes a read/write grant yields. */
export const READ_WRITE_SCOPES = [
  'write_invest_order',
  'read_listing',
  'read_loan',
  'read_note',
  'read_platform_account',
  'write_user_profile',
] as const;
/** OAuth scopes a read-only grant yields. */
export const READ_ONLY_SCOPES = [
  'read_invest_order',
  'read_listing',
  'read_loan',
  'read_note',
  'read_platform_account',
  'read_user_profile',
] as const;

/** Longest identification.client_reference_id of an offers request (spec "Limits"). */
export const CLIENT_REFERENCE_MAX = 255;

/** Most bid requests in one order. */
export const MAX_BIDS_PER_ORDER = 100;

/** Pagination defaults and maxima per endpoint. */
export const PAGINATION = {
  listings: { default: 25, max: 500 },
  orders: { default: 25, max: 100 },
  orderListings: { default: 100, max: 100 },
  loans: { default: 25, max: 25 },
  notes: { default: 25, max: 25 },
  payments: { default: 25, max: 100 },
} as const;

/** Access tokens last this many seconds; refresh tokens 10 hours. */
export const ACCESS_TOKEN_SECONDS = 3599;
export const REFRESH_TOKEN_SECONDS = 10 * 3600;

/** A payment's transaction code, as the real payments answer and the public Python client's enumeration carry them. */
export const PAYMENT_TRANSACTION_CODES = [
  'ACH',
  'BD',
  'CAP',
  'DSP',
  'NSF',
  'BDF',
  'ACHF',
  'CAPF',
  'SEQR',
  'INTR',
  'CRINT',
  'CK',
  'CKF',
] as const;
/** A payment's status (the Python client's PaymentStatus). */
export const PAYMENT_STATUSES = ['Process', 'Success', 'Fail', 'Dispute'] as const;
/** What a payment row moves (the Python client's PaymentCashflowType). */
export const PAYMENT_CASHFLOW_TYPES = ['Payment', 'Adjustment', 'Chargeback', 'DebtSale', 'Other'] as const;
