/**
 * The third public client of the real marketplace as a judge of the mock (issue 41 item 6), beside the two of
 * public-client-compat.e2e.test.ts: jmelby70/investpeer-prosper-py at commit 9531564 (2026-02-15), a Cloud Function
 * whose `buy_notes` event reads the account, searches listings, filters them by config/filterset.yml, reads the
 * orders list and (RUN_MODE=prod only) places one order; its `account_summary` event reads the account.
 *
 * Its calls are made as its code makes them by helpers/public-client-investpeer-calls.ts (each request's shape
 * cited there); what its code reads of each answer is in helpers/public-client-investpeer.ts.
 *
 * RUN_MODE=test (its default) runs everything but the order: it must make no POST /v1/orders/ at all. Each run is
 * counted on the mock's request log, per endpoint, against what the code must call. Two faults its code meets on a
 * schedule: a token expired between runs (401, sign in again), and an order whose answer was lost (its next runs
 * must not bid on those listings again: its trim against the orders list, then the search's invested=false).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../src/contract/mock-inspect.js';
import { Investpeer, quotePlus, SHIPPED, type Config, type Json } from './helpers/public-client-investpeer-calls.js';
import { ACCOUNT, LISTINGS, ORDER_PLACED, ORDERS_LIST, problemField, problems } from './helpers/public-client-investpeer.js';
import { rawRequest, type RawAnswer } from './helpers/raw-http.js';
import { serveMock, type ServedMock } from './helpers/serve.js';

let mock: ServedMock;
let port = 0;
let passwords = new Map<string, string>();

// 1300 listings: enough that the widened search below matches more than the 500 a page holds.
beforeAll(async () => {
  // Throttling off: the client's calls are replayed here as fast as the test can send them, not at its Python pace.
  mock = await serveMock([
    '--seed',
    '7',
    '--listings',
    '1300',
    '--frozen',
    '--start',
    '2026-06-01T12:00:00Z',
    '--allow-password-grant',
    '--rate-limit',
    'off',
  ]);
  port = Number(new URL(mock.origin).port);
  const line = /passwords, for the password grant \(outside the spec; on\): (.+)$/m.exec(mock.banner)?.[1] ?? '';
  passwords = new Map(line.split(', ').map((pair) => pair.split(' ') as [string, string]));
}, 30_000);
afterAll(async () => {
  mock?.child.kill('SIGTERM');
  await mock?.exited;
});

/** Its PROSPER_GLOBAL_FILTERS_* variables set wide, so the search matches more than a page and the filters find some. */
const WIDE: Config = {
  ...SHIPPED,
  globalFilters: [
    ['listing_category_id', Array.from({ length: 21 }, (_, i) => i + 1).join(',')],
    ['has_mortgage', 'false'],
    ['income_range', '0,1,2,3,4,5,6,7'],
  ],
};
/** The client as a fresh instance runs, signing in as `username` (alice unless named). */
const client = (config: Config, username = 'alice'): Investpeer =>
  new Investpeer(port, { username, password: passwords.get(username) ?? '' }, config);

const admin = (method: string, target: string, body?: unknown): Promise<RawAnswer> =>
  rawRequest(port, {
    method,
    target,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
  });

/** The requests the mock answered since the last call, oldest first (admin routes left out). */
async function answered(): Promise<RequestLogEntry[]> {
  const res = await admin('GET', '/__mock/requests?limit=1000');
  await admin('DELETE', '/__mock/requests');
  const entries = (JSON.parse(res.text) as { result: RequestLogEntry[] }).result.reverse();
  return entries.filter((e) => !e.path.startsWith('/__mock'));
}
/** Calls per endpoint, `METHOD /path` without a trailing slash. */
function perEndpoint(entries: RequestLogEntry[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of entries) {
    const key = `${e.method} ${e.path.replace(/\/$/, '')}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}
const TOKEN_CALL = 'POST /v1/security/oauth/token';
const ACCOUNT_CALL = 'GET /v1/accounts/platform';
const LISTINGS_CALL = 'GET /listingsvc/v2/listings';
const ORDERS_CALL = 'GET /v1/orders';
const SUBMIT_CALL = 'POST /v1/orders';

describe('the third client, jmelby70/investpeer-prosper-py 9531564: its calls, counted, and what it reads of the answers', () => {
  const earlier = 30;
  /** Listings its filters pick that an earlier order of the account, still IN_PROGRESS, already bids on. */
  const held = new Set<number>();
  beforeAll(async () => {
    expect(passwords.get('alice'), mock.banner).toBeTruthy();
    // Earlier orders of the account, one bid each, so that the orders list runs to a second page; the first on
    // three listings the client would pick, which the search still shows (invested=false counts invested amounts
    // only, `amount_participation`, and a PENDING bid has none yet): its trim must leave them out.
    const picks = [...new Set((await client(WIDE).buyNotes()).filtered.map((l: { listing_number: number }) => l.listing_number))];
    const form = `grant_type=password&client_id=mkt-demo&client_secret=mkt-demo-secret&username=alice&password=${quotePlus(passwords.get('alice')!)}`;
    const signIn = await rawRequest(port, {
      method: 'POST',
      target: '/v1/security/oauth/token',
      body: form,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const headers = {
      Authorization: `bearer ${JSON.parse(signIn.text).access_token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json',
    };
    const search = await rawRequest(port, { target: `/listingsvc/v2/listings/?amount_remaining_min=100&limit=${earlier + 10}`, headers });
    const others = (JSON.parse(search.text) as { result: { listing_number: number }[] }).result.map((l) => l.listing_number);
    let placed = 0;
    for (const [i, n] of [...picks.slice(0, 3), ...others.filter((o) => !picks.includes(o))].entries()) {
      if (placed === earlier) break;
      const body = JSON.stringify({ bid_requests: [{ listing_id: n, bid_amount: 25 }] });
      const res = await rawRequest(port, { method: 'POST', target: '/v1/orders/', body, headers });
      // The seeded listings that refuse every bid (engine/README.md): not started, no investment type.
      if (res.status !== 200) {
        expect(JSON.parse(res.text).code, res.text).toMatch(/^ORD00(20|37)$/);
        continue;
      }
      placed++;
      if (i < 3) held.add(n);
    }
    expect(placed).toBe(earlier);
    expect(held.size).toBeGreaterThan(0);
    await answered();
  }, 60_000);

  it('as shipped (RUN_MODE=test, the default filters): signs in once, reads the account and one page of listings, posts nothing; then its account summary', async () => {
    const shipped = client(SHIPPED);
    const seen = await shipped.buyNotes();
    const summary = await shipped.accountSummary();
    const log = await answered();
    expect(summary).toMatch(/^Available Cash Balance: +\$ +[\d,]+\.\d\d$/m);
    const target = log.find((e) => e.path.startsWith('/listingsvc'))!;
    // The request log writes the query again (a comma as %2C): compared as parameters.
    expect([...new URLSearchParams(target.query)]).toEqual([
      ['limit', '5000'],
      ['biddable', 'true'],
      ['invested', 'false'],
      ['listing_category_id', '1'],
      ['has_mortgage', 'true'],
      ['income_range', '4,5,6'],
    ]);
    expect(seen.listings.result.length).toBe(seen.listings.result_count);
    // The orders list is read only when the filters found something; an order is never posted in test mode.
    const pages = seen.filtered.length > 0 ? 2 : 0;
    expect(perEndpoint(log)).toEqual({
      [TOKEN_CALL]: 1,
      [ACCOUNT_CALL]: 2,
      [LISTINGS_CALL]: 1,
      ...(pages ? { [ORDERS_CALL]: pages } : {}),
    });
    expect(log.every((e) => e.status === 200)).toBe(true);
    // requests sends no Content-Length on a GET without a body, though its Content-Type says JSON.
    for (const e of log.filter((x) => x.method === 'GET')) expect(e.headers).not.toHaveProperty('content-length');
  });

  it('limit=5000 is clamped to the 500 a page holds (spec: maximum 500; DESIGN.md: clamped), and the client reads that one page', async () => {
    const seen = await client(WIDE).buyNotes();
    const log = await answered();
    expect(seen.listings.total_count).toBeGreaterThan(500);
    expect([seen.listings.result_count, seen.listings.result.length]).toEqual([500, 500]);
    expect(log.filter((e) => e.path.startsWith('/listingsvc'))).toHaveLength(1);
  });

  it('RUN_MODE=test with matches: pages the orders list by offset to total_count, and still posts no order', async () => {
    const seen = await client(WIDE).buyNotes();
    const log = await answered();
    expect(seen.trimmed.length).toBeGreaterThan(0);
    // The listings of its earlier orders still IN_PROGRESS: shown by the search, read off the orders list, left out.
    const numbers = (ls: { listing_number: number }[]): number[] => ls.map((l) => l.listing_number);
    expect(numbers(seen.filtered)).toEqual(expect.arrayContaining([...held]));
    expect(numbers(seen.trimmed).filter((n) => held.has(n))).toEqual([]);
    expect(perEndpoint(log)).toEqual({ [TOKEN_CALL]: 1, [ACCOUNT_CALL]: 1, [LISTINGS_CALL]: 1, [ORDERS_CALL]: 2 });
    expect(log.filter((e) => e.path === '/v1/orders').map((e) => e.query)).toEqual(['limit=25', `limit=25&offset=25`]);
    expect(log.map((e) => e.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('RUN_MODE=prod: the order it builds is posted once, body as json.dumps wrote it; the answer has what it reads', async () => {
    const prod = client({ ...WIDE, runMode: 'prod' });
    const seen = await prod.buyNotes();
    const log = await answered();
    expect(perEndpoint(log)).toEqual({ [TOKEN_CALL]: 1, [ACCOUNT_CALL]: 1, [LISTINGS_CALL]: 1, [ORDERS_CALL]: 2, [SUBMIT_CALL]: 1 });
    const posted = log.find((e) => e.method === 'POST' && e.path === '/v1/orders')!;
    expect(posted.status).toBe(200);
    expect(posted.body).toEqual({ bid_requests: seen.bids });
    // Python's json.dumps: `", "` and `": "`, and the amount a float (25.0); the length the mock read is that text's.
    expect(prod.lastOrderBody).toMatch(
      /^\{"bid_requests": \[\{"listing_id": \d+, "bid_amount": 25\.0\}(, \{"listing_id": \d+, "bid_amount": 25\.0\})*\]\}$/,
    );
    expect(posted.headers['content-length']).toBe(String(Buffer.byteLength(prod.lastOrderBody)));
    expect(seen.bids.length).toBe(new Set(seen.trimmed.map((l: { listing_number: number }) => l.listing_number)).size);
    expect(seen.bids.every((b) => b.bid_amount === 25)).toBe(true);
    expect(seen.placed).toMatchObject({ order_status: 'IN_PROGRESS', order_id: expect.any(String) });
    // The headers as requests sent them: a JSON content type on every call, GETs included, and the bearer in lower case.
    for (const e of log.filter((x) => !x.path.includes('oauth'))) {
      expect(e.headers, `${e.method} ${e.path}`).toMatchObject({
        'user-agent': 'python-requests/2.32.5',
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: 'bearer ***',
      });
    }
    // The next run reads the order it placed (31 orders: still 2 pages) and leaves its listings out.
    const again = await client(WIDE).buyNotes();
    const ids = new Set(seen.bids.map((b) => b.listing_id));
    expect(again.trimmed.some((l: { listing_number: number }) => ids.has(l.listing_number))).toBe(false);
    expect(perEndpoint(await answered())[ORDERS_CALL]).toBe(2);
  });

  it('an order whose answer never came: its next runs bid on none of its listings, before the order is processed (its trim) and after (invested=false)', async () => {
    const prod: Config = { ...WIDE, runMode: 'prod' };
    const fault = { path: '/v1/orders', method: 'POST', drop_response_rate: 1, count: 1 };
    expect((await admin('POST', '/__mock/faults', fault)).status).toBe(200);
    await expect(client(prod, 'ivy').buyNotes()).rejects.toThrow();
    const first = await answered();
    const lost = first.find((e) => e.method === 'POST' && e.path === '/v1/orders')!;
    expect([lost.status, lost.fault]).toEqual([null, 'drop_response']);
    const lostIds = new Set((lost.body as { bid_requests: { listing_id: number }[] }).bid_requests.map((b) => b.listing_id));
    expect(lostIds.size).toBeGreaterThan(0);
    // The next run: the search still shows them (PENDING), the orders list has the order IN_PROGRESS, its trim leaves them out.
    const next = await client(prod, 'ivy').buyNotes();
    const numbers = (ls: { listing_number: number }[]): number[] => ls.map((l) => l.listing_number);
    expect(numbers(next.filtered)).toEqual(expect.arrayContaining([...lostIds]));
    expect(next.bids.filter((b) => lostIds.has(b.listing_id))).toEqual([]);
    expect(perEndpoint(await answered())).toEqual({
      [TOKEN_CALL]: 1,
      [ACCOUNT_CALL]: 1,
      [LISTINGS_CALL]: 1,
      [ORDERS_CALL]: 1,
      ...(next.bids.length > 0 ? { [SUBMIT_CALL]: 1 } : {}),
    });
    // Once processed, the bids are invested: the search leaves those listings out, and no run bids on them again.
    expect((await admin('POST', '/__mock/process')).status).toBe(200);
    const later = await client(prod, 'ivy').buyNotes();
    expect(numbers(later.listings.result).filter((n) => lostIds.has(n))).toEqual([]);
    expect(later.bids.filter((b) => lostIds.has(b.listing_id))).toEqual([]);
    await answered();
  });

  it('a 401 (its held token expired an hour later on the mock clock) makes it sign in again, and the call succeeds', async () => {
    const warm = client(SHIPPED);
    await warm.getAccount();
    expect((await admin('POST', '/__mock/clock', { advance: '1h' })).status).toBe(200);
    await answered();
    const account = await warm.getAccount();
    const seen = await warm.buyNotes();
    const log = await answered();
    expect(log.slice(0, 3).map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/v1/accounts/platform', 401],
      ['POST', '/v1/security/oauth/token', 200],
      ['GET', '/v1/accounts/platform', 200],
    ]);
    expect(problems(account, ACCOUNT, 'account')).toEqual([]);
    const pages = seen.filtered.length > 0 ? 2 : 0;
    expect(perEndpoint(log)).toEqual({
      [TOKEN_CALL]: 1,
      [ACCOUNT_CALL]: 3,
      [LISTINGS_CALL]: 1,
      ...(pages ? { [ORDERS_CALL]: pages } : {}),
    });
  });
});

describe('the investpeer checker against real answers (the corpus, renamed)', () => {
  it('passes each real answer the client reads, and names a field gone, null or mistyped', () => {
    const real = (name: string): Json => JSON.parse(readFileSync(new URL(`fixtures/marketplace/${name}`, import.meta.url), 'utf8'));
    const account = real('python-account-2023.json');
    const listings = real('python-listings-search.json');
    expect(problems(account, ACCOUNT, 'account')).toEqual([]);
    expect(problems(listings, LISTINGS, 'listings')).toEqual([]);
    expect(problems(real('python-orders-list.json'), ORDERS_LIST, 'orders')).toEqual([]);
    expect(problems(real('python-order-create.json'), ORDER_PLACED, 'order')).toEqual([]);
    expect(problems({ ...account, available_cash_balance: null }, ACCOUNT, 'a').map(problemField)).toEqual(['available_cash_balance']);
    expect(problems({ ...account, invested_notes: { NA: null } }, ACCOUNT, 'a').map(problemField)).toEqual(['NA']);
    const { result_count: _, ...noCount } = listings;
    expect(problems(noCount, LISTINGS, 'l')).toEqual([
      'l.result_count is missing: the field has no default (the client reads it: buy_notes: no listing is looked at when it is 0)',
    ]);
    const listing = listings.result[0];
    const mangled = {
      ...listing,
      months_employed: null,
      listing_term: 36.5,
      credit_bureau_values_bureau2_indexed: {
        ...listing.credit_bureau_values_bureau2_indexed,
        g980s_inquiries_in_the_last_6_months: undefined,
      },
    };
    expect(problems({ ...listings, result: [mangled] }, LISTINGS, 'l').map(problemField)).toEqual([
      'listing_term',
      'g980s_inquiries_in_the_last_6_months',
      'months_employed',
    ]);
  });
});
