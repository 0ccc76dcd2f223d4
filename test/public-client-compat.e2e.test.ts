/**
 * Compatibility with the public clients of the real marketplace (issue 15, item 5): the built `mkt mock serve
 * --allow-password-grant` is driven with requests shaped exactly as such a client sends them, and every field
 * its models require is checked for presence and type.
 *
 * The shapes and field lists are those of grahamtt/prosper-api (Python, pydantic models), read at commit
 * 86b314e: prosper_api/auth_token_manager.py (password and refresh grants: a form body, a lower-case `accept`
 * header), prosper_api/client.py (resource calls: `Authorization: bearer …`, `Accept: application/json`, a JSON
 * body `{}` even on GET, trailing slashes, `sort_by` as "field dir", multivalue filters comma-joined, list values
 * of `borrower_state` and `listing_status` as repeated parameters, booleans as Python's `True`/`False`) and
 * prosper_api/models/__init__.py and enums.py (the fields below). Its brand word reads `platform` here, as in
 * the spec, and its TransUnion object is the spec's indexed bureau2 object. Where it and the spec differ, the
 * spec wins and the entry says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type RawAnswer } from './helpers/raw-http.js';
import { serveMock, type ServedMock } from './helpers/serve.js';

/** How a field is typed. `money`: a number with at most 2 decimals; a list: one of those values. */
type Kind = 'money' | 'decimal' | 'int' | 'str' | 'date' | 'datetime' | 'bool' | 'ratings' | 'digits'
  | readonly (string | number)[] | { nullable: Kind } | { object: Fields } | { list: Fields };
/** A model: the fields it requires, and those it takes when present (then never null, unless its kind says so). */
interface Fields {
  required: Readonly<Record<string, Kind>>;
  optional?: Readonly<Record<string, Kind>>;
}

// prosper_api/models/enums.py, with one change: ProsperRating.NA is "N/A" there, `NA` here (DESIGN.md; the spec's
// AmountsByRating keys are NA…AA in the same client).
const RATINGS = ['AA', 'A', 'B', 'C', 'D', 'E', 'HR', 'NA'];
const LISTING_STATUS = [2, 3, 4, 5, 6, 7];
const EMPLOYMENT_STATUS = ['Employed', 'Self-employed', 'Retired', 'Not employed', 'Other'];
const FICO = ['<600', '600-619', '620-639', '640-659', '660-679', '680-699', '700-719', '720-739', '740-759', '760-779', '780-799', '800-819', '820-850'];
const LOAN_STATUS = [0, 1, 2, 3, 4, 5, 6];
const BID_RESULT = [
  'NONE', 'AMOUNT_BID_TOO_HIGH', 'AMOUNT_BID_TOO_LOW', 'BID_FAILED', 'BID_SUCCEEDED', 'CANNOT_BID_ON_FRACTIONAL_LOANS',
  'CANNOT_BID_ON_OWN_LISTING', 'INSUFFICIENT_FUNDS', 'INTERNAL_ERROR', 'INVESTMENT_ORDER_ALREADY_PROCESSED',
  'LENDER_NOT_ELIGIBLE_TO_BID', 'LISTING_NOT_BIDDABLE', 'SUITABILITY_REQUIREMENTS_NOT_MET', 'PARTIAL_BID_SUCCEEDED',
];

/** `Account` (every field required; `AmountsByRating` for the two by-rating objects). */
const ACCOUNT: Fields = {
  required: {
    available_cash_balance: 'money', pending_investments_primary_market: 'money', pending_investments_secondary_market: 'money',
    pending_quick_invest_orders: 'money', total_principal_received_on_active_notes: 'money',
    total_amount_invested_on_active_notes: 'money', outstanding_principal_on_active_notes: 'money', total_account_value: 'money',
    pending_deposit: 'money', last_deposit_amount: 'money', last_deposit_date: 'datetime', last_withdraw_amount: 'money',
    last_withdraw_date: 'datetime', external_user_id: 'str', platform_account_digest: 'str', invested_notes: 'ratings', pending_bids: 'ratings',
  },
};

/** `CreditBureauValues` (the indexed bureau2 object). */
const BUREAU: Fields = {
  required: {
    g102s_months_since_most_recent_inquiry: 'decimal', credit_report_date: 'datetime', at02s_open_accounts: 'decimal',
    g041s_accounts_30_or_more_days_past_due_ever: 'decimal', g093s_number_of_public_records: 'decimal',
    g094s_number_of_public_record_bankruptcies: 'decimal', g095s_months_since_most_recent_public_record: 'decimal',
    g218b_number_of_delinquent_accounts: 'decimal', g980s_inquiries_in_the_last_6_months: 'decimal',
    re20s_age_of_oldest_revolving_account_in_months: 'decimal', s207s_months_since_most_recent_public_record_bankruptcy: 'decimal',
    re33s_balance_owed_on_all_revolving_accounts: 'decimal', at57s_amount_delinquent: 'decimal', g099s_public_records_last_24_months: 'decimal',
    at20s_oldest_trade_open_date: 'decimal', at03s_current_credit_lines: 'decimal', re101s_revolving_balance: 'decimal',
    bc34s_bankcard_utilization: 'decimal', at01s_credit_lines: 'decimal', fico_score: FICO,
  },
};

/** `Listing`. */
const LISTING: Fields = {
  required: {
    listing_number: 'int', platform_rating: RATINGS, listing_title: 'str', listing_start_date: 'str', listing_creation_date: 'datetime',
    listing_status: LISTING_STATUS, listing_status_reason: 'str', invested: 'bool', biddable: 'bool', has_mortgage: 'bool',
    credit_bureau_values_bureau2_indexed: { object: BUREAU }, employment_status_description: EMPLOYMENT_STATUS,
    investment_type_description: 'str', last_updated_date: 'datetime', decision_bureau: 'str', member_key: 'str', borrower_state: 'str',
    co_borrower_application: 'bool', income_verifiable: 'bool', lender_yield: 'decimal',
  },
  optional: {
    occupation: 'str', loan_number: 'int', listing_end_date: 'datetime', loan_origination_date: 'datetime', months_employed: 'decimal',
    investment_product_id: [0, 1], listing_amount: 'money', amount_funded: 'money', amount_remaining: 'money', percent_funded: 'decimal',
    partial_funding_indicator: 'bool', funding_threshold: 'decimal', borrower_rate: 'decimal', borrower_apr: 'decimal', listing_term: 'int',
    listing_monthly_payment: 'money', platform_score: 'int', listing_category_id: 'int', income_range: [0, 1, 2, 3, 4, 5, 6, 7],
    income_range_description: 'str', stated_monthly_income: 'money', dti_wplatform_loan: 'decimal', lender_indicator: 'int',
    // Optional[int] there, a string in the spec: digits, which pydantic reads as an int.
    channel_code: 'digits',
    amount_participation: 'money', investment_typeid: [0, 1], estimated_monthly_housing_expense: 'money', historical_return: 'decimal',
    historical_return_10th_pctl: 'decimal', historical_return_90th_pctl: 'decimal', prior_platform_loans_active: 'int',
    prior_platform_loans: 'int', prior_platform_loan_earliest_pay_off: 'int', prior_platform_loans_principal_borrowed: 'money',
    prior_platform_loans_principal_outstanding: 'money', prior_platform_loans_balance_outstanding: 'money',
    prior_platform_loans_cycles_billed: 'int', prior_platform_loans_ontime_payments: 'int', prior_platform_loans_late_cycles: 'int',
    prior_platform_loans_late_payments_one_month_plus: 'int', prior_platform_loans31dpd: 'decimal', max_prior_platform_loan: 'money',
    min_prior_platform_loan: 'money', verification_stage: 'int', combined_dti_wplatform_loan: 'decimal', combined_stated_monthly_income: 'money',
  },
};

/** `Loan`. */
const LOAN: Fields = {
  required: {
    loan_number: 'int', amount_borrowed: 'money', borrower_rate: 'decimal', platform_rating: RATINGS, term: 'int', age_in_months: 'int',
    origination_date: 'date', days_past_due: 'int', principal_balance: 'money', service_fees_paid: 'money', principal_paid: 'money',
    interest_paid: 'money', platform_fees_paid: 'money', late_fees_paid: 'money', collection_fees_paid: 'money',
    debt_sale_proceeds_received: 'money', loan_status: LOAN_STATUS, loan_status_description: 'str',
    // Required there, with a code 0 for "not in default"; the spec answers null for a loan not in default.
    loan_default_reason: { nullable: [1, 2, 3, 4, 5, 6, 7] },
    next_payment_due_date: 'date', next_payment_due_amount: 'money',
  },
  optional: { loan_default_reason_description: { nullable: 'str' } },
};

/** `BidRequest` and `Order`. */
const BID: Fields = {
  required: { listing_id: 'int', bid_status: ['PENDING', 'INVESTED', 'EXPIRED'], bid_amount: 'money' },
  optional: { bid_amount_placed: 'money', bid_result: BID_RESULT },
};
const ORDER: Fields = {
  required: { order_id: 'str', order_date: 'datetime', bid_requests: { list: BID }, order_status: ['IN_PROGRESS', 'COMPLETED'], source: ['API', 'AI', 'MI'] },
  optional: { order_amount: 'money', order_amount_placed: 'money', order_amount_invested: 'money' },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with `v` as a `kind` (nothing: an empty list). */
function kindProblem(v: unknown, kind: Kind, path: string): string[] {
  const bad = (what: string): string[] => [`${path}: ${JSON.stringify(v)} is not ${what}`];
  if (Array.isArray(kind)) return kind.includes(v as never) ? [] : bad(`one of ${kind.join(', ')}`);
  if (typeof kind === 'object' && 'nullable' in kind) return v === null ? [] : kindProblem(v, kind.nullable, path);
  if (typeof kind === 'object' && 'object' in kind) return isObject(v) ? problems(v, kind.object, path) : bad('an object');
  if (typeof kind === 'object' && 'list' in kind) {
    return Array.isArray(v) ? v.flatMap((x, i) => (isObject(x) ? problems(x, kind.list, `${path}[${i}]`) : bad('a list of objects'))) : bad('a list');
  }
  switch (kind) {
    case 'decimal': return typeof v === 'number' && Number.isFinite(v) ? [] : bad('a number');
    case 'money': return typeof v === 'number' && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6 ? [] : bad('an amount in cents');
    case 'int': return Number.isSafeInteger(v) ? [] : bad('a whole number');
    case 'bool': return typeof v === 'boolean' ? [] : bad('true or false');
    case 'str': return typeof v === 'string' ? [] : bad('a string');
    case 'digits': return typeof v === 'string' && /^\d+$/.test(v) ? [] : bad('a string of digits');
    case 'date': return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? [] : bad('a date (yyyy-MM-dd)');
    case 'datetime': return typeof v === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/.test(v) ? [] : bad('a date-time');
    case 'ratings': {
      if (!isObject(v)) return bad('an object of amounts by rating');
      return RATINGS.flatMap((r) => kindProblem(v[r], 'money', `${path}.${r}`));
    }
    default: return bad('of a known kind');
  }
}

/** Every problem of `o` against `fields`: a required field missing or mistyped, an optional one null or mistyped. */
function problems(o: Record<string, unknown>, fields: Fields, path: string): string[] {
  const out: string[] = [];
  for (const [name, kind] of Object.entries(fields.required)) {
    out.push(...(name in o ? kindProblem(o[name], kind, `${path}.${name}`) : [`${path}.${name} is missing`]));
  }
  for (const [name, kind] of Object.entries(fields.optional ?? {})) if (name in o) out.push(...kindProblem(o[name], kind, `${path}.${name}`));
  return out;
}

let mock: ServedMock;
let port = 0;
let passwords = new Map<string, string>();

beforeAll(async () => {
  mock = await serveMock(['--seed', '7', '--listings', '300', '--frozen', '--start', '2026-06-01T12:00:00Z', '--allow-password-grant']);
  port = Number(new URL(mock.origin).port);
  const line = /passwords, for the password grant \(outside the spec; on\): (.+)$/m.exec(mock.banner)?.[1] ?? '';
  passwords = new Map(line.split(', ').map((pair) => pair.split(' ') as [string, string]));
}, 30_000);
afterAll(async () => {
  mock?.child.kill('SIGTERM');
  await mock?.exited;
});

/** The token endpoint as the client's AuthTokenManager calls it: a form body and `accept` in lower case. */
function tokenRequest(form: Record<string, string>, accept = 'accept'): Promise<RawAnswer> {
  return rawRequest(port, {
    method: 'POST', target: '/v1/security/oauth/token', body: new URLSearchParams(form).toString(),
    headers: { [accept]: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
  });
}

const client = { client_id: 'mkt-demo', client_secret: 'mkt-demo-secret' };
let access = '';

async function signIn(): Promise<string> {
  if (access) return access;
  const res = await tokenRequest({ grant_type: 'password', ...client, username: 'alice', password: passwords.get('alice') ?? '' });
  expect(res.status, res.text).toBe(200);
  access = (JSON.parse(res.text) as { access_token: string }).access_token;
  return access;
}

/** A resource call as the client's `_do_request` makes it: bearer in lower case, `Accept`, and `json={}` even on GET. */
async function resource(method: string, target: string, body: unknown = {}, headers?: Record<string, string>): Promise<{ status: number; body: any }> {
  const token = await signIn();
  const text = JSON.stringify(body);
  // requests sends a Content-Length with its JSON body, GET included (node:http would send neither it nor chunking on a GET).
  const sent = headers ?? { Authorization: `bearer ${token}`, Accept: 'application/json', 'Content-Type': 'application/json' };
  const res = await rawRequest(port, { method, target, body: text, headers: { ...sent, 'Content-Length': String(Buffer.byteLength(text)) } });
  return { status: res.status, body: res.text ? JSON.parse(res.text) : null };
}

describe('signing in as the public clients do', () => {
  it('prints each seeded user a password in the banner, the same as /__mock/state shows beside the name', async () => {
    expect(passwords.size, mock.banner).toBeGreaterThanOrEqual(5);
    const state = JSON.parse((await rawRequest(port, { target: '/__mock/state' })).text) as { users: { user: string; name: string; password: string }[] };
    for (const u of state.users) expect(passwords.get(u.user), u.user).toBe(u.password);
  });

  it('the password grant, then the refresh grant, with form bodies and either header casing', async () => {
    const first = await tokenRequest({ grant_type: 'password', ...client, username: 'bob', password: passwords.get('bob')! });
    expect(first.status, first.text).toBe(200);
    const t = JSON.parse(first.text) as Record<string, unknown>;
    expect([typeof t.access_token, t.token_type, typeof t.refresh_token, Number.isInteger(t.expires_in)]).toEqual(['string', 'bearer', 'string', true]);
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', ...client, refresh_token: String(t.refresh_token) }, 'Accept');
    expect(refreshed.status, refreshed.text).toBe(200);
  });

  it('a wrong password or an unknown user is invalid_grant in the OAuth error shape', async () => {
    for (const [username, password] of [['alice', 'wrong'], ['nobody', passwords.get('alice')!]]) {
      const res = await tokenRequest({ grant_type: 'password', ...client, username: username!, password: password! });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toMatchObject({ error: 'invalid_grant', error_description: expect.any(String) });
    }
  });
});

describe('answers the public clients can read', () => {
  it('the account (GET /v1/accounts/platform/ with the trailing slash) has every field of the Account model', async () => {
    const res = await resource('GET', '/v1/accounts/platform/');
    expect(res.status).toBe(200);
    expect(problems(res.body, ACCOUNT, 'account')).toEqual([]);
  });

  it("the listings search with the client's default query has every Listing field, none null", async () => {
    const q = 'sort_by=lender_yield+desc&limit=500&biddable=true&platform_rating=AA%2CA%2CB%2CC%2CD%2CE%2CHR';
    const res = await resource('GET', `/listingsvc/v2/listings/?${q}`);
    expect(res.status).toBe(200);
    expect(res.body.result.length).toBeGreaterThan(100);
    expect(res.body.result.flatMap((l: Record<string, unknown>, i: number) => problems(l, LISTING, `result[${i}]`))).toEqual([]);
    const yields = res.body.result.map((l: { lender_yield: number }) => l.lender_yield);
    expect(yields).toEqual([...yields].sort((a, b) => b - a));
    const statuses = new Set(res.body.result.map((l: { employment_status_description: string }) => l.employment_status_description));
    expect(statuses.size).toBeGreaterThanOrEqual(3);
    // The old mock's own values are not the marketplace's: a closed list answers 400 naming the parameter and the values it takes.
    const old = await resource('GET', '/listingsvc/v2/listings/?employment_status_description=Full-time');
    expect(old.status).toBe(400);
    expect(old.body.message).toMatch(/employment_status_description.*Full-time.*Self-employed/);
  });

  it('repeated parameters, comma lists, Python booleans, encoded commas and either trailing slash ask the same', async () => {
    const total = async (q: string, path = '/listingsvc/v2/listings/') => {
      const res = await resource('GET', `${path}?${q}`);
      expect(res.status, `${q}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body.total_count as number;
    };
    const states = await total('borrower_state=CA,TX,NY,FL');
    expect(states).toBeGreaterThan(0);
    expect(await total('borrower_state=CA&borrower_state=TX&borrower_state=NY&borrower_state=FL')).toBe(states);
    expect(await total('borrower_state=CA%2CTX%2CNY%2CFL', '/listingsvc/v2/listings')).toBe(states);
    const employed = await total('employment_status_description=Employed,Self-employed');
    expect(await total('employment_status_description=Employed&employment_status_description=Self-employed')).toBe(employed);
    expect(await total('employment_status_description=Not+employed,Retired,Other') + employed).toBe(await total(''));
    expect(await total('has_mortgage=True')).toBe(await total('has_mortgage=true'));
    expect(await total('has_mortgage=False') + await total('has_mortgage=True')).toBe(await total(''));
    expect(await total('listing_status=2&listing_status=6')).toBe(await total('listing_status=2'));
  });

  it('sort_by as the clients write it: "field dir" with a plus or %20, or the field alone (ascending)', async () => {
    const numbers = async (sort: string) => (await resource('GET', `/listingsvc/v2/listings/?limit=50&sort_by=${sort}`)).body.result
      .map((l: { listing_number: number }) => l.listing_number) as number[];
    const desc = await numbers('listing_number+desc');
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    expect(await numbers('listing_number%20desc')).toEqual(desc);
    const asc = await numbers('listing_number');
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
  });

  it('platform_rating=NA is a filter value: the old loans rated NA the caller holds', async () => {
    const res = await resource('GET', '/listingsvc/v2/listings/?biddable=false&platform_rating=NA');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total_count).toBeGreaterThan(0);
    for (const l of res.body.result) expect(l.platform_rating).toBe('NA');
  });

  it('the loans list sorted as the client sorts it has every Loan field: a date due on every loan, no default reason unless defaulted', async () => {
    const res = await resource('GET', '/v1/loans/?sort_by=platform_rating+desc&offset=0&limit=25');
    expect(res.status).toBe(200);
    expect(res.body.result.length).toBe(Math.min(25, res.body.total_count));
    expect(res.body.total_count).toBeGreaterThan(10);
    expect(res.body.result.flatMap((l: Record<string, unknown>, i: number) => problems(l, LOAN, `result[${i}]`))).toEqual([]);
    const all = [];
    for (let offset = 0; offset < res.body.total_count; offset += 25) all.push(...(await resource('GET', `/v1/loans/?offset=${offset}&limit=25`)).body.result);
    for (const l of all) {
      if (l.loan_status === 1) expect(l.loan_default_reason, `loan ${l.loan_number}`).toBeNull();
      if (l.loan_default_reason === null) expect(l.loan_default_reason_description).toBeNull();
    }
    expect(all.some((l) => l.loan_status === 4 && l.loan_default_reason === null)).toBe(true);
    expect(all.some((l) => l.platform_rating === 'NA')).toBe(true);
  });

  it('an order placed as the client places it, and the orders list, have every Order field', async () => {
    const listing = (await resource('GET', '/listingsvc/v2/listings/?amount_remaining_min=100&limit=1')).body.result[0];
    const placed = await resource('POST', '/v1/orders/', { bid_requests: [{ listing_id: listing.listing_number, bid_amount: 25 }] });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(problems(placed.body, ORDER, 'order')).toEqual([]);
    const list = await resource('GET', '/v1/orders/?sort_by=platform_rating+desc');
    expect(list.status).toBe(200);
    expect(list.body.result.flatMap((o: Record<string, unknown>, i: number) => problems(o, ORDER, `result[${i}]`))).toEqual([]);
    expect(list.body.result[0]).not.toHaveProperty('saved_search');
  });

  it('takes header names in any case and the bearer scheme in any case', async () => {
    const token = await signIn();
    const variants: Record<string, string>[] = [
      { AUTHORIZATION: `Bearer ${token}`, ACCEPT: 'application/json' },
      { authorization: `BEARER ${token}`, accept: 'application/json' },
      { Authorization: `bearer ${token}`, Accept: 'application/json', 'CONTENT-TYPE': 'application/json' },
    ];
    for (const headers of variants) {
      const res = await resource('GET', '/v1/accounts/platform', {}, headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
    }
  });
});
