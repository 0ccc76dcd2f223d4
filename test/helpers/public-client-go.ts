/**
 * What the public Go client of the real marketplace requires of its answers: mtlynch/gofn-prosper at commit
 * 155229e. prosper/thin/*.go decode each answer into structs with encoding/json (a value of another JSON type
 * fails the whole decode; null or a missing field leaves the zero value), then prosper/*_parser.go parse some
 * fields further (ratings, statuses, dates) and fail the answer on a value they do not know. Its brand word
 * reads `platform` here (`prosper_rating` is `platform_rating`, `dti_wprosper_loan` is `dti_wplatform_loan`, …).
 *
 * The client predates the newest real answers (its account answer is from 2015, its search the retired
 * `/v1/search/listings/`): where a newer answer or the spec decides otherwise, the test names the field and why.
 */

/** A Go struct field's type as encoding/json decodes into it. */
export type GoType = 'float64' | 'int64' | 'string' | 'bool' | { slice: GoStruct };
/** What a parser does with the decoded value (the zero value when absent or null). */
export type GoParse =
  | { oneOf: readonly (string | number)[] }
  | { range: readonly [number, number] }
  /** parseProsperDate: `2006-01-02`, or empty. */
  | 'date'
  /** parseProsperTime: `2006-01-02 15:04:05 +0000` (the offset a literal), or empty. */
  | 'time'
  /** parseProsperOldTime: `01022006` (MMDDYYYY), or `1`/`2` (older than 5/10 years); empty fails. */
  | 'oldTime';
/** One field: its type, and its parse when a parser reads it. */
export type GoField = GoType | { type: GoType; parse: GoParse };
/** A struct: JSON name → field. */
export type GoStruct = Readonly<Record<string, GoField>>;

const ZERO = { float64: 0, int64: 0, string: '', bool: false } as const;

/** prosper/note_parser.go parseRating: `N/A` for the old loans. */
export const GO_RATINGS = ['AA', 'A', 'B', 'C', 'D', 'E', 'HR', 'N/A'];
const rating: GoField = { type: 'string', parse: { oneOf: GO_RATINGS } };
const date: GoField = { type: 'string', parse: 'date' };
const time: GoField = { type: 'string', parse: 'time' };

/** thin.AccountResponse, read by prosper/account_parser.go (GET /accounts/prosper/). */
export const GO_ACCOUNT: GoStruct = {
  available_cash_balance: 'float64',
  pending_investments_primary_market: 'float64',
  pending_investments_secondary_market: 'float64',
  pending_quick_invest_orders: 'float64',
  total_principal_received_on_active_notes: 'float64',
  total_amount_invested_on_active_notes: 'float64',
  outstanding_principal_on_active_notes: 'float64',
  total_account_value: 'float64',
  inflight_gross: 'float64',
  last_deposit_amount: 'float64',
  last_deposit_date: date,
  last_withdraw_amount: 'float64',
  last_withdraw_date: date,
  external_user_id: 'string',
};

/** thin.NoteResult, read by prosper/note_parser.go (note_status 0–6 by parseNoteStatus, a default reason 0 or 1–7). */
export const GO_NOTE: GoStruct = {
  loan_number: 'int64',
  amount_borrowed: 'float64',
  borrower_rate: 'float64',
  platform_rating: rating,
  term: 'int64',
  age_in_months: 'int64',
  origination_date: date,
  days_past_due: 'int64',
  group_leader_award: 'int64',
  principal_balance_pro_rata_share: 'float64',
  service_fees_paid_pro_rata_share: 'float64',
  principal_paid_pro_rata_share: 'float64',
  interest_paid_pro_rata_share: 'float64',
  platform_fees_paid_pro_rata_share: 'float64',
  late_fees_paid_pro_rata_share: 'float64',
  debt_sale_proceeds_received_pro_rata_share: 'float64',
  next_payment_due_amount_pro_rata_share: 'float64',
  next_payment_due_date: date,
  loan_note_id: 'string',
  listing_number: 'int64',
  note_ownership_amount: 'float64',
  note_sale_gross_amount_received: 'float64',
  note_sale_fees_paid: 'float64',
  note_status: { type: 'int64', parse: { range: [0, 6] } },
  note_status_description: 'string',
  note_default_reason: { type: 'int64', parse: { oneOf: [0, 1, 2, 3, 4, 5, 6, 7] } },
  note_default_reason_description: 'string',
  is_sold: 'bool',
};

/** thin.BidStatus (prosper/orders_parser.go parseBidStatusValue and parseBidResult: "" and NONE are no result yet). */
const GO_BID: GoStruct = {
  listing_id: 'int64',
  bid_amount: 'float64',
  bid_amount_placed: 'float64',
  bid_status: { type: 'string', parse: { oneOf: ['PENDING', 'INVESTED', 'EXPIRED'] } },
  // Its list predates CANNOT_BID_ON_FRACTIONAL_LOANS and names CANNOT_BID_ON_SELF where the Python client (2023) has
  // CANNOT_BID_ON_OWN_LISTING; the mock follows the newer list (no order of this test meets either).
  bid_result: {
    type: 'string',
    parse: {
      oneOf: [
        '',
        'NONE',
        'AMOUNT_BID_TOO_HIGH',
        'AMOUNT_BID_TOO_LOW',
        'BID_FAILED',
        'BID_SUCCEEDED',
        'CANNOT_BID_ON_SELF',
        'INSUFFICIENT_FUNDS',
        'INTERNAL_ERROR',
        'INVESTMENT_ORDER_ALREADY_PROCESSED',
        'LENDER_NOT_ELIGIBLE_TO_BID',
        'LISTING_NOT_BIDDABLE',
        'SUITABILITY_REQUIREMENTS_NOT_MET',
        'PARTIAL_BID_SUCCEEDED',
      ],
    },
  },
};
/** thin.OrderResponse (POST /orders/ and GET /orders/{id}). */
export const GO_ORDER: GoStruct = {
  order_id: 'string',
  bid_requests: { slice: GO_BID },
  order_status: { type: 'string', parse: { oneOf: ['IN_PROGRESS', 'COMPLETED'] } },
  order_date: time,
};

/** thin.SearchResult, read by prosper/listing_parser.go. */
export const GO_LISTING: GoStruct = {
  amount_delinquent: 'float64',
  amount_funded: 'float64',
  amount_participation: 'float64',
  amount_remaining: 'float64',
  bankcard_utilization: 'float64',
  borrower_apr: 'float64',
  borrower_city: 'string',
  borrower_listing_description: 'string',
  borrower_metropolitan_area: 'string',
  borrower_rate: 'float64',
  borrower_state: 'string',
  channel_code: 'string',
  credit_lines_last7_years: 'int64',
  credit_pull_date: time,
  current_credit_lines: 'int64',
  current_delinquencies: 'int64',
  delinquencies_last7_years: 'int64',
  delinquencies_over30_days: 'int64',
  delinquencies_over60_days: 'int64',
  delinquencies_over90_days: 'int64',
  dti_wplatform_loan: 'float64',
  effective_yield: 'float64',
  employment_status_description: 'string',
  estimated_loss_rate: 'float64',
  estimated_return: 'float64',
  fico_score: {
    type: 'string',
    parse: {
      oneOf: [
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
      ],
    },
  },
  first_recorded_credit_line: time,
  funding_threshold: 'float64',
  group_indicator: 'bool',
  group_name: 'string',
  income_range: { type: 'int64', parse: { range: [0, 7] } },
  income_range_description: 'string',
  income_verifiable: 'bool',
  inquiries_last6_months: 'int64',
  installment_balance: 'float64',
  investment_type_description: 'string',
  investment_typeid: 'int64',
  is_homeowner: 'bool',
  last_updated_date: time,
  lender_indicator: 'int64',
  lender_yield: 'float64',
  listing_amount: 'float64',
  listing_category_id: 'int64',
  listing_creation_date: time,
  listing_end_date: time,
  listing_monthly_payment: 'float64',
  listing_number: 'int64',
  listing_purpose: 'string',
  listing_start_date: time,
  // ListingStatusMin..Max: 2 Active … 8 Pending review or acceptance, the codes DESIGN.md fixed.
  listing_status: { type: 'int64', parse: { range: [2, 8] } },
  listing_status_reason: 'string',
  listing_term: 'int64',
  listing_title: 'string',
  max_prior_platform_loan: 'float64',
  member_key: 'string',
  min_prior_platform_loan: 'float64',
  monthly_debt: 'float64',
  months_employed: 'int64',
  now_delinquent_derog: 'int64',
  occupation: 'string',
  oldest_trade_open_date: { type: 'string', parse: 'oldTime' },
  open_credit_lines: 'int64',
  partial_funding_indicator: 'bool',
  percent_funded: 'float64',
  prior_platform_loans: 'int64',
  prior_platform_loan_earliest_pay_off: 'int64',
  prior_platform_loans31dpd: 'int64',
  prior_platform_loans61dpd: 'int64',
  prior_platform_loans_active: 'int64',
  prior_platform_loans_balance_outstanding: 'float64',
  prior_platform_loans_cycles_billed: 'int64',
  prior_platform_loans_late_cycles: 'int64',
  prior_platform_loans_late_payments_one_month_plus: 'int64',
  prior_platform_loans_ontime_payments: 'int64',
  prior_platform_loans_principal_borrowed: 'float64',
  prior_platform_loans_principal_outstanding: 'float64',
  platform_rating: rating,
  platform_score: 'int64',
  public_records_last10_years: 'int64',
  public_records_last12_months: 'int64',
  real_estate_balance: 'float64',
  real_estate_payment: 'float64',
  revolving_available_percent: 'float64',
  revolving_balance: 'float64',
  satisfactory_accounts: 'int64',
  scorex: 'string',
  scorex_change: 'string',
  stated_monthly_income: 'float64',
  total_inquiries: 'int64',
  total_open_revolving_accounts: 'int64',
  total_trade_items: 'int64',
  verification_stage: 'int64',
  was_delinquent_derog: 'int64',
  whole_loan_end_date: time,
  whole_loan_start_date: time,
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function decodes(v: unknown, type: Exclude<GoType, { slice: GoStruct }>): boolean {
  switch (type) {
    case 'float64':
      return typeof v === 'number' && Number.isFinite(v);
    case 'int64':
      return Number.isSafeInteger(v);
    case 'string':
      return typeof v === 'string';
    case 'bool':
      return typeof v === 'boolean';
  }
}

function parses(v: unknown, parse: GoParse): boolean {
  if (parse === 'date') return v === '' || (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v));
  if (parse === 'time') return v === '' || (typeof v === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+0000$/.test(v));
  if (parse === 'oldTime') return v === '1' || v === '2' || (typeof v === 'string' && /^\d{8}$/.test(v));
  if ('oneOf' in parse) return parse.oneOf.includes(v as never);
  return typeof v === 'number' && v >= parse.range[0] && v <= parse.range[1];
}

/**
 * Where `o` fails the Go client: a field of another JSON type (the decode fails), or a value its parser
 * refuses (the zero value for a field absent or null). One line per problem, `path.field: …`.
 */
export function goProblems(o: unknown, struct: GoStruct, path: string): string[] {
  if (!isObject(o)) return [`${path}: ${JSON.stringify(o)} is not an object`];
  const out: string[] = [];
  for (const [name, field] of Object.entries(struct)) {
    const at = `${path}.${name}`;
    const { type, parse } = typeof field === 'object' && 'type' in field ? field : { type: field, parse: undefined };
    const v = o[name];
    const given = v !== undefined && v !== null;
    if (typeof type === 'object') {
      if (given && !Array.isArray(v)) out.push(`${at}: ${JSON.stringify(v)} is not a list`);
      else if (given) (v as unknown[]).forEach((x, i) => out.push(...goProblems(x, type.slice, `${at}[${i}]`)));
      continue;
    }
    if (given && !decodes(v, type)) {
      out.push(`${at}: ${JSON.stringify(v)} does not decode into ${type}`);
      continue;
    }
    const value = given ? v : ZERO[type];
    if (parse !== undefined && !parses(value, parse))
      out.push(`${at}: ${JSON.stringify(value)} fails the parser (${typeof parse === 'string' ? parse : JSON.stringify(parse)})`);
  }
  return out;
}

/** The field a problem line names (`result[3].platform_rating: …` → `platform_rating`). */
export const problemField = (line: string): string => /([A-Za-z0-9_]+)(\[\d+\])?: /.exec(line)?.[1] ?? line;
