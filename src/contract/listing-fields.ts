/**
 * The listing field catalogue: every field of the spec's Listing table, its type and filter kind.
 * One list drives the mock's filter engine, the CLI's filter flags and `mkt listings fields`.
 */

/** How a field is typed in a response. `date` is yyyy-MM-dd; `datetime` is yyyy-MM-dd HH:mm:ss ±hhmm. */
export type FieldType = 'decimal' | 'integer' | 'string' | 'boolean' | 'datetime' | 'date' | 'object';

/** How a field can be filtered on the listings endpoint. */
export type FilterKind = 'boolean' | 'multivalue' | 'range' | 'none';

/** One field of a Listing. */
export interface ListingField {
  name: string;
  type: FieldType;
  filter: FilterKind;
  description: string;
}

/** Every Listing field, in the spec's order, and the two the 2025 answers add (ANSWER_ONLY_FIELDS). */
export const LISTING_FIELDS: readonly ListingField[] = [
  { name: 'amount_funded', type: 'decimal', filter: 'range', description: 'Funded amount.' },
  { name: 'amount_participation', type: 'decimal', filter: 'none', description: 'Already invested by the caller.' },
  { name: 'amount_remaining', type: 'decimal', filter: 'range', description: 'Remaining to fund.' },
  { name: 'borrower_apr', type: 'decimal', filter: 'none', description: 'Borrower APR.' },
  { name: 'borrower_listing_description', type: 'string', filter: 'none', description: 'Deprecated.' },
  { name: 'borrower_rate', type: 'decimal', filter: 'range', description: 'Borrower interest rate.' },
  { name: 'borrower_state', type: 'string', filter: 'multivalue', description: 'Two-letter state code.' },
  {
    name: 'channel_code',
    type: 'string',
    filter: 'none',
    description: 'Deprecated; acquisition channel (the 2025–26 answers send it on no listing not yet originated).',
  },
  {
    name: 'credit_bureau_values_bureau1',
    type: 'object',
    filter: 'none',
    description: 'Bureau1 underwriting data; present when include_credit_bureau_values requests bureau1.',
  },
  {
    name: 'credit_bureau_values_bureau2',
    type: 'object',
    filter: 'none',
    description: 'Bureau2 underwriting data; present when requested with bureau2.',
  },
  {
    name: 'credit_bureau_values_bureau2_indexed',
    type: 'object',
    filter: 'none',
    description: 'Indexed bureau2 values, returned by default; see the table below.',
  },
  { name: 'decision_bureau', type: 'string', filter: 'none', description: 'Names the bureau whose data produced the listing terms.' },
  {
    name: 'dti_wplatform_loan',
    type: 'decimal',
    filter: 'range',
    description: 'Debt-to-income including the pro-forma payment for the whole listing amount.',
  },
  {
    name: 'effective_yield',
    type: 'decimal',
    filter: 'none',
    description: 'Deprecated; only for start dates through 2018-08-08; no longer filterable.',
  },
  { name: 'employment_status_description', type: 'string', filter: 'multivalue', description: 'General employment status text.' },
  { name: 'estimated_loss_rate', type: 'decimal', filter: 'none', description: 'Deprecated; same limits as effective_yield.' },
  { name: 'estimated_monthly_housing_expense', type: 'decimal', filter: 'range', description: 'Estimated monthly housing expense.' },
  { name: 'estimated_return', type: 'decimal', filter: 'none', description: 'Deprecated; same limits as effective_yield.' },
  {
    name: 'fico_score',
    type: 'string',
    filter: 'multivalue',
    description:
      'Binned borrower credit score; filter values are bins such as 760-779, 780-799, 800-819, 820-850 (a bin 720-739 also appears in a response).',
  },
  { name: 'funding_threshold', type: 'decimal', filter: 'none', description: 'Funding threshold needed to originate.' },
  { name: 'has_mortgage', type: 'boolean', filter: 'boolean', description: 'Borrower has an outstanding mortgage.' },
  { name: 'historical_return', type: 'decimal', filter: 'none', description: 'As for order listing.' },
  { name: 'historical_return_10th_pctl', type: 'decimal', filter: 'none', description: 'As above.' },
  { name: 'historical_return_90th_pctl', type: 'decimal', filter: 'none', description: 'As above.' },
  { name: 'income_range', type: 'integer', filter: 'multivalue', description: 'Values 0 to 7.' },
  { name: 'income_range_description', type: 'string', filter: 'none', description: 'Text for income_range.' },
  { name: 'income_verifiable', type: 'boolean', filter: 'none', description: 'Borrower stated income can be verified.' },
  {
    name: 'investment_type_description',
    type: 'string',
    filter: 'none',
    description: 'Text for investment_typeid (Fractional appears for value 1).',
  },
  { name: 'investment_product_id', type: 'integer', filter: 'none', description: 'Product id.' },
  {
    name: 'investment_typeid',
    type: 'integer',
    filter: 'none',
    description: 'Type of offering; value 1 is fractional; whole loans are a distinct type (not all investors may bid on them).',
  },
  {
    name: 'last_updated_date',
    type: 'datetime',
    filter: 'none',
    description: 'Last update; also changes when non-searchable internal fields change.',
  },
  { name: 'lender_indicator', type: 'integer', filter: 'none', description: 'Borrower also has an investor role.' },
  { name: 'lender_yield', type: 'decimal', filter: 'range', description: 'Borrower rate less investor servicing fee.' },
  { name: 'listing_amount', type: 'decimal', filter: 'range', description: 'Amount requested.' },
  { name: 'listing_category_id', type: 'integer', filter: 'multivalue', description: 'Borrower-reported purpose; maps to listing_title.' },
  { name: 'listing_creation_date', type: 'datetime', filter: 'range', description: 'Creation date.' },
  {
    name: 'listing_duration',
    type: 'integer',
    filter: 'none',
    description: 'Days the listing is active (in the 2025 answers; the spec names it on order listings).',
  },
  {
    name: 'listing_end_date',
    type: 'datetime',
    filter: 'range',
    description: 'End date (the 2025–26 answers send it only once the listing has originated).',
  },
  { name: 'listing_monthly_payment', type: 'decimal', filter: 'range', description: 'Monthly payment.' },
  { name: 'listing_number', type: 'integer', filter: 'multivalue', description: 'Listing number.' },
  { name: 'listing_purpose', type: 'string', filter: 'none', description: 'Deprecated; use listing_title.' },
  {
    name: 'listing_start_date',
    type: 'datetime',
    filter: 'range',
    description: 'When the listing started; filter with yyyy-MM-dd or yyyy-MM-dd HH:mm:ss.',
  },
  {
    name: 'listing_status',
    type: 'integer',
    filter: 'multivalue',
    description: 'Lifecycle position (2 pairs with the reason text Active).',
  },
  { name: 'listing_status_reason', type: 'string', filter: 'none', description: 'Text for listing_status.' },
  { name: 'listing_term', type: 'integer', filter: 'multivalue', description: 'Amortization months.' },
  { name: 'listing_title', type: 'string', filter: 'none', description: "Title from the borrower's loan type." },
  {
    name: 'loan_number',
    type: 'integer',
    filter: 'none',
    description: 'Loan identifier usable with loans and payments; present only when biddable=false and invested=true.',
  },
  {
    name: 'loan_origination_date',
    type: 'datetime',
    filter: 'range',
    description: 'Origination date; present only when biddable=false and invested=true.',
  },
  { name: 'loan_product_id', type: 'integer', filter: 'none', description: 'Loan product (1 in every 2025 answer).' },
  { name: 'max_prior_platform_loan', type: 'decimal', filter: 'none', description: 'Largest prior loan amount.' },
  { name: 'member_key', type: 'string', filter: 'none', description: 'Borrower unique id.' },
  { name: 'min_prior_platform_loan', type: 'decimal', filter: 'none', description: 'Smallest prior loan amount.' },
  { name: 'months_employed', type: 'integer', filter: 'range', description: 'Months of employment.' },
  { name: 'occupation', type: 'string', filter: 'multivalue', description: 'Occupation name (optional for the applicant).' },
  {
    name: 'partial_funding_indicator',
    type: 'boolean',
    filter: 'boolean',
    description:
      'Borrower approved for partial funding (listing at least 70% funded at period end); not applicable when investment_typeid=2.',
  },
  { name: 'percent_funded', type: 'decimal', filter: 'range', description: 'Fraction funded.' },
  { name: 'prior_platform_loans', type: 'integer', filter: 'range', description: 'Total prior loans.' },
  {
    name: 'prior_platform_loan_earliest_pay_off',
    type: 'integer',
    filter: 'none',
    description: 'Cycle number of fastest early payoff of a prior loan.',
  },
  { name: 'prior_platform_loans31dpd', type: 'integer', filter: 'none', description: 'Cycles prior loans were 31+ days past due.' },
  { name: 'prior_platform_loans61dpd', type: 'integer', filter: 'none', description: 'Cycles prior loans were 61+ days past due.' },
  { name: 'prior_platform_loans_active', type: 'integer', filter: 'range', description: 'Prior loans still active.' },
  { name: 'prior_platform_loans_balance_outstanding', type: 'decimal', filter: 'range', description: 'Balance outstanding.' },
  { name: 'prior_platform_loans_cycles_billed', type: 'integer', filter: 'range', description: 'Cycles billed.' },
  { name: 'prior_platform_loans_late_cycles', type: 'integer', filter: 'range', description: 'Cycles with a late payment.' },
  {
    name: 'prior_platform_loans_late_payments_one_month_plus',
    type: 'integer',
    filter: 'range',
    description: 'Cycles with a payment late by one month or more.',
  },
  { name: 'prior_platform_loans_ontime_payments', type: 'integer', filter: 'range', description: 'Cycles with a timely payment.' },
  { name: 'prior_platform_loans_principal_borrowed', type: 'decimal', filter: 'range', description: 'Principal borrowed.' },
  { name: 'prior_platform_loans_principal_outstanding', type: 'decimal', filter: 'range', description: 'Principal outstanding.' },
  { name: 'platform_rating', type: 'string', filter: 'multivalue', description: 'Proprietary risk rating.' },
  { name: 'platform_score', type: 'integer', filter: 'range', description: 'Risk score 1 to 11; 11 is lowest risk.' },
  { name: 'stated_monthly_income', type: 'decimal', filter: 'range', description: 'Monthly income as stated.' },
  {
    name: 'verification_stage',
    type: 'integer',
    filter: 'range',
    description: 'Three-stage verification progress; higher means more likely to originate.',
  },
  {
    name: 'whole_loan_end_date',
    type: 'datetime',
    filter: 'range',
    description: 'When the listing moved from whole-loan pool to fractional pool.',
  },
  { name: 'whole_loan_start_date', type: 'datetime', filter: 'range', description: 'When the listing was posted to the whole-loan pool.' },
  {
    name: 'co_borrower_application',
    type: 'boolean',
    filter: 'boolean',
    description: 'Present on all listings; true for co-borrower applications.',
  },
  { name: 'combined_dti_wplatform_loan', type: 'decimal', filter: 'range', description: 'Only on co-borrower listings.' },
  { name: 'combined_stated_monthly_income', type: 'decimal', filter: 'range', description: 'Only on co-borrower listings.' },
];

/** Fields by name, for lookups on the hot path of the filter engine. */
export const LISTING_FIELD_BY_NAME: ReadonlyMap<string, ListingField> = new Map(LISTING_FIELDS.map((f) => [f.name, f]));

/** Fields that can be filtered (boolean, multivalue or range). */
export const FILTERABLE_FIELDS: readonly ListingField[] = LISTING_FIELDS.filter((f) => f.filter !== 'none');

/** Fields an answer carries that no listing record holds (the spec's Listing table lacks them; the 2025 answers send them). */
export const ANSWER_ONLY_FIELDS: ReadonlySet<string> = new Set(['listing_duration', 'loan_product_id']);

/** Fields that can be named in `sort_by`: every scalar field a listing holds. */
export const SORTABLE_FIELDS: ReadonlySet<string> = new Set(
  LISTING_FIELDS.filter((f) => f.type !== 'object' && !ANSWER_ONLY_FIELDS.has(f.name)).map((f) => f.name),
);

/** Fields returned only for listings starting on or before 2018-08-08. */
export const DEPRECATED_YIELD_FIELDS = ['effective_yield', 'estimated_loss_rate', 'estimated_return'] as const;

/** The last listing start date that still carries the deprecated yield fields. */
export const DEPRECATED_FIELDS_UNTIL = '2018-08-08';
/** The last instant of that day (UTC): a listing starting at or before it carries the deprecated fields. */
const DEPRECATED_FIELDS_LAST_MS = Date.parse(`${DEPRECATED_FIELDS_UNTIL}T23:59:59.999Z`);

/** True when a listing that started at `startMs` (epoch ms) carries the deprecated yield fields. */
export const hasDeprecatedFields = (startMs: number): boolean => startMs <= DEPRECATED_FIELDS_LAST_MS;

/** Listings created before this date carry bureau1 data; later ones only bureau2. */
export const BUREAU1_UNTIL = '2017-03-31';
