/**
 * The calls of jmelby70/investpeer-prosper-py at commit 9531564 (2026-02-15), made as its code makes them, with
 * requests 2.32.5 (requirements.txt; no brotli or zstandard, so `Accept-Encoding: gzip, deflate`), from
 * service/prosper_rest_service.py:
 * - init_token: POST {base}/v1/security/oauth/token, the password grant as a form (`data=` a dict: grant_type,
 *   client_id, client_secret, username, password, urlencoded with quote_plus), `Accept: application/json`.
 * - get_entity: GET with `Accept: application/json`, `Content-Type: application/json` (even with no body) and
 *   `Authorization: bearer …`; on 401 or 403 it signs in again and repeats the call once.
 * - get_account: {base}/v1/accounts/prosper, no trailing slash. get_listings: {base}/listingsvc/v2/listings?limit=5000
 *   &biddable=true&invested=false then `&key=value` for each global filter (config/prosper_config.py; defaults
 *   listing_category_id=1, has_mortgage=true, income_range=4,5,6); one page only, relying on the service's clamp.
 * - get_orders_list: {base}/v1/orders/?limit=25, then ?limit=25&offset=N while N (the items read so far) is below
 *   total_count. submit_order: POST {base}/v1/orders/ with `json=` the body create_order_request builds (Python's
 *   json.dumps: `{"bid_requests": [{"listing_id": N, "bid_amount": 25.0}, …]}`), the same 401/403 repeat.
 * and between them the steps of service/prosper_notes_service.py buy_notes (model/filterset.py's checks, the trim
 * against the orders list, create_order_request). Each answer is decoded as dacite does, with what the code reads
 * after (public-client-investpeer.ts): a problem raises, as in the client. Its brand word reads `platform`.
 */
import { ACCOUNT, LISTINGS, ORDER_PLACED, ORDERS_LIST, problems, TOKEN, type PyClass } from './public-client-investpeer.js';
import { rawRequest, type RawAnswer } from './raw-http.js';

/** config/prosper_config.py ProsperConfig, as the environment sets it. */
export interface Config {
  runMode: 'test' | 'prod';
  minimumInvestmentAmount: number;
  orderListLimit: number;
  globalFilters: readonly (readonly [string, string])[];
}
export const SHIPPED: Config = {
  runMode: 'test',
  minimumInvestmentAmount: 25,
  orderListLimit: 25,
  globalFilters: [
    ['listing_category_id', '1'],
    ['has_mortgage', 'true'],
    ['income_range', '4,5,6'],
  ],
};
/** config/filterset.yml as the repository ships it: grades, employment_length_over, inquiries_under, delinquencies_under, payment_income_ratio_under, loan_count_over. */
const FILTER_SETS = (
  [
    ['C,D,E,HR', 3, 0, 0, 0.1, 0],
    ['C,D,E,HR', 2, 0, 0, 0.11, 4],
    ['B,C,D,E', 0, 1, 1, 0.12, 8],
    ['AA,A,B,C,D,E', 0, 2, 2, 0.13, 12],
  ] as const
).map(([grades, years, inquiries, delinquencies, ratio, loanCountOver]) => ({
  grades,
  years,
  inquiries,
  delinquencies,
  ratio,
  loanCountOver,
}));

/** requests' session headers, then the client's (a CaseInsensitiveDict: its Accept takes the place of requests' `*∕*`). */
const sessionHeaders = (own: Record<string, string>): Record<string, string> => ({
  'User-Agent': 'python-requests/2.32.5',
  'Accept-Encoding': 'gzip, deflate',
  Accept: own.Accept ?? '*/*',
  Connection: 'keep-alive',
  ...own,
});
/** urllib.parse.quote_plus: only letters, digits and `_.-~` stay; a space is `+`. */
export const quotePlus = (s: string): string =>
  encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
/** repr of a Python float, as json.dumps writes one (25.0). */
const pyFloat = (x: number): string => (Number.isInteger(x) ? x.toFixed(1) : String(x));

/** Python's `format(x, ',.2f')`. */
const pyMoney = (x: number): string => x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An answer as the client holds it once decoded. */
export type Json = any;

/** The client's ProsperRestService and ProsperNotesService over one mock (client mkt-demo): a warm instance keeps its token. */
export class Investpeer {
  private token: Record<string, unknown> | null = null;
  constructor(
    private readonly port: number,
    private readonly user: { username: string; password: string },
    private readonly config: Config,
  ) {}

  /** Sends one request as requests does; a GET has no body and so no Content-Length. */
  private send(method: 'GET' | 'POST', target: string, own: Record<string, string>, body?: string): Promise<RawAnswer> {
    const headers = sessionHeaders(own);
    if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
    return rawRequest(this.port, { method, target, headers, body });
  }

  /** init_token: the password grant; raises unless ok and access_token is there. */
  async initToken(): Promise<void> {
    const form: [string, string][] = [
      ['grant_type', 'password'],
      ['client_id', 'mkt-demo'],
      ['client_secret', 'mkt-demo-secret'],
      ['username', this.user.username],
      ['password', this.user.password],
    ];
    const body = form.map(([k, v]) => `${quotePlus(k)}=${quotePlus(v)}`).join('&');
    const res = await this.send(
      'POST',
      '/v1/security/oauth/token',
      { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    );
    const answer = res.status < 400 ? (JSON.parse(res.text) as Record<string, unknown>) : null;
    if (!answer?.access_token) throw new Error(`Exception initializing Prosper OAuth Token ${res.status}`);
    this.token = decode(answer, TOKEN, 'token');
  }

  private async httpHeaders(): Promise<Record<string, string>> {
    if (!this.token?.access_token) await this.initToken();
    return { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `bearer ${String(this.token!.access_token)}` };
  }

  /** get_entity: GET, signing in again once on 401/403; the answer decoded as dacite does. */
  private async getEntity(target: string, cls: PyClass, what: string): Promise<Json> {
    let res = await this.send('GET', target, await this.httpHeaders());
    if (res.status === 401 || res.status === 403) {
      await this.initToken();
      res = await this.send('GET', target, await this.httpHeaders());
    }
    if (res.status >= 400) throw new Error(`Error retrieving ${what}: ${res.status} ${res.text}`);
    return decode(JSON.parse(res.text), cls, what);
  }

  getAccount = (): Promise<Json> => this.getEntity('/v1/accounts/platform', ACCOUNT, 'Account');

  getListings(): Promise<Json> {
    let target = '/listingsvc/v2/listings?limit=5000&biddable=true&invested=false';
    for (const [key, value] of this.config.globalFilters) target += `&${key}=${value}`;
    return this.getEntity(target, LISTINGS, 'Listings');
  }

  async getOrdersList(): Promise<Json> {
    const limit = this.config.orderListLimit;
    const list = await this.getEntity(`/v1/orders/?limit=${limit}`, ORDERS_LIST, 'OrdersList');
    if (list.result != null && list.total_count != null) {
      let i = list.result.length;
      while (i < list.total_count) {
        const next = await this.getEntity(`/v1/orders/?limit=${limit}&offset=${i}`, ORDERS_LIST, 'OrdersList');
        if (!next.result?.length) break;
        list.result.push(...next.result);
        i += next.result.length;
      }
    }
    return list;
  }

  /** The body of the last order posted, as json.dumps wrote it. */
  lastOrderBody = '';

  /** submit_order: `json=` the request, the same 401/403 repeat; raises unless ok. */
  async submitOrder(bids: { listing_id: number; bid_amount: number }[]): Promise<Json> {
    const body =
      (this.lastOrderBody = `{"bid_requests": [${bids.map((b) => `{"listing_id": ${b.listing_id}, "bid_amount": ${pyFloat(b.bid_amount)}}`).join(', ')}]}`);
    let res = await this.send('POST', '/v1/orders/', await this.httpHeaders(), body);
    if (res.status === 401 || res.status === 403) {
      await this.initToken();
      res = await this.send('POST', '/v1/orders/', await this.httpHeaders(), body);
    }
    if (res.status >= 400) throw new Error(`Error submitting order: ${res.status} ${res.text}`);
    return decode(JSON.parse(res.text), ORDER_PLACED, 'OrdersResponse');
  }

  /** The account_summary event: the account, and the e-mail text notification_service formats from it. */
  async accountSummary(): Promise<string> {
    const a = await this.getAccount();
    const line = (label: string, x: number): string => `${label.padEnd(30)} $${pyMoney(x).padStart(12)}`;
    return [
      'Account Summary',
      '='.repeat(40),
      line('Available Cash Balance:', a.available_cash_balance),
      line('Pending Investments:', a.pending_investments_primary_market),
      line('Total Principal Received:', a.total_principal_received_on_active_notes),
      line('Total Amount Invested:', a.total_amount_invested_on_active_notes),
      line('Outstanding Principal:', a.outstanding_principal_on_active_notes),
      line('Total Account Value:', a.total_account_value),
      '\nInvested Note Grades:',
      '-'.repeat(40),
      ...Object.entries(a.invested_notes as Record<string, number>).map(
        ([grade, x]) => `${grade}:${' '.repeat(12)} $${pyMoney(x).padStart(12)}`,
      ),
    ].join('\n');
  }

  /** buy_notes, step by step (prosper_notes_service.py); what it saw, for the test to look at. */
  async buyNotes() {
    const minimum = this.config.minimumInvestmentAmount;
    const account = await this.getAccount();
    const cash: number = account.available_cash_balance;
    const seen = {
      listings: null as Json,
      filtered: [] as Json[],
      trimmed: [] as Json[],
      bids: [] as { listing_id: number; bid_amount: number }[],
      placed: null as Json,
    };
    if (!(this.config.runMode === 'test' || cash >= minimum)) return seen;
    seen.listings = await this.getListings();
    if (!(seen.listings.result_count > 0)) return seen;
    const maxLoanCount = Math.trunc(cash / minimum);
    for (const f of FILTER_SETS) {
      if (!(f.loanCountOver <= maxLoanCount)) continue;
      for (const l of seen.listings.result) {
        const bureau = l.credit_bureau_values_bureau2_indexed;
        if (
          f.grades
            .split(',')
            .map((g) => g.trim())
            .includes(l.platform_rating)
          && l.months_employed >= f.years * 12
          && bureau != null
          && bureau.g980s_inquiries_in_the_last_6_months <= f.inquiries
          && bureau.g218b_number_of_delinquent_accounts <= f.delinquencies
          && l.stated_monthly_income > 0
          && l.listing_monthly_payment / l.stated_monthly_income <= f.ratio
        )
          seen.filtered.push(l);
      }
    }
    if (seen.filtered.length === 0) return seen;
    // trim_filtered_listing: leave out listings already in an order IN_PROGRESS, then at most maxLoanCount.
    const orders = await this.getOrdersList();
    let trimmed = [...seen.filtered];
    if (orders.result != null) {
      for (const o of orders.result) {
        if (o.order_status !== 'IN_PROGRESS' || o.bid_requests == null) continue;
        for (const b of o.bid_requests)
          for (const l of [...trimmed]) if (b.listing_id === l.listing_number) trimmed.splice(trimmed.indexOf(l), 1);
      }
      trimmed = trimmed.slice(0, maxLoanCount);
    }
    seen.trimmed = trimmed;
    if (trimmed.length === 0 || this.config.runMode !== 'prod') return seen;
    // create_order_request: the first min(maxLoanCount, 100), each listing once.
    const ids: number[] = [];
    for (const l of trimmed.slice(0, Math.min(maxLoanCount, 100))) {
      if (ids.includes(l.listing_number)) continue;
      ids.push(l.listing_number);
      seen.bids.push({ listing_id: l.listing_number, bid_amount: minimum });
    }
    seen.placed = await this.submitOrder(seen.bids);
    return seen;
  }
}

/** dacite's from_dict and the reads after it: the client raises on the first problem; here all are named. */
function decode(answer: unknown, cls: PyClass, what: string): Json {
  const found = problems(answer, cls, what);
  if (found.length > 0) throw new Error(`the client cannot read the ${what} answer:\n${found.join('\n')}`);
  return answer;
}
