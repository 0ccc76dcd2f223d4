/**
 * The fields a caller chooses for a listing it adds (POST /__mock/listings, added-listing.ts), read and
 * checked one by one against the contract: each must be a field of the listing answer (the catalogue,
 * src/contract/listing-fields.ts) that a caller may give, of its type, inside the closed list or bounds
 * the contract's schema gives it (src/contract/listing-schema.ts; test/mock-listings-add.test.ts holds the
 * two to agreeing), dates as the API writes them. The checks here are per field; how the fields fit
 * together is added-listing.ts's. The schema itself is not loaded: the mock carries no schema library.
 */
import { BUREAU2_ELEMENTS } from '../../src/contract/bureau.js';
import { parseApiDateTime } from '../../src/contract/dates.js';
import {
  EMPLOYMENT_STATUSES,
  FICO_BINS,
  INCOME_RANGES,
  INVESTMENT_TYPES,
  LISTING_CATEGORIES,
  LISTING_RATINGS,
  LISTING_STATUSES,
  LISTING_TERMS,
  US_STATES,
} from '../../src/contract/enums.js';
import { LISTING_FIELDS, type FieldType } from '../../src/contract/listing-fields.js';
import { validationError } from '../kit/api-error.js';

/** The fields chosen, each checked, dates as epoch ms; the bureau2 values by short name. */
export interface ChosenFields {
  readonly fields: Readonly<Record<string, unknown>>;
  readonly bureau2: Readonly<Record<string, number>>;
  readonly creditReportDate?: number;
  /** The FICO bin the indexed bureau values were given with (it is the listing's). */
  readonly bureauFico?: string;
}

/** Fields of the answer the mock keeps itself: never chosen. */
const OWNED: Readonly<Record<string, string>> = {
  loan_number: 'is given by origination (listing_status 6 originates the listing now)',
  loan_origination_date: 'is given by origination (listing_status 6 originates the listing now)',
  last_updated_date: "is the mock's own (the time of the listing's last change)",
  amount_participation: "is each caller's own, from their bids",
  invested: "is each caller's own, from their bids",
  biddable: 'is worked out from listing_status',
  credit_bureau_values_bureau1: 'is drawn (bureau1 values come with listings created before 2017-03-31)',
  credit_bureau_values_bureau2: 'is the same values as credit_bureau_values_bureau2_indexed: give them there, by long name',
};

/** Money in dollars and cents, never below 0. */
const MONEY = new Set([
  'listing_amount',
  'amount_funded',
  'amount_remaining',
  'listing_monthly_payment',
  'stated_monthly_income',
  'estimated_monthly_housing_expense',
  'combined_stated_monthly_income',
  'max_prior_platform_loan',
  'min_prior_platform_loan',
  'prior_platform_loans_balance_outstanding',
  'prior_platform_loans_principal_borrowed',
  'prior_platform_loans_principal_outstanding',
]);
/** Shares of a whole, 0 to 1. */
const FRACTIONS = new Set(['percent_funded', 'funding_threshold']);
/** Rates the borrower pays or the investor earns: above 0 and below 1 (0.15 is 15%). */
const RATES = new Set(['borrower_rate', 'borrower_apr', 'lender_yield']);
/** Fields the answer may leave out (the record holds null): null chooses "none". */
const NULLABLE = new Set([
  'borrower_listing_description',
  'occupation',
  'combined_dti_wplatform_loan',
  'combined_stated_monthly_income',
  'max_prior_platform_loan',
  'min_prior_platform_loan',
  'whole_loan_start_date',
  'whole_loan_end_date',
]);
const keys = (table: Readonly<Record<number, string>>): number[] => Object.keys(table).map(Number);
/** Closed lists of values (the schema's enums; the ratings without N/A, which only loans rated before the ratings carry). */
const ONE_OF: Readonly<Record<string, readonly (string | number)[]>> = {
  listing_status: keys(LISTING_STATUSES),
  listing_status_reason: Object.values(LISTING_STATUSES),
  listing_term: LISTING_TERMS,
  platform_rating: LISTING_RATINGS,
  fico_score: FICO_BINS,
  listing_category_id: keys(LISTING_CATEGORIES),
  borrower_state: US_STATES,
  employment_status_description: EMPLOYMENT_STATUSES,
  income_range: keys(INCOME_RANGES),
  income_range_description: Object.values(INCOME_RANGES),
  investment_typeid: keys(INVESTMENT_TYPES),
  investment_type_description: Object.values(INVESTMENT_TYPES),
  lender_indicator: [0, 1],
};
/** Whole numbers with bounds of their own (any other is a count, 0 or more). */
const INT_BOUNDS: Readonly<Record<string, readonly [number, number]>> = {
  listing_number: [1, 999_999_999],
  platform_score: [1, 11],
  verification_stage: [1, 3],
};
const MAX_COUNT = 1_000_000;
const MAX_MONEY = 1_000_000_000;
const MAX_TEXT = 1000;
/** Dates a listing may carry: from the marketplace's first years to the end of the century. */
const EARLIEST = Date.parse('2005-01-01T00:00:00Z');
const LATEST = Date.parse('2100-01-01T00:00:00Z');

const TYPES: ReadonlyMap<string, FieldType> = new Map(LISTING_FIELDS.map((f) => [f.name, f.type]));
const BUREAU_BY_LONG = new Map(BUREAU2_ELEMENTS.map((e) => [e.long, e]));

/** `v` as a message shows it. */
export const shown = (v: unknown): string => (typeof v === 'string' ? `'${v.slice(0, 80)}'` : (JSON.stringify(v) ?? String(v)));
const hasDecimals = (v: number, places: number): boolean => Number(v.toFixed(places)) === v;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** What is wrong with `v` as a number of kind `name`, or null. */
function numberProblem(name: string, v: unknown, type: FieldType): string | null {
  if (!isNumber(v)) return `must be a number, got ${shown(v)}`;
  const list = ONE_OF[name];
  if (list) return list.includes(v) ? null : `must be one of ${list.join(', ')}, got ${shown(v)}`;
  if (type === 'integer') {
    const [lo, hi] = INT_BOUNDS[name] ?? [0, MAX_COUNT];
    return Number.isInteger(v) && v >= lo && v <= hi ? null : `must be a whole number from ${lo} to ${hi}, got ${shown(v)}`;
  }
  if (MONEY.has(name)) {
    if (v < 0 || v > MAX_MONEY) return `must be an amount from 0 to ${MAX_MONEY}, got ${shown(v)}`;
    return hasDecimals(v, 2) ? null : `must be in whole cents (two decimals at most), got ${shown(v)}`;
  }
  if (FRACTIONS.has(name) && (v < 0 || v > 1)) return `must be a fraction from 0 to 1, got ${shown(v)}`;
  if (RATES.has(name) && (v <= 0 || v >= 1)) return `must be a rate above 0 and below 1 (0.15 is 15%), got ${shown(v)}`;
  if (Math.abs(v) > 100) return `must be from -100 to 100, got ${shown(v)}`;
  return hasDecimals(v, 4) ? null : `must have four decimals at most, got ${shown(v)}`;
}

/** `v` read as field `name` of its catalogue type (a date as epoch ms); throws a 400 naming the field and what is wrong. */
function readField(name: string, type: FieldType, v: unknown): unknown {
  if (v === null && NULLABLE.has(name)) return null;
  let problem: string | null = null;
  if (type === 'decimal' || type === 'integer') problem = numberProblem(name, v, type);
  else if (type === 'boolean') problem = typeof v === 'boolean' ? null : `must be true or false, got ${shown(v)}`;
  else if (type === 'string') {
    const list = ONE_OF[name];
    if (typeof v !== 'string') problem = `must be a string, got ${shown(v)}`;
    else if (list && !list.includes(v)) problem = `must be one of ${list.join(', ')}, got ${shown(v)}`;
    else if (v.length > MAX_TEXT) problem = `must be at most ${MAX_TEXT} characters`;
  } else if (type === 'datetime' || type === 'date') return readDate(name, v);
  if (problem) throw validationError(name, problem);
  return v;
}

/** A date as the API writes one (`2026-03-02 12:00:00 +0000`, or ISO 8601, or a day), as epoch ms. */
function readDate(name: string, v: unknown): number {
  const t = typeof v === 'string' ? parseApiDateTime(v) : null;
  if (t === null) throw validationError(name, `must be a date-time like 2026-03-02 12:00:00 +0000 (or ISO 8601), got ${shown(v)}`);
  if (t < EARLIEST || t >= LATEST) throw validationError(name, `must be from 2005 to 2099, got ${shown(v)}`);
  return t;
}

/** A name as a message shows it: as is when it is a plain word, else quoted (a space or a colon would blur where it ends). */
const named = (k: string): string => (/^\w+$/.test(k) ? k : JSON.stringify(k));
/** A key of an object field as a message shows it: `field.key`, or `field["odd key"]`. */
const keyOf = (field: string, k: string): string => (/^\w+$/.test(k) ? `${field}.${k}` : `${field}[${JSON.stringify(k)}]`);

/** The indexed bureau2 values given (by long name), checked each against its element's range or special value. */
function readBureau(v: unknown): Pick<ChosenFields, 'bureau2' | 'creditReportDate' | 'bureauFico'> {
  const field = 'credit_bureau_values_bureau2_indexed';
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw validationError(field, `must be an object, got ${shown(v)}`);
  const bureau2: Record<string, number> = {};
  let creditReportDate: number | undefined;
  let bureauFico: string | undefined;
  for (const [k, x] of Object.entries(v)) {
    const name = keyOf(field, k);
    if (k === 'credit_report_date') creditReportDate = readDate(name, x);
    else if (k === 'fico_score') bureauFico = readField('fico_score', 'string', x) as string;
    else {
      const e = BUREAU_BY_LONG.get(k);
      if (!e) throw validationError(name, 'is not an indexed bureau2 element (the long names of the spec, e.g. at01s_credit_lines)');
      const special = e.special?.value;
      const ok = isNumber(x) && Number.isInteger(x) && ((x >= e.min && x <= e.max) || x === special);
      if (!ok) {
        const also = special === undefined ? '' : ` or ${special} (${e.special!.meaning})`;
        throw validationError(name, `must be a whole number from ${e.min} to ${e.max}${also}, got ${shown(x)}`);
      }
      bureau2[e.short] = x;
    }
  }
  return { bureau2, creditReportDate, bureauFico };
}

/** The caller's fields, each checked on its own; throws a 400 VAL0001 naming the first field that is wrong and what is. */
export function readChosenFields(input: unknown): ChosenFields {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw validationError('body', 'must be a JSON object of listing fields');
  const fields: Record<string, unknown> = {};
  let bureau: ReturnType<typeof readBureau> = { bureau2: {} };
  for (const [name, v] of Object.entries(input)) {
    if (Object.hasOwn(OWNED, name)) throw validationError(name, `${OWNED[name]}; leave it out`);
    if (name === 'credit_bureau_values_bureau2_indexed') {
      bureau = readBureau(v);
      continue;
    }
    const type = TYPES.get(name);
    if (type === undefined)
      throw validationError(named(name), 'is not a field of a listing (GET /listings answers the fields a listing has)');
    fields[name] = readField(name, type, v);
  }
  return { fields, ...bureau };
}
