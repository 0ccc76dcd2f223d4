/**
 * The validating proxy (mock-server/proxy/) over real HTTP on 127.0.0.1: in front of the fixture server
 * of real marketplace answers it reports exactly the corpus's known differences from the document; a
 * request that differs is reported and still forwarded byte for byte; arbitrary targets and bodies never
 * crash it; an upstream it cannot reach is a 502 naming it, journaled.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type RunningProxy } from '../mock-server/proxy/proxy-server.js';
import { fieldPattern, ViolationTally } from '../mock-server/proxy/summary.js';
import { SeenSecrets } from '../mock-server/proxy/seen-secrets.js';
import { RequestLog } from '../mock-server/request-log/request-log.js';
import type { ExchangeViolation, RequestLogEntry } from '../src/contract/mock-inspect.js';
import { NEWEST, OLDEST, startFixtureServer, type FixtureServer } from './helpers/marketplace-fixtures.js';
import { startMock } from './helpers/mock.js';

type Page = { result: RequestLogEntry[]; result_count: number; total_count: number };

async function journal(proxy: RunningProxy, query = ''): Promise<Page> {
  const res = await fetch(`${proxy.origin}/__mock/requests${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

/** Every (operation, field) the proxy reported, array positions as `*`, sorted, once each. */
function differences(entries: readonly RequestLogEntry[]): string[] {
  const all = entries.flatMap((e) => e.violations ?? []).map((v) => `${v.direction} ${v.operation} ${fieldPattern(v.field)}`);
  return [...new Set(all)].sort();
}

describe('the proxy in front of the real answers of the corpus', () => {
  let newest: FixtureServer;
  let oldest: FixtureServer;
  let viaNewest: RunningProxy;
  let viaOldest: RunningProxy;

  beforeAll(async () => {
    [newest, oldest] = await Promise.all([startFixtureServer(NEWEST), startFixtureServer(OLDEST)]);
    [viaNewest, viaOldest] = await Promise.all([
      startProxy({ upstream: newest.env.MKT_ROOT_URL! }),
      startProxy({ upstream: oldest.env.MKT_ROOT_URL! }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([viaNewest?.close(), viaOldest?.close()]);
    await Promise.all([newest?.close(), oldest?.close()]);
  });

  /** Every route of the fixture server, as the CLI asks them (conforming requests). */
  const ROUTES: [string, string, string?][] = [
    ['GET', '/v1/accounts/platform'],
    ['GET', '/v1/notes/?limit=25'],
    ['GET', '/v1/loans/?limit=25'],
    ['GET', '/v1/loans/payments?loan_number=2300367'],
    ['GET', '/v1/orders/?limit=25'],
    ['GET', '/listingsvc/v2/listings/?limit=25'],
    ['POST', '/v1/orders/', JSON.stringify({ bid_requests: [{ listing_id: 11111111, bid_amount: 25 }] })],
  ];

  async function runAll(proxy: RunningProxy): Promise<void> {
    for (const [method, target, body] of ROUTES) {
      const res = await fetch(`${proxy.origin}${target}`, {
        method,
        body,
        headers: { authorization: 'Bearer fixture-token', ...(body ? { 'content-type': 'application/json' } : {}) },
      });
      expect(res.status, `${method} ${target}`).toBe(200);
      await res.arrayBuffer();
    }
  }

  /** (operation, field) pairs, each field under `prefix`. */
  const under = (operation: string, prefix: string, names: readonly string[]) => names.map((n) => `answer ${operation} ${prefix}${n}`);
  const LISTINGS = 'GET /listingsvc/v2/listings/';
  /**
   * What remains are differences where the spec is explicit (or a fixture's placeholder): where the spec
   * is silent the document follows the real answers (a field they leave out is optional, a withdrawal
   * amount may be negative), so a proxy in front of the real service reports only what is worth a look.
   */
  const SHARED = [
    // The corpus's order ids are a placeholder, AAAAAAAA-AAAA-AAAA-AAAA-AAAAAAAAAAA (one character short of a
    // UUID): the document says format uuid.
    'answer GET /v1/orders/ /body/result/*/order_id',
    // loan_default_reason 0 where the spec has null (not in default) or one of its codes 1-7.
    'answer GET /v1/loans/ /body/result/*/loan_default_reason',
  ];
  const EXPECTED_NEWEST = [
    ...SHARED,
    'answer POST /v1/orders/ /body/order_id', // the same placeholder id in the order just created
    // Two bureau2 elements sent as -4.0: the spec's range is 0-999 with -1 (no trades of this type) as its only special value.
    ...under(LISTINGS, '/body/result/*/credit_bureau_values_bureau2_indexed/', [
      'g099s_public_records_last_24_months',
      's207s_months_since_most_recent_public_record_bankruptcy',
    ]),
  ];
  const EXPECTED_OLDEST = [
    ...SHARED,
    // The 2015 search route's listing (go-search.json): fields of that retired route the v2 listing does not have…
    ...under(LISTINGS, '/body/result/*/', [
      'amount_delinquent',
      'bankcard_utilization',
      'borrower_city',
      'borrower_metropolitan_area',
      'credit_lines_last7_years',
      'credit_pull_date',
      'current_credit_lines',
      'current_delinquencies',
      'delinquencies_last7_years',
      'delinquencies_over30_days',
      'delinquencies_over60_days',
      'delinquencies_over90_days',
      'dt_iwplatform_loan',
      'first_recorded_credit_line',
      'group_indicator',
      'inquiries_last6_months',
      'installment_balance',
      'is_homeowner',
      'monthly_debt',
      'now_delinquent_derog',
      'oldest_trade_open_date',
      'open_credit_lines',
      'public_records_last10_years',
      'public_records_last12_months',
      'real_estate_balance',
      'real_estate_payment',
      'revolving_available_percent',
      'revolving_balance',
      'satisfactory_accounts',
      'scorex',
      'total_inquiries',
      'total_open_revolving_accounts',
      'total_trade_items',
      'was_delinquent_derog',
    ]),
    // …and the v2 fields it lacks (added since, or spelled otherwise then: dt_iwplatform_loan for dti_wplatform_loan).
    ...under(LISTINGS, '/body/result/*/', [
      'biddable',
      'co_borrower_application',
      'credit_bureau_values_bureau2_indexed',
      'decision_bureau',
      'dti_wplatform_loan',
      'has_mortgage',
      'historical_return',
      'historical_return_10th_pctl',
      'historical_return_90th_pctl',
      'invested',
      'investment_product_id',
      'last_updated_date',
      'prior_platform_loans_late_cycles',
      'prior_platform_loans_late_payments_one_month_plus',
    ]),
    // The 2015 notes lack the fields added to a note since.
    ...under('GET /v1/notes/', '/body/result/*/', [
      'accrued_interest',
      'co_borrower_application',
      'collection_fees_paid_pro_rata_share',
      'is_in_bankruptcy',
      'is_sold_folio',
      'lender_yield',
      'loan_extension_status',
      'loan_extension_term',
      'loan_settlement_status',
      'ownership_start_date',
      'payment_received',
      'platform_proceeds_net_received',
    ]),
    // The 2015 account: fields added since, inflight_gross (gone since), and date-only dates where the
    // document has the date-time form (`2015-10-23`, not `2015-10-23 00:00:00 +0000`).
    ...under('GET /v1/accounts/platform', '/body/', [
      'external_user_id',
      'invested_notes',
      'pending_bids',
      'pending_deposit',
      'platform_account_digest',
      'inflight_gross',
      'last_deposit_date',
      'last_withdraw_date',
    ]),
  ];

  it('reports exactly the known differences of the corpus, by operation and field, and none in what conforms', async () => {
    await runAll(viaNewest);
    await runAll(viaOldest);
    const newestEntries = (await journal(viaNewest)).result;
    const oldestEntries = (await journal(viaOldest)).result;
    expect(differences(newestEntries)).toEqual([...new Set(EXPECTED_NEWEST)].sort());
    expect(differences(oldestEntries)).toEqual([...new Set(EXPECTED_OLDEST)].sort());
    // `N/A` in a number's place is what the service sends (the document takes it, as the CLI's reader
    // does): never reported. The payments answer conforms whole; so do the requests.
    const all = [...newestEntries, ...oldestEntries];
    expect(all.flatMap((e) => e.violations ?? []).filter((v) => v.direction === 'request')).toEqual([]);
    for (const e of all.filter((x) => x.path === '/v1/loans/payments')) expect(e.violations).toEqual([]);
    expect(JSON.stringify(all)).not.toMatch(/platform_rating/);
    // Each difference names the field exactly (the row), the operation as the document spells it, and what is wrong.
    const loans = newestEntries.find((e) => e.path === '/v1/loans')!.violations!;
    expect(loans[0]).toEqual({
      direction: 'answer',
      operation: 'GET /v1/loans/',
      field: '/body/result/0/loan_default_reason',
      problem: 'must be null; must be equal to one of the allowed values',
    });
    // Where the spec is silent the real answers pass: a negative last withdrawal, a held note without ownership_end_date.
    for (const path of ['/v1/accounts/platform', '/v1/notes'])
      expect(newestEntries.find((e) => e.path === path)!.violations ?? []).toEqual([]);
    // Only the entries with violations, when asked.
    const only = await journal(viaNewest, '?violations=true');
    expect(only.total_count).toBe(newestEntries.filter((e) => (e.violations ?? []).length > 0).length);
    expect(only.result.every((e) => e.violations!.length > 0)).toBe(true);
  });
});

/** What an upstream saw of one request, as raw as node gives it. */
interface Raw {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
  body: Buffer;
}

/** An upstream that records each request and answers 200 with odd but exact headers and bytes (not UTF-8, repeated Set-Cookie). */
async function startEcho(): Promise<{ origin: string; seen: Raw[]; server: Server }> {
  const seen: Raw[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) });
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'x-upstream': 'yes',
        'set-cookie': ['a=1', 'b=2'],
        date: 'Mon, 01 Jun 2026 12:00:00 GMT',
      });
      res.end(Buffer.from([0xff, 0x00, 0xfe, 0x41]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

/** One request with node's own client (the target as given, byte for byte), and the answer as raw as node gives it. */
function send(
  origin: string,
  method: string,
  target: string,
  headers: Record<string, string | string[]>,
  body?: Buffer,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path: target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the proxy forwards', () => {
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let proxy: RunningProxy;
  beforeAll(async () => {
    echo = await startEcho();
    proxy = await startProxy({ upstream: `${echo.origin}/base` });
  });
  afterAll(async () => {
    await proxy?.close();
    await new Promise((r) => echo?.server.close(r));
  });

  it('a request that differs from the document unchanged, and reports how it differs', async () => {
    const body = Buffer.from('{"bid_requests":"none","extra":1}');
    const target = '/v1/notes/?limit=abc&zzz=%41%2c&limit=2';
    const before = echo.seen.length;
    await send(proxy.origin, 'GET', target, {
      authorization: 'Bearer sekrit-token-123',
      'X-Client': 'Mixed Case',
      'x-dup': ['one', 'two'],
      accept: '*/*',
      connection: 'keep-alive, x-hop',
      'x-hop': 'mine',
    });
    const answer = await send(
      proxy.origin,
      'POST',
      '/v1/orders/',
      { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) },
      body,
    );
    const [get, post] = echo.seen.slice(before);
    // The target as sent, under the upstream's base path; the headers as sent, Host naming the upstream.
    expect(get!.url).toBe(`/base${target}`);
    expect(get!.headers.authorization).toBe('Bearer sekrit-token-123');
    expect(get!.headers['x-client']).toBe('Mixed Case');
    // Each header line as sent, name spelt as sent, a repeated one twice; the hop-by-hop ones (and those Connection names) not.
    const pairs = (raw: string[]) => raw.flatMap((v, i) => (i % 2 === 0 ? [`${v}: ${raw[i + 1]}`] : []));
    expect(pairs(get!.rawHeaders)).toEqual(expect.arrayContaining(['X-Client: Mixed Case', 'x-dup: one', 'x-dup: two']));
    expect(get!.headers['x-hop']).toBeUndefined();
    expect(get!.headers.host).toBe(new URL(echo.origin).host);
    expect(post!.method).toBe('POST');
    expect(post!.body.equals(body)).toBe(true);
    expect(post!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(post!.headers['content-length']).toBe(String(body.length));
    // The answer as the upstream sent it: status, its headers (its own Date, both cookies), the bytes.
    expect(answer.status).toBe(200);
    expect(answer.body.equals(Buffer.from([0xff, 0x00, 0xfe, 0x41]))).toBe(true);
    expect(answer.headers['x-upstream']).toBe('yes');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(answer.headers.date).toBe('Mon, 01 Jun 2026 12:00:00 GMT');
    const entries = (await journal(proxy, '?limit=2')).result;
    const problems = (e: RequestLogEntry | undefined) =>
      (e?.violations ?? []).map((v: ExchangeViolation) => [v.direction, v.operation, v.field, v.problem]);
    expect(problems(entries.find((e) => e.method === 'GET'))).toEqual([
      ['request', 'GET /v1/notes/', '/query/limit', 'given 2 times; the document has one value'],
      ['request', 'GET /v1/notes/', '/query/limit', 'must be integer'],
      ['request', 'GET /v1/notes/', '/query/zzz', 'not a parameter of GET /v1/notes/'],
      ['answer', 'GET /v1/notes/', '/headers/content-type', 'content-type application/octet-stream; the document has application/json'],
    ]);
    expect(problems(entries.find((e) => e.method === 'POST'))).toEqual([
      ['request', 'POST /v1/orders/', '/body/extra', 'not in the document (no additional properties)'],
      ['request', 'POST /v1/orders/', '/body/bid_requests', 'must be array'],
      ['answer', 'POST /v1/orders/', '/headers/content-type', 'content-type application/octet-stream; the document has application/json'],
    ]);
    // The journal keeps the request's shape, its secrets redacted.
    expect(JSON.stringify(entries)).not.toContain('sekrit-token-123');
    expect(entries.find((e) => e.method === 'GET')!.headers.authorization).toBe('Bearer ***');
  });

  it('never crashes on an arbitrary target, method or body: the upstream answers, or the proxy says it cannot forward it (400)', async () => {
    const dead = await startProxy({ upstream: 'http://127.0.0.1:9/' });
    try {
      // Targets of any bytes node will send (0x21-0xff), with `?`, `%` escapes and dot segments likely.
      const targetChar = fc.oneof(
        fc.constantFrom('/', '?', '%', '.', '..', '%2e', '%2F', '#', '&', '='),
        fc.integer({ min: 0x21, max: 0xff }).map((c) => String.fromCharCode(c)),
      );
      const target = fc.array(targetChar, { maxLength: 40 }).map((cs) => `/${cs.join('')}`);
      await fc.assert(
        fc.asyncProperty(
          target,
          fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
          fc.uint8Array({ maxLength: 300 }),
          fc.boolean(),
          async (t, method, bytes, toDead) => {
            const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.from(bytes);
            const res = await send(
              (toDead ? dead : proxy).origin,
              method,
              t,
              { 'content-type': 'application/json', ...(body ? { 'content-length': String(body.length) } : {}) },
              body,
            );
            if (res.status === 400) {
              // The proxy's own refusal (a target node's parser or undici will not take), said in JSON.
              if (method !== 'HEAD') expect(JSON.parse(res.body.toString()).message).toMatch(/^request/);
            } else if (toDead) {
              expect(res.status).toBe(502);
              if (method !== 'HEAD')
                expect(JSON.parse(res.body.toString()).message).toContain('upstream http://127.0.0.1:9 cannot be reached');
            } else expect(res.status).toBe(200);
          },
        ),
        { numRuns: 80 },
      );
      // Still answering.
      expect((await send(proxy.origin, 'GET', '/v1/notes/', {})).status).toBe(200);
    } finally {
      await dead.close();
    }
  });
});

describe('an upstream the proxy cannot reach', () => {
  it('is a 502 naming the upstream, recorded in the journal with why', async () => {
    const proxy = await startProxy({ upstream: 'http://127.0.0.1:9/mock' });
    try {
      const res = await fetch(`${proxy.origin}/v1/accounts/platform`, { headers: { authorization: 'Bearer abc-secret-token' } });
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({
        code: 'PROXY_UPSTREAM',
        message: expect.stringMatching(/^upstream http:\/\/127\.0\.0\.1:9\/mock cannot be reached: ECONNREFUSED/),
      });
      const [entry] = (await journal(proxy)).result;
      expect(entry).toMatchObject({
        method: 'GET',
        path: '/v1/accounts/platform',
        status: 502,
        fault: 'upstream unreachable: ECONNREFUSED',
        violations: [],
      });
      expect(entry!.headers.authorization).toBe('Bearer ***');
    } finally {
      await proxy.close();
    }
  });
});

describe('the summary on stop', () => {
  it('groups the differences by endpoint and field, array positions as *, with counts', () => {
    const tally = new ViolationTally();
    const v = (operation: string, field: string, problem: string, direction: 'request' | 'answer' = 'answer'): ExchangeViolation => ({
      direction,
      operation,
      field,
      problem,
    });
    tally.add([
      v('GET /v1/notes/', '/body/result/0/lender_yield', 'missing (required)'),
      v('GET /v1/notes/', '/body/result/1/lender_yield', 'missing (required)'),
    ]);
    tally.add([
      v('GET /v1/notes/', '/body/result/0/lender_yield', 'missing (required)'),
      v('GET /v1/notes/', '/query/limit', 'must be integer', 'request'),
    ]);
    tally.add([]);
    tally.add([v('POST /v1/orders/', '/body/order_id', 'must match format "uuid"')]);
    expect(tally.text()).toBe(
      [
        'proxy: 4 exchange(s), 3 with differences from the OpenAPI document; by endpoint and field (array positions as *):',
        '  GET /v1/notes/',
        '        1 × request /query/limit: must be integer',
        '        3 × answer /body/result/*/lender_yield: missing (required)',
        '  POST /v1/orders/',
        '        1 × answer /body/order_id: must match format "uuid"',
        '',
      ].join('\n'),
    );
    const none = new ViolationTally();
    none.add([]);
    expect(none.text()).toBe('proxy: 1 exchange(s), 0 with differences from the OpenAPI document\n');
  });
});

describe("the proxy's journal", () => {
  it('hides what the proxy saw pass as a secret wherever it shows up again, under any name', () => {
    const secrets = new SeenSecrets(() => 0);
    const journal = new RequestLog(secrets, 10, () => 0);
    // A token request (its form is never kept) and the token endpoint's answer: the proxy learns their secrets.
    secrets.learnRequest(
      '/v1/security/oauth/token',
      undefined,
      'application/x-www-form-urlencoded',
      'grant_type=authorization_key&client_id=c&client_secret=plain-client-secret&auth_key=plain-auth-key',
    );
    secrets.learnAnswer('/v1/security/oauth/token', '{"access_token":"plain-access-token","refresh_token":"plain-refresh-token"}');
    secrets.learnRequest('/v1/notes', 'Bearer plain-bearer-token', undefined, '');
    const told = 'plain-client-secret plain-auth-key plain-access-token plain-refresh-token plain-bearer-token';
    const arrival = journal.arrive(undefined);
    journal.record(arrival, {
      method: 'POST',
      path: '/v1/orders',
      search: `?note=${encodeURIComponent(told)}`,
      headers: { 'x-note': told, 'content-type': 'application/json' },
      bodyText: JSON.stringify({ note: told }),
      status: 200,
      violations: [],
    });
    const [entry] = journal.list(10).result;
    const text = JSON.stringify(entry);
    for (const secret of told.split(' ')) expect(text).not.toContain(secret);
    expect(entry!.headers['x-note']).toBe('*** *** *** *** ***');
    expect(entry!.violations).toEqual([]);
  });

  it('lists only the entries with violations, pages and `since` as the whole journal does', () => {
    const journal = new RequestLog(new SeenSecrets(() => 0), 4, () => 0);
    const v: ExchangeViolation = {
      direction: 'request',
      operation: 'GET /v1/notes/',
      field: '/query/x',
      problem: 'not a parameter of GET /v1/notes/',
    };
    // Ids 1..6 in a journal of 4: 1 and 2 are gone; of 3..6, 3, 5 and 6 differ.
    for (let id = 1; id <= 6; id++)
      journal.record(journal.arrive(undefined), {
        method: 'GET',
        path: `/p${id}`,
        search: '',
        headers: {},
        bodyText: null,
        status: 200,
        violations: id === 4 ? [] : [v],
      });
    const ids = (r: { result: RequestLogEntry[]; total: number }) => [r.result.map((e) => e.id), r.total];
    expect(ids(journal.listViolations(10))).toEqual([[6, 5, 3], 3]);
    expect(ids(journal.listViolations(1, undefined, 1))).toEqual([[5], 3]);
    expect(ids(journal.listViolations(1, 3))).toEqual([[5], 2]);
    expect(ids(journal.listViolations(10, 6))).toEqual([[], 0]);
  });
});

describe('what a difference quotes of the request', () => {
  it("never shows a token the client sent: in a path, a query parameter's name or a body property's name, in the journal and in the summary", async () => {
    const mock = await startMock({ listings: 20 });
    const proxy = await startProxy({ upstream: mock.origin });
    try {
      const token = mock.env.MKT_ACCESS_TOKEN!;
      const auth = { authorization: `Bearer ${token}` };
      await (await fetch(`${proxy.origin}/v1/accounts/${token}/x`, { headers: auth })).text();
      await (await fetch(`${proxy.origin}/v1/loans/?${token}=1`, { headers: auth })).text();
      await (
        await fetch(`${proxy.origin}/v1/orders/`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ [token]: 1 }),
        })
      ).text();
      const page = await journal(proxy, '?violations=true');
      // Each of the three differs from the document, and says where, with the token redacted.
      expect(page.result).toHaveLength(3);
      const quoted = page.result.flatMap((e) => e.violations ?? []).map((v) => `${v.operation} ${v.field}`);
      expect(quoted.some((q) => q.includes('***'))).toBe(true);
      expect(JSON.stringify(page)).not.toContain(token);
      expect(proxy.tally.text()).not.toContain(token);
    } finally {
      await proxy.close();
      await mock.close();
    }
  });
});

describe("a mock's own journal asked for violations", () => {
  it('has none to give (its entries are no exchanges with another marketplace), and a bad value is 400 naming it', async () => {
    const mock = await startMock({ listings: 20 });
    try {
      await fetch(`${mock.origin}/v1/notes/?bogus=1`, { headers: { authorization: `Bearer ${mock.env.MKT_ACCESS_TOKEN}` } });
      const all = (await (await fetch(`${mock.origin}/__mock/requests`)).json()) as Page;
      expect(all.total_count).toBeGreaterThan(0);
      expect(all.result.every((e) => !('violations' in e))).toBe(true);
      expect(await (await fetch(`${mock.origin}/__mock/requests?violations=true`)).json()).toEqual({
        result: [],
        result_count: 0,
        total_count: 0,
      });
      const bad = await fetch(`${mock.origin}/__mock/requests?violations=yes`);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ code: 'VAL0001', message: "violations: must be true or false, got 'yes'" });
    } finally {
      await mock.close();
    }
  });
});
