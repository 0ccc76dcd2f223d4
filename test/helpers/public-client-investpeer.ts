/**
 * What the third public client of the real marketplace reads of its answers: jmelby70/investpeer-prosper-py at
 * commit 9531564 (2026-02-15). service/prosper_rest_service.py decodes each answer with dacite 1.9.2
 * (`from_dict(..., Config(strict=False))`: unknown keys ignored; a key present is type-checked, null only where
 * the field is Optional; a missing key takes the field's default, and a field without one fails the answer) into
 * the dataclasses of model/account.py, model/listings.py and model/orders.py; the token answer is kept as a dict.
 * service/prosper_notes_service.py, model/filterset.py and service/notification_service.py then use some fields
 * where null or absent would raise (a comparison or arithmetic on None) or silently change what it does: those
 * carry `reads`, and must be present and not null.
 *
 * Its brand word reads `platform` here, as in the spec (`prosper_rating` is `platform_rating`,
 * `dti_wprosper_loan` is `dti_wplatform_loan`, …), and its `credit_bureau_values_transunion_indexed` is the
 * spec's `credit_bureau_values_bureau2_indexed`.
 */

/**
 * A Python type as dacite's is_instance checks it. PEP 484's numeric tower: an int is taken as a float. Python's
 * bool is an int too, so dacite would take `true` for a number; this checker does not (no answer should send one).
 */
export type PyType = 'int' | 'float' | 'str' | 'bool' | { dict: PyType } | { list: PyClass } | { dataclass: PyClass };
/** A dataclass field: its type, whether it is `Optional[…] = None`, and why the code needs its value, if it does. */
export interface PyField {
  type: PyType;
  optional: boolean;
  reads?: string;
}
/** A dataclass: JSON key → field. */
export type PyClass = Readonly<Record<string, PyField>>;

/** `Optional[T] = None`, read where `reads` says when given. */
const opt = (type: PyType, reads?: string): PyField => (reads === undefined ? { type, optional: true } : { type, optional: true, reads });
/** A field without a default (dacite: MissingValueError when absent). */
const req = (type: PyType, reads?: string): PyField => (reads === undefined ? { type, optional: false } : { type, optional: false, reads });

const SUMMARY = 'the account summary e-mail formats it with ,.2f';

/** model/account.py Account; read by prosper_notes_service.buy_notes and notification_service. */
export const ACCOUNT: PyClass = {
  available_cash_balance: opt('float', 'buy_notes: cash >= the minimum bid, int(cash / minimum) bids at most'),
  pending_investments_primary_market: opt('float', SUMMARY),
  pending_investments_secondary_market: opt('float'),
  pending_quick_invest_orders: opt('float'),
  total_principal_received_on_active_notes: opt('float', SUMMARY),
  total_amount_invested_on_active_notes: opt('float', SUMMARY),
  outstanding_principal_on_active_notes: opt('float', SUMMARY),
  total_account_value: opt('float', SUMMARY),
  pending_deposit: opt('float'),
  external_user_id: opt('str'),
  platform_account_digest: opt('str'),
  invested_notes: opt({ dict: 'float' }, 'the account summary e-mail lists invested_notes.items()'),
  pending_bids: opt({ dict: 'float' }),
};

/** model/listings.py CreditBureauValues (the indexed bureau2 object); filter_listings compares two of them. */
export const BUREAU: PyClass = {
  credit_report_date: opt('str'),
  at02s_open_accounts: opt('float'),
  g041s_accounts_30_or_more_days_past_due_ever: opt('float'),
  g093s_number_of_public_records: opt('float'),
  g094s_number_of_public_record_bankruptcies: opt('float'),
  g095s_months_since_most_recent_public_record: opt('float'),
  g218b_number_of_delinquent_accounts: opt('float', 'check_delinquencies: <= delinquencies_under'),
  g980s_inquiries_in_the_last_6_months: opt('float', 'check_inquiries: <= inquiries_under'),
  re20s_age_of_oldest_revolving_account_in_months: opt('float'),
  s207s_months_since_most_recent_public_record_bankruptcy: opt('float'),
  re33s_balance_owed_on_all_revolving_accounts: opt('float'),
  at57s_amount_delinquent: opt('float'),
  g099s_public_records_last_24_months: opt('float'),
  at20s_oldest_trade_open_date: opt('float'),
  at03s_current_credit_lines: opt('float'),
  re101s_revolving_balance: opt('float'),
  bc34s_bankcard_utilization: opt('float'),
  at01s_credit_lines: opt('float'),
  g102s_months_since_most_recent_inquiry: opt('float'),
  fico_score: opt('str'),
};

const [F, I, S, B] = ['float', 'int', 'str', 'bool'] as const;
/** Listing fields filter_listings and the order need; the rest are only decoded. */
const LISTING_READS: Readonly<Record<string, PyField>> = {
  credit_bureau_values_bureau2_indexed: opt({ dataclass: BUREAU }, 'filter_listings: a listing without it is never bid on'),
  platform_rating: opt(S, 'check_grade, and the order e-mail'),
  months_employed: opt(F, 'check_employment_length: >= years * 12'),
  stated_monthly_income: opt(F, 'filter_listings: > 0, then the divisor of the payment-to-income ratio'),
  listing_monthly_payment: opt(F, 'check_payment_income_ratio: payment / monthly income'),
  listing_number: opt(I, "the bid's listing_id, and matched against the orders' bids"),
};
/** model/listings.py Listing: every field Optional, so only a present value of another type fails the decode. */
export const LISTING: PyClass = {
  ...Object.fromEntries(
    (
      [
        ['listing_start_date', S],
        ['listing_status', I],
        ['listing_status_reason', S],
        ['verification_stage', I],
        ['listing_amount', F],
        ['amount_funded', F],
        ['amount_remaining', F],
        ['percent_funded', F],
        ['partial_funding_indicator', B],
        ['funding_threshold', F],
        ['lender_yield', F],
        ['borrower_rate', F],
        ['borrower_apr', F],
        ['listing_term', I],
        ['platform_score', I],
        ['listing_category_id', I],
        ['listing_title', S],
        ['income_range', I],
        ['income_range_description', S],
        ['income_verifiable', B],
        ['dti_wplatform_loan', F],
        ['employment_status_description', S],
        ['occupation', S],
        ['borrower_state', S],
        ['prior_platform_loans_active', I],
        ['prior_platform_loans', I],
        ['prior_platform_loans_principal_borrowed', F],
        ['prior_platform_loans_principal_outstanding', F],
        ['prior_platform_loans_balance_outstanding', F],
        ['prior_platform_loans_cycles_billed', I],
        ['prior_platform_loans_ontime_payments', I],
        ['prior_platform_loans_late_cycles', I],
        ['prior_platform_loans_late_payments_one_month_plus', I],
        ['max_prior_platform_loan', F],
        ['min_prior_platform_loan', F],
        ['prior_platform_loan_earliest_pay_off', I],
        ['lender_indicator', I],
        ['channel_code', S],
        ['amount_participation', F],
        ['investment_typeid', I],
        ['investment_type_description', S],
        ['last_updated_date', S],
        ['invested', B],
        ['biddable', B],
        ['has_mortgage', B],
        ['historical_return', F],
        ['historical_return_10th_pctl', F],
        ['historical_return_90th_pctl', F],
        ['estimated_monthly_housing_expense', F],
        ['co_borrower_application', B],
        ['investment_product_id', I],
        ['decision_bureau', S],
        ['member_key', S],
        ['listing_creation_date', S],
      ] as const
    ).map(([name, type]) => [name, opt(type)]),
  ),
  ...LISTING_READS,
};

/** model/listings.py Listings: its three fields have no default. */
export const LISTINGS: PyClass = {
  result: req({ list: LISTING }),
  result_count: req(I, 'buy_notes: no listing is looked at when it is 0'),
  total_count: req(I),
};

/** model/orders.py BidRequest. */
const BID: PyClass = {
  listing_id: opt(I, 'trim_filtered_listing: a listing already in an order IN_PROGRESS is not bid on again'),
  bid_amount: opt(F),
  bid_status: opt(S),
};
/** model/orders.py OrdersResponse, as the orders list is read (trim_filtered_listing). */
export const ORDER_IN_LIST: PyClass = {
  order_id: opt(S),
  order_date: opt(S),
  bid_requests: opt({ list: BID }, "trim_filtered_listing: the order's bids"),
  order_status: opt(S, 'trim_filtered_listing: == "IN_PROGRESS"'),
  source: opt(S),
};
/** model/orders.py OrdersList, paged by offset while the offset is below total_count. */
export const ORDERS_LIST: PyClass = {
  result: opt({ list: ORDER_IN_LIST }, 'get_orders_list: the orders it trims against; None reads none and stops paging'),
  result_count: opt(I),
  total_count: opt(I, 'get_orders_list: pages on while the offset is below it; None stops after the first page'),
};
/** OrdersResponse as the answer to POST /v1/orders/ is read (logged, and in the order e-mail). */
export const ORDER_PLACED: PyClass = {
  ...ORDER_IN_LIST,
  order_id: opt(S, 'buy_notes logs "Order submitted: {order_id}"; the order e-mail'),
  order_status: opt(S, 'the order e-mail'),
  order_date: opt(S, 'the order e-mail'),
};

/**
 * The token answer, kept as a dict (the OAuthToken dataclass is declared but never used): init_token fails unless
 * the status is ok and `access_token` is truthy; it logs `expires_in` (a .get, so absence is no failure).
 */
export const TOKEN: PyClass = {
  access_token: req(S, 'init_token: raises unless it is there and not empty; the bearer of every call'),
  expires_in: opt(I),
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeName = (t: PyType): string => (typeof t === 'string' ? t : 'dict' in t ? 'a dict' : 'list' in t ? 'a list' : 'a dataclass');

/** What is wrong with a present, non-null `v` as a `type` (nothing: an empty list). */
function typeProblems(v: unknown, type: PyType, at: string): string[] {
  const bad = (what: string): string[] => [`${at}: ${JSON.stringify(v)} is not ${what}`];
  if (typeof type === 'object') {
    if ('dataclass' in type) return isObject(v) ? problems(v, type.dataclass, at) : bad('an object');
    if ('list' in type) {
      if (!Array.isArray(v)) return bad('a list');
      return v.flatMap((x, i) =>
        isObject(x) ? problems(x, type.list, `${at}[${i}]`) : [`${at}[${i}]: ${JSON.stringify(x)} is not an object`],
      );
    }
    if (!isObject(v)) return bad('an object');
    return Object.entries(v).flatMap(([k, x]) =>
      x === null ? [`${at}.${k}: null is not ${type.dict}`] : typeProblems(x, type.dict, `${at}.${k}`),
    );
  }
  switch (type) {
    case 'float':
      return typeof v === 'number' && Number.isFinite(v) ? [] : bad('a number (float)');
    case 'int':
      return Number.isSafeInteger(v) ? [] : bad('a whole number (int)');
    case 'str':
      return typeof v === 'string' ? [] : bad('a string (str)');
    case 'bool':
      return typeof v === 'boolean' ? [] : bad('true or false (bool)');
  }
}

/**
 * Every problem of `answer` as the client decodes and reads it as `cls`, one line each naming the field
 * (`path.field is missing`, `path.field: VALUE is not …`, `path.field: null, but …`); none: an empty list.
 */
export function problems(answer: unknown, cls: PyClass, path: string): string[] {
  if (!isObject(answer)) return [`${path}: ${JSON.stringify(answer)} is not an object`];
  const out: string[] = [];
  for (const [name, field] of Object.entries(cls)) {
    const at = `${path}.${name}`;
    const v = answer[name];
    const why = field.reads === undefined ? '' : ` (the client reads it: ${field.reads})`;
    if (v === undefined) {
      if (!field.optional) out.push(`${at} is missing: the field has no default${why}`);
      else if (field.reads !== undefined) out.push(`${at} is missing${why}`);
    } else if (v === null) {
      if (!field.optional) out.push(`${at}: null is not ${typeName(field.type)}`);
      else if (field.reads !== undefined) out.push(`${at}: null${why}`);
    } else out.push(...typeProblems(v, field.type, at));
  }
  return out;
}

/** The field a problem line names (`result[3].months_employed: …` → `months_employed`). */
export const problemField = (line: string): string => /([A-Za-z0-9_]+)(\[\d+\])?(:| is missing)/.exec(line)?.[1] ?? line;
