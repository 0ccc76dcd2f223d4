/**
 * What the public Python client of the real marketplace requires of its answers: grahamtt/prosper-api at commit
 * 86b314e, prosper_api/models/__init__.py and enums.py (pydantic models: a required field missing or mistyped fails
 * the whole answer). Its brand word reads `platform` here, as in the spec, and its TransUnion object is the spec's
 * indexed bureau2 object. Where it and the spec differ, the spec wins and the entry says so.
 */

/** How a field is typed. `money`: a number with at most 2 decimals; a list: one of those values. */
export type Kind =
  | 'money'
  | 'decimal'
  | 'int'
  | 'str'
  | 'date'
  | 'datetime'
  | 'bool'
  | 'ratings'
  | 'digits'
  | readonly (string | number)[]
  | { nullable: Kind }
  | { object: Fields }
  | { list: Fields };
/** A model: the fields it requires, and those it takes when present (then never null, unless its kind says so). */
export interface Fields {
  required: Readonly<Record<string, Kind>>;
  optional?: Readonly<Record<string, Kind>>;
}

/** ProsperRating: the old loans' rating is `N/A`, as the mock now sends it (it sent `NA` before issue 21). */
export const RATINGS = ['AA', 'A', 'B', 'C', 'D', 'E', 'HR', 'N/A'];
/** AmountsByRating's fields: the same ratings, the old one keyed `NA` (as the real account answer keys it). */
const RATING_KEYS = ['NA', 'HR', 'E', 'D', 'C', 'B', 'A', 'AA'];
const LISTING_STATUS = [2, 3, 4, 5, 6, 7];
const EMPLOYMENT_STATUS = ['Employed', 'Self-employed', 'Retired', 'Not employed', 'Other'];
const FICO = [
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
];
const LOAN_STATUS = [0, 1, 2, 3, 4, 5, 6];
const BID_RESULT = [
  'NONE',
  'AMOUNT_BID_TOO_HIGH',
  'AMOUNT_BID_TOO_LOW',
  'BID_FAILED',
  'BID_SUCCEEDED',
  'CANNOT_BID_ON_FRACTIONAL_LOANS',
  'CANNOT_BID_ON_OWN_LISTING',
  'INSUFFICIENT_FUNDS',
  'INTERNAL_ERROR',
  'INVESTMENT_ORDER_ALREADY_PROCESSED',
  'LENDER_NOT_ELIGIBLE_TO_BID',
  'LISTING_NOT_BIDDABLE',
  'SUITABILITY_REQUIREMENTS_NOT_MET',
  'PARTIAL_BID_SUCCEEDED',
];

/** `Account` (every field required; `AmountsByRating` for the two by-rating objects). */
export const ACCOUNT: Fields = {
  required: {
    available_cash_balance: 'money',
    pending_investments_primary_market: 'money',
    pending_investments_secondary_market: 'money',
    pending_quick_invest_orders: 'money',
    total_principal_received_on_active_notes: 'money',
    total_amount_invested_on_active_notes: 'money',
    outstanding_principal_on_active_notes: 'money',
    total_account_value: 'money',
    pending_deposit: 'money',
    last_deposit_amount: 'money',
    last_deposit_date: 'datetime',
    last_withdraw_amount: 'money',
    last_withdraw_date: 'datetime',
    external_user_id: 'str',
    platform_account_digest: 'str',
    invested_notes: 'ratings',
    pending_bids: 'ratings',
  },
};

/** `CreditBureauValues` (the indexed bureau2 object). */
const BUREAU: Fields = {
  required: {
    g102s_months_since_most_recent_inquiry: 'decimal',
    credit_report_date: 'datetime',
    at02s_open_accounts: 'decimal',
    g041s_accounts_30_or_more_days_past_due_ever: 'decimal',
    g093s_number_of_public_records: 'decimal',
    g094s_number_of_public_record_bankruptcies: 'decimal',
    g095s_months_since_most_recent_public_record: 'decimal',
    g218b_number_of_delinquent_accounts: 'decimal',
    g980s_inquiries_in_the_last_6_months: 'decimal',
    re20s_age_of_oldest_revolving_account_in_months: 'decimal',
    s207s_months_since_most_recent_public_record_bankruptcy: 'decimal',
    re33s_balance_owed_on_all_revolving_accounts: 'decimal',
    at57s_amount_delinquent: 'decimal',
    g099s_public_records_last_24_months: 'decimal',
    at20s_oldest_trade_open_date: 'decimal',
    at03s_current_credit_lines: 'decimal',
    re101s_revolving_balance: 'decimal',
    bc34s_bankcard_utilization: 'decimal',
    at01s_credit_lines: 'decimal',
    fico_score: FICO,
  },
};

/** `Listing`. */
export const LISTING: Fields = {
  required: {
    listing_number: 'int',
    platform_rating: RATINGS,
    listing_title: 'str',
    listing_start_date: 'str',
    listing_creation_date: 'datetime',
    listing_status: LISTING_STATUS,
    listing_status_reason: 'str',
    invested: 'bool',
    biddable: 'bool',
    has_mortgage: 'bool',
    credit_bureau_values_bureau2_indexed: { object: BUREAU },
    employment_status_description: EMPLOYMENT_STATUS,
    investment_type_description: 'str',
    last_updated_date: 'datetime',
    decision_bureau: 'str',
    member_key: 'str',
    borrower_state: 'str',
    co_borrower_application: 'bool',
    income_verifiable: 'bool',
    lender_yield: 'decimal',
  },
  optional: {
    occupation: 'str',
    loan_number: 'int',
    listing_end_date: 'datetime',
    loan_origination_date: 'datetime',
    months_employed: 'decimal',
    investment_product_id: [0, 1],
    listing_amount: 'money',
    amount_funded: 'money',
    amount_remaining: 'money',
    percent_funded: 'decimal',
    partial_funding_indicator: 'bool',
    funding_threshold: 'decimal',
    borrower_rate: 'decimal',
    borrower_apr: 'decimal',
    listing_term: 'int',
    listing_monthly_payment: 'money',
    platform_score: 'int',
    listing_category_id: 'int',
    income_range: [0, 1, 2, 3, 4, 5, 6, 7],
    income_range_description: 'str',
    stated_monthly_income: 'money',
    dti_wplatform_loan: 'decimal',
    lender_indicator: 'int',
    // Optional[int] there, a string in the spec: digits, which pydantic reads as an int.
    channel_code: 'digits',
    amount_participation: 'money',
    investment_typeid: [0, 1],
    estimated_monthly_housing_expense: 'money',
    historical_return: 'decimal',
    historical_return_10th_pctl: 'decimal',
    historical_return_90th_pctl: 'decimal',
    prior_platform_loans_active: 'int',
    prior_platform_loans: 'int',
    prior_platform_loan_earliest_pay_off: 'int',
    prior_platform_loans_principal_borrowed: 'money',
    prior_platform_loans_principal_outstanding: 'money',
    prior_platform_loans_balance_outstanding: 'money',
    prior_platform_loans_cycles_billed: 'int',
    prior_platform_loans_ontime_payments: 'int',
    prior_platform_loans_late_cycles: 'int',
    prior_platform_loans_late_payments_one_month_plus: 'int',
    prior_platform_loans31dpd: 'decimal',
    max_prior_platform_loan: 'money',
    min_prior_platform_loan: 'money',
    verification_stage: 'int',
    combined_dti_wplatform_loan: 'decimal',
    combined_stated_monthly_income: 'money',
  },
};

/** `Loan`. */
export const LOAN: Fields = {
  required: {
    loan_number: 'int',
    amount_borrowed: 'money',
    borrower_rate: 'decimal',
    platform_rating: RATINGS,
    term: 'int',
    age_in_months: 'int',
    origination_date: 'date',
    days_past_due: 'int',
    principal_balance: 'money',
    service_fees_paid: 'money',
    principal_paid: 'money',
    interest_paid: 'money',
    platform_fees_paid: 'money',
    late_fees_paid: 'money',
    collection_fees_paid: 'money',
    debt_sale_proceeds_received: 'money',
    loan_status: LOAN_STATUS,
    loan_status_description: 'str',
    // Required there, with a code 0 for "not in default"; the spec answers null for a loan not in default.
    loan_default_reason: { nullable: [1, 2, 3, 4, 5, 6, 7] },
    next_payment_due_date: 'date',
    next_payment_due_amount: 'money',
  },
  optional: { loan_default_reason_description: { nullable: 'str' } },
};

/** `Note` (tests/test_client.py `test_list_notes` is the real answer it reads). */
export const NOTE: Fields = {
  required: {
    principal_balance_pro_rata_share: 'decimal',
    service_fees_paid_pro_rata_share: 'decimal',
    principal_paid_pro_rata_share: 'decimal',
    interest_paid_pro_rata_share: 'decimal',
    platform_fees_paid_pro_rata_share: 'decimal',
    late_fees_paid_pro_rata_share: 'decimal',
    collection_fees_paid_pro_rata_share: 'decimal',
    debt_sale_proceeds_received_pro_rata_share: 'decimal',
    platform_proceeds_net_received: 'decimal',
    next_payment_due_amount_pro_rata_share: 'decimal',
    note_ownership_amount: 'money',
    note_sale_gross_amount_received: 'decimal',
    note_sale_fees_paid: 'decimal',
    loan_note_id: 'str',
    listing_number: 'int',
    note_status: LOAN_STATUS,
    note_status_description: 'str',
    is_sold: 'bool',
    is_sold_folio: 'bool',
    loan_number: 'int',
    amount_borrowed: 'money',
    borrower_rate: 'decimal',
    lender_yield: 'decimal',
    platform_rating: RATINGS,
    term: 'int',
    age_in_months: 'int',
    accrued_interest: 'decimal',
    payment_received: 'decimal',
    loan_settlement_status: 'str',
    loan_extension_status: 'str',
    loan_extension_term: 'int',
    is_in_bankruptcy: 'bool',
    co_borrower_application: 'bool',
    origination_date: 'date',
    days_past_due: 'int',
    next_payment_due_date: 'date',
    ownership_start_date: 'date',
  },
  optional: {
    ownership_end_date: { nullable: 'date' },
    // LoanDefaultReason has NOT_IN_DEFAULT = 0 too; the spec answers null for a loan not in default, which this Optional takes.
    note_default_reason: { nullable: [1, 2, 3, 4, 5, 6, 7] },
    note_default_reason_description: { nullable: 'str' },
    servicing_collection_agency_queue: { nullable: 'str' },
  },
};

/** `BidRequest` and `Order`. */
const BID: Fields = {
  required: { listing_id: 'int', bid_status: ['PENDING', 'INVESTED', 'EXPIRED'], bid_amount: 'money' },
  optional: { bid_amount_placed: 'money', bid_result: BID_RESULT },
};
export const ORDER: Fields = {
  required: {
    order_id: 'str',
    order_date: 'datetime',
    bid_requests: { list: BID },
    order_status: ['IN_PROGRESS', 'COMPLETED'],
    source: ['API', 'AI', 'MI'],
  },
  optional: { order_amount: 'money', order_amount_placed: 'money', order_amount_invested: 'money' },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with `v` as a `kind` (nothing: an empty list). */
export function kindProblem(v: unknown, kind: Kind, path: string): string[] {
  const bad = (what: string): string[] => [`${path}: ${JSON.stringify(v)} is not ${what}`];
  if (Array.isArray(kind)) return kind.includes(v as never) ? [] : bad(`one of ${kind.join(', ')}`);
  if (typeof kind === 'object' && 'nullable' in kind) return v === null ? [] : kindProblem(v, kind.nullable, path);
  if (typeof kind === 'object' && 'object' in kind) return isObject(v) ? problems(v, kind.object, path) : bad('an object');
  if (typeof kind === 'object' && 'list' in kind) {
    return Array.isArray(v)
      ? v.flatMap((x, i) => (isObject(x) ? problems(x, kind.list, `${path}[${i}]`) : bad('a list of objects')))
      : bad('a list');
  }
  switch (kind) {
    case 'decimal':
      return typeof v === 'number' && Number.isFinite(v) ? [] : bad('a number');
    case 'money':
      return typeof v === 'number' && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6 ? [] : bad('an amount in cents');
    case 'int':
      return Number.isSafeInteger(v) ? [] : bad('a whole number');
    case 'bool':
      return typeof v === 'boolean' ? [] : bad('true or false');
    case 'str':
      return typeof v === 'string' ? [] : bad('a string');
    case 'digits':
      return typeof v === 'string' && /^\d+$/.test(v) ? [] : bad('a string of digits');
    case 'date':
      return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? [] : bad('a date (yyyy-MM-dd)');
    case 'datetime':
      return typeof v === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/.test(v) ? [] : bad('a date-time');
    case 'ratings': {
      if (!isObject(v)) return bad('an object of amounts by rating');
      return RATING_KEYS.flatMap((r) => kindProblem(v[r], 'money', `${path}.${r}`));
    }
    default:
      return bad('of a known kind');
  }
}

/** Every problem of `o` against `fields`: a required field missing or mistyped, an optional one null or mistyped. */
export function problems(o: Record<string, unknown>, fields: Fields, path: string): string[] {
  const out: string[] = [];
  for (const [name, kind] of Object.entries(fields.required)) {
    out.push(...(name in o ? kindProblem(o[name], kind, `${path}.${name}`) : [`${path}.${name} is missing`]));
  }
  for (const [name, kind] of Object.entries(fields.optional ?? {}))
    if (name in o) out.push(...kindProblem(o[name], kind, `${path}.${name}`));
  return out;
}
