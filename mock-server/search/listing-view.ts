/**
 * A listing as the API returns it: catalogue order, dates formatted in the request's zone, the
 * caller's participation, and fields present only where the spec says (co-borrower fields on
 * co-borrower listings, deprecated yields through 2018-08-08, loan fields for invested originated ones)
 * or where the listing has a value (no nulls: an absent occupation is left out). As the 2025–26 answers
 * (docs/fidelity.md): `listing_duration` and `loan_product_id` on every listing, no `channel_code` or
 * `listing_end_date` on a listing not yet originated, no occupation when the employment is Other, the
 * largest and smallest prior loan 0 without prior loans. A listing without an investment type (ORD0037)
 * shows no `investment_typeid`, as a null field is left out.
 */
import { BUREAU2_ELEMENTS } from '../../src/contract/bureau.js';
import { bureau2Block } from './bureau2-block.js';
import { formatDate, formatDateTime } from '../../src/contract/dates.js';
import { LISTING_STATUS } from '../../src/contract/enums.js';
import { DEPRECATED_YIELD_FIELDS, hasDeprecatedFields, LISTING_FIELDS } from '../../src/contract/listing-fields.js';
import type { Listing } from '../world/world.js';

/** What the caller asked for and who they are. */
export interface ViewOptions {
  zone: string | undefined;
  participation: ReadonlyMap<number, number>;
  bureaus: { bureau1: boolean; bureau2: boolean };
  showLoanFields: boolean;
}

const CO_BORROWER_FIELDS = new Set(['combined_dti_wplatform_loan', 'combined_stated_monthly_income']);
const DEPRECATED_FIELDS: ReadonlySet<string> = new Set(DEPRECATED_YIELD_FIELDS);
const LOAN_FIELDS = new Set(['loan_number', 'loan_origination_date']);
const COMPUTED = new Set([
  'amount_participation',
  'credit_bureau_values_bureau1',
  'credit_bureau_values_bureau2',
  'credit_bureau_values_bureau2_indexed',
  'listing_duration',
  'loan_product_id',
]);
/** Sent only once a listing has originated: no 2025–26 answer of a listing not yet originated carries them. */
const ORIGINATED_ONLY = new Set(['channel_code', 'listing_end_date']);
const PRIOR_LOAN_BOUNDS = new Set(['max_prior_platform_loan', 'min_prior_platform_loan']);
const DAY = 86_400_000;
/** The loan product of every listing in the 2025 answers (the only one seen). */
const LOAN_PRODUCT_ID = 1;

/** The API object for one listing. */
export function listingView(l: Listing, o: ViewOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const raw = l as unknown as Record<string, unknown>;
  const participation = o.participation.get(l.listing_number) ?? 0;
  for (const f of LISTING_FIELDS) {
    const name = f.name;
    if (COMPUTED.has(name)) {
      if (name === 'amount_participation') out[name] = participation;
      else if (name === 'credit_bureau_values_bureau2_indexed') out[name] = indexedBureau2(l, o.zone);
      else if (name === 'credit_bureau_values_bureau1' && o.bureaus.bureau1) out[name] = l.bureau1;
      else if (name === 'credit_bureau_values_bureau2' && o.bureaus.bureau2) out[name] = bureau2Block(l, o.zone);
      else if (name === 'listing_duration') out[name] = Math.round((l.listing_end_date - l.listing_start_date) / DAY);
      else if (name === 'loan_product_id') out[name] = LOAN_PRODUCT_ID;
      continue;
    }
    if (ORIGINATED_ONLY.has(name) && (l.loan_number ?? null) === null) continue;
    if (name === 'occupation' && l.employment_status_description === 'Other') continue;
    if (CO_BORROWER_FIELDS.has(name) && !l.co_borrower_application) continue;
    if (DEPRECATED_FIELDS.has(name) && !hasDeprecatedFields(l.listing_start_date)) continue;
    if (LOAN_FIELDS.has(name) && !o.showLoanFields) continue;
    // A listing whose investment type id is null (ORD0037) shows none: a client can leave it out before it sends.
    if (name === 'investment_typeid' && l.investmentTypeUnset) continue;
    // No prior loans: the largest and smallest prior loan are 0, as every 2025–26 answer sends them.
    const v = PRIOR_LOAN_BOUNDS.has(name) && l.prior_platform_loans === 0 ? (raw[name] ?? 0) : raw[name];
    // A value the listing does not have (no occupation given, never in the whole-loan pool) is
    // left out, as the real marketplace does and its clients expect, rather than sent as null.
    if (v === null || v === undefined) continue;
    if (f.type === 'datetime') out[name] = formatDateTime(v as number, o.zone);
    else if (f.type === 'date') out[name] = formatDate(v as number, o.zone);
    else out[name] = v;
  }
  out.invested = participation > 0;
  out.biddable = l.listing_status === LISTING_STATUS.ACTIVE;
  return out;
}

function indexedBureau2(l: Listing, zone: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {
    credit_report_date: formatDateTime(l.creditReportDate, zone),
    fico_score: l.fico_score,
  };
  // Read once: a listing kept by column (world/row-table.ts) builds its bureau values on each read.
  const bureau2 = l.bureau2;
  for (const e of BUREAU2_ELEMENTS) out[e.long] = bureau2[e.short] ?? 0;
  return out;
}
