/**
 * The offers endpoint's business rules, where the spec leaves them open. One place, so the README,
 * the validator, the pricing and the tests all read the same numbers:
 *
 * - loan amount 2000.00-35000.00 (spec); no currency symbols or commas; at most 2 decimals.
 * - loan_purpose_id: the listing categories 1-21 of DESIGN.md (src/contract/enums.ts).
 * - self_reported_credit_score: codes 1-6 below; optional (spec), but present-and-empty is 121.
 * - minimum age 18 on the mock clock's UTC date; dates of birth MM/dd/yyyy or MM-dd-yyyy, year >= 1900.
 * - states not served: IA and WV (MKTPL-1007); state limits below the 35000 cap: MA 25000,
 *   NM 20000, OH 30000 on the requested amount (MKTPL-1008).
 * - annual income at most 5,000,000 (MKTPL-1012-293).
 * - terms 24, 36, 48 and 60 months, each offered only when its payment is at most 35% of gross
 *   monthly income (none left: MKTPL-1009; so is credit score code 6).
 * - client_reference_id: a string of at most 255 characters, else 400 VAL0001 (a partner's
 *   integration bug, not applicant data, so it is not an MKTPL-1012 assertion).
 */
import { LISTING_CATEGORIES } from '../../src/contract/enums.js';

/** Smallest loan amount a partner may request (spec "Limits"). */
export const LOAN_AMOUNT_MIN = 2000;
/** Largest loan amount a partner may request (spec "Limits"). */
export const LOAN_AMOUNT_MAX = 35000;

/** Accepted loan_purpose_id values: the listing categories of DESIGN.md. */
export const LOAN_PURPOSE_IDS: ReadonlySet<number> = new Set(Object.keys(LISTING_CATEGORIES).map(Number));

/** A self-reported credit score code: its band and the base rate and fee it is priced at (null: no offers). */
export interface CreditBand {
  label: string;
  /** Base annual rate for a 36-month loan, or null when the band gets no offers (MKTPL-1009). */
  baseRate: number | null;
  /** Origination fee as a fraction of loan_amount. */
  feeRate: number;
}

/** Accepted self_reported_credit_score codes. */
export const CREDIT_SCORES: Readonly<Record<number, CreditBand>> = {
  1: { label: 'Excellent (760-850)', baseRate: 0.0699, feeRate: 0.0241 },
  2: { label: 'Very good (720-759)', baseRate: 0.0949, feeRate: 0.035 },
  3: { label: 'Good (680-719)', baseRate: 0.1249, feeRate: 0.045 },
  4: { label: 'Fair (640-679)', baseRate: 0.1649, feeRate: 0.05 },
  5: { label: 'Poor (600-639)', baseRate: 0.2149, feeRate: 0.05 },
  6: { label: 'Very poor (300-599)', baseRate: null, feeRate: 0.05 },
};

/** The band an applicant who left out self_reported_credit_score is priced at. */
export const DEFAULT_CREDIT_SCORE = 4;

/** Accepted employment_status_id values (spec): 3 Self-employed, 5 Not employed, 6 Other, 7 Employed. */
export const EMPLOYMENT_STATUS_IDS: ReadonlySet<number> = new Set([3, 5, 6, 7]);

/** Youngest age (whole years) that can be offered a loan. */
export const MINIMUM_AGE = 18;

/** Largest annual_income accepted. */
export const ANNUAL_INCOME_MAX = 5_000_000;

/** States where the service is not offered (MKTPL-1007). */
export const STATES_NOT_SERVED: ReadonlySet<string> = new Set(['IA', 'WV']);

/** States whose limit on the requested amount is below the general 35000 (MKTPL-1008). */
export const STATE_AMOUNT_LIMITS: Readonly<Record<string, number>> = { MA: 25_000, NM: 20_000, OH: 30_000 };

/** Longest client_reference_id (spec "Limits"). */
export { CLIENT_REFERENCE_MAX } from '../../src/contract/enums.js';

/** Terms offered, in months. */
export const OFFER_TERMS = [24, 36, 48, 60] as const;

/** An offer is made only when its monthly payment is at most this share of gross monthly income. */
export const MAX_PAYMENT_TO_INCOME = 0.35;
