/**
 * The listing resource as a JSON Schema (TypeBox): the catalogue fields (listing-fields.ts) with dates
 * as a parameter, the bureau values, and the answer of the listings search; re-exported by resources.ts.
 */
import { Type, type Static, type TNull, type TOptional, type TSchema, type TUnion } from '@sinclair/typebox';
import { BUREAU2_ELEMENTS } from './bureau.js';
import { Bureau2BlockSchema } from './bureau2-block.js';
import {
  EMPLOYMENT_STATUSES,
  FICO_BINS,
  INCOME_RANGES,
  LISTING_CATEGORIES,
  LISTING_STATUSES,
  LISTING_TERMS,
  PLATFORM_RATINGS,
  US_STATES,
} from './enums.js';
import {
  nullable,
  stringIn,
  codeIn,
  strict,
  Money,
  Rate,
  Fraction,
  Int,
  Count,
  DateTimeText,
  WIRE_DATES,
  type Open,
  type DateSchemas,
  type DatesFor,
} from './schema-kit.js';

// ---------------------------------------------------------------------------------------------
// Listing

/** The catalogue fields of a listing under their API names (listing-fields.ts), dates as `dates` holds them. */
export const listingFieldsSchema = <DT extends TSchema, D extends TSchema>(dates: DateSchemas<DT, D>) =>
  Type.Object({
    listing_number: Int,
    listing_status: codeIn(LISTING_STATUSES),
    listing_status_reason: stringIn(Object.values(LISTING_STATUSES)),
    listing_amount: Money,
    amount_funded: Money,
    amount_remaining: Money,
    percent_funded: Fraction,
    funding_threshold: Fraction,
    partial_funding_indicator: Type.Boolean(),
    investment_typeid: Int,
    investment_type_description: Type.String(),
    investment_product_id: Int,
    listing_term: Type.Integer({ enum: [...LISTING_TERMS] }),
    listing_monthly_payment: Money,
    borrower_rate: Rate,
    borrower_apr: Rate,
    lender_yield: Rate,
    platform_rating: stringIn(PLATFORM_RATINGS),
    platform_score: Type.Integer({ minimum: 1, maximum: 11 }),
    fico_score: stringIn(FICO_BINS),
    listing_category_id: codeIn(LISTING_CATEGORIES),
    listing_title: Type.String(),
    listing_purpose: Type.String(),
    borrower_listing_description: nullable(Type.String()),
    channel_code: Type.String(),
    borrower_state: stringIn(US_STATES),
    employment_status_description: stringIn(EMPLOYMENT_STATUSES),
    occupation: nullable(Type.String()),
    months_employed: Count,
    income_range: codeIn(INCOME_RANGES),
    income_range_description: stringIn(Object.values(INCOME_RANGES)),
    income_verifiable: Type.Boolean(),
    stated_monthly_income: Money,
    dti_wplatform_loan: Rate,
    estimated_monthly_housing_expense: Money,
    has_mortgage: Type.Boolean(),
    member_key: Type.String(),
    lender_indicator: Int,
    decision_bureau: Type.String(),
    verification_stage: Type.Integer({ minimum: 1, maximum: 3, description: 'Three verification stages.' }),
    co_borrower_application: Type.Boolean(),
    combined_dti_wplatform_loan: nullable(Rate),
    combined_stated_monthly_income: nullable(Money),
    historical_return: Rate,
    historical_return_10th_pctl: Rate,
    historical_return_90th_pctl: Rate,
    effective_yield: Rate,
    estimated_loss_rate: Rate,
    estimated_return: Rate,
    max_prior_platform_loan: nullable(Money),
    min_prior_platform_loan: nullable(Money),
    prior_platform_loans: Count,
    prior_platform_loan_earliest_pay_off: Count,
    prior_platform_loans31dpd: Count,
    prior_platform_loans61dpd: Count,
    prior_platform_loans_active: Count,
    prior_platform_loans_balance_outstanding: Money,
    prior_platform_loans_cycles_billed: Count,
    prior_platform_loans_late_cycles: Count,
    prior_platform_loans_late_payments_one_month_plus: Count,
    prior_platform_loans_ontime_payments: Count,
    prior_platform_loans_principal_borrowed: Money,
    prior_platform_loans_principal_outstanding: Money,
    listing_creation_date: dates.dateTime,
    listing_start_date: dates.dateTime,
    listing_end_date: dates.dateTime,
    last_updated_date: dates.dateTime,
    whole_loan_start_date: nullable(dates.dateTime),
    whole_loan_end_date: nullable(dates.dateTime),
    loan_number: nullable(Int),
    loan_origination_date: nullable(dates.dateTime),
  });
/** The catalogue fields of a listing; `D` is how a date is held (text on the wire, epoch ms in the mock). */
export type ListingFields<D extends number | string> = Static<
  ReturnType<typeof listingFieldsSchema<DatesFor<D>['dateTime'], DatesFor<D>['date']>>
>;

export const WireListingFields = listingFieldsSchema(WIRE_DATES).properties;
/** A field the record may hold as null, as the answer carries it: left out when null, as the real marketplace does. */
export const omittedWhenNull = <T extends TSchema>(schema: TUnion<[T, TNull]>) => Type.Optional(schema.anyOf[0]);
/** Underwriting data by bureau element (bureau1's; bureau2's full block is Bureau2BlockSchema). */
export const BureauValues = Type.Record(Type.String(), Type.Number());

/** The indexed bureau2 values (bureau.ts): every element by its long name, its special value allowed, 0 by default. */
export const IndexedBureau2Schema = Type.Object(
  {
    credit_report_date: DateTimeText,
    fico_score: stringIn(FICO_BINS),
    ...Object.fromEntries(
      BUREAU2_ELEMENTS.map((e) => [
        e.long,
        Type.Integer({
          minimum: Math.min(e.min, e.special?.value ?? e.min),
          maximum: e.max,
          description: `${e.short}: ${e.units}, ${e.min} to ${e.max}${e.special ? `; ${e.special.value} means ${e.special.meaning}` : ''}.`,
        }),
      ]),
    ),
  },
  strict,
);

/**
 * Catalogue fields the real search leaves out of a listing (grahamtt/prosper-api
 * tests/test_client.py `test_search_listings`, 2023-2025, has none of them; the 2015 answer of
 * mtlynch/gofn-prosper lacks all but fico_score and verification_stage): the spec lists them without saying that every
 * listing carries them, so the document takes a listing without them. The mock always sends them.
 */
const LEFT_OUT_BY_REAL_SEARCH = [
  'fico_score',
  'verification_stage',
  'listing_purpose',
  'estimated_monthly_housing_expense',
  'prior_platform_loan_earliest_pay_off',
  'prior_platform_loans31dpd',
  'prior_platform_loans61dpd',
  'prior_platform_loans_balance_outstanding',
  'prior_platform_loans_cycles_billed',
  'prior_platform_loans_ontime_payments',
  'prior_platform_loans_principal_borrowed',
  'prior_platform_loans_principal_outstanding',
] as const;
type LeftOut = (typeof LEFT_OUT_BY_REAL_SEARCH)[number];
const SOMETIMES_LEFT_OUT = Object.fromEntries(LEFT_OUT_BY_REAL_SEARCH.map((k) => [k, Type.Optional(WireListingFields[k])])) as {
  [K in LeftOut]: TOptional<(typeof WireListingFields)[K]>;
};

/**
 * A listing as the search answers it: every catalogue field, co-borrower fields only on co-borrower
 * listings, the deprecated yields only for listings started through 2018-08-08, the loan fields only
 * for originated listings the caller invested in, channel_code and listing_end_date only once
 * originated, the bureau objects when asked for (bureau2's full block of 321 keys); plus the
 * caller's participation and the two flags. A field the listing has no value for is left out, never null.
 */
export const ListingSchema = Type.Object(
  {
    ...WireListingFields,
    ...SOMETIMES_LEFT_OUT,
    borrower_listing_description: omittedWhenNull(WireListingFields.borrower_listing_description),
    occupation: omittedWhenNull(WireListingFields.occupation),
    max_prior_platform_loan: omittedWhenNull(WireListingFields.max_prior_platform_loan),
    min_prior_platform_loan: omittedWhenNull(WireListingFields.min_prior_platform_loan),
    whole_loan_start_date: omittedWhenNull(WireListingFields.whole_loan_start_date),
    whole_loan_end_date: omittedWhenNull(WireListingFields.whole_loan_end_date),
    combined_dti_wplatform_loan: omittedWhenNull(WireListingFields.combined_dti_wplatform_loan),
    combined_stated_monthly_income: omittedWhenNull(WireListingFields.combined_stated_monthly_income),
    effective_yield: Type.Optional(Rate),
    estimated_loss_rate: Type.Optional(Rate),
    estimated_return: Type.Optional(Rate),
    loan_number: omittedWhenNull(WireListingFields.loan_number),
    // The spec's ORD0037 "Listing has a null investment type id": such a listing shows none, as any null.
    investment_typeid: Type.Optional(WireListingFields.investment_typeid),
    loan_origination_date: omittedWhenNull(WireListingFields.loan_origination_date),
    // The 2025–26 answers: no channel_code or listing_end_date before origination; listing_duration and
    // loan_product_id in the 2025 answer, not in the 2026 one (docs/fidelity.md).
    channel_code: Type.Optional(WireListingFields.channel_code),
    listing_end_date: Type.Optional(WireListingFields.listing_end_date),
    listing_duration: Type.Optional(Count),
    loan_product_id: Type.Optional(Int),
    amount_participation: Money,
    credit_bureau_values_bureau1: Type.Optional(nullable(BureauValues)),
    credit_bureau_values_bureau2: Type.Optional(Bureau2BlockSchema),
    credit_bureau_values_bureau2_indexed: IndexedBureau2Schema,
    invested: Type.Boolean(),
    biddable: Type.Boolean(),
  },
  strict,
);

/** The fields of a listing the client relies on (checked by `decodeListing`). */
export type ListingCheckedFields = Pick<
  Static<typeof ListingSchema>,
  'listing_number' | 'listing_amount' | 'amount_remaining' | 'listing_creation_date' | 'partial_funding_indicator'
>;

/** A listing as the API returns it: the checked fields, and the rest of the catalogue riding along for printing. */
export type Listing = ListingCheckedFields & Open;
