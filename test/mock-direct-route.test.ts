/**
 * The HTTP adapter answers the listings search and an order's submission straight from node's request
 * (app.direct): no Fetch Request, msw matching or Response. Its answers must be msw's, byte for byte:
 * two identical worlds (same seed, frozen clock, same tokens), one served with the direct path and one
 * without, get the same generated requests in the same order and must give the same status, headers
 * and body, and record the same journal entries.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AnswerChecker } from '../mock-server/routes/answer-check.js';
import type { MockApp } from '../mock-server/app.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { READ_WRITE_SCOPES } from '../src/contract/enums.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';
import { rawRequest, type RawAnswer, type RawRequest } from './helpers/raw-http.js';

let directApp: MockApp;
let mswApp: MockApp;
let direct: RunningServer;
let viaMsw: RunningServer;
let taken = 0;
const agent = new Agent({ keepAlive: true, maxSockets: 2 });
/** Token values, the same in both worlds. */
const tokens: Record<string, string> = {};
const TOKENS: [name: string, account: string, scopes: readonly string[], ttlMs: number][] = [
  ['rw', 'alice-1', READ_WRITE_SCOPES, 3_600_000],
  ['readOnly', 'alice-1', ['read_listing', 'read_invest_order'], 3_600_000],
  ['noListing', 'alice-1', ['read_invest_order'], 3_600_000],
  ['expired', 'alice-1', READ_WRITE_SCOPES, -1000],
  ['bob', 'bob-1', READ_WRITE_SCOPES, 3_600_000],
];

/** A world for the comparison, with the shared tokens in it. */
function world(): MockApp {
  const app = testMockApp({ seed: 11, listings: 120, frozen: true, start: TEST_START });
  for (const [name, account, scopes, ttl] of TOKENS) {
    const value = `direct-${name}-0123456789abcdef`;
    app.ctx.store.tokens.set(value, { ...app.ctx.store.tokens.get(issueTestToken(app, account, scopes, ttl))!, value });
    tokens[name] = value;
  }
  return app;
}

beforeAll(async () => {
  directApp = world();
  mswApp = world();
  // One world served as it is (counting what the direct path takes), the other with the direct path off.
  direct = await startHttpServer({
    ...directApp,
    direct(...args) {
      const answer = directApp.direct(...args);
      if (answer) taken++;
      return answer;
    },
  });
  viaMsw = await startHttpServer({ ...mswApp, direct: () => null });
});
afterAll(async () => {
  agent.destroy();
  await direct.close();
  await viaMsw.close();
});

/** What must be equal: status, every header but the connection's own and the date, in order, and the body. */
function comparable(a: RawAnswer): { status: number; headers: [string, unknown][]; text: string } {
  const skip = new Set(['date', 'connection', 'keep-alive']);
  return { status: a.status, headers: Object.entries(a.headers).filter(([k]) => !skip.has(k)), text: a.text };
}

/** The newest journal entry without what differs between two requests (id, times). */
function lastEntry(app: MockApp): unknown {
  const { id: _id, at: _at, duration_ms: _d, ...rest } = app.journal.list(1).result[0]!;
  return rest;
}

/** Sends `sent` to both worlds and expects the same answer and journal entry; returns the direct one. */
async function both(sent: RawRequest): Promise<RawAnswer> {
  // One Host for both servers, or the journal entries differ by port.
  const req = { ...sent, headers: { host: 'localhost', ...sent.headers } };
  const a = await rawRequest(direct.port, req, agent);
  const b = await rawRequest(viaMsw.port, req, agent);
  expect(comparable(a)).toEqual(comparable(b));
  expect(lastEntry(directApp)).toEqual(lastEntry(mswApp));
  return a;
}

const paths = fc.constantFrom(
  '/listingsvc/v2/listings', '/listingsvc/v2/listings/', '//listingsvc//v2/./listings/', '/listingsvc/v2/x/../listings',
  '/listingsvc/v2/listing%73', '/LISTINGSVC/v2/listings', '/api/listingsvc/v2/listings',
);
const param = fc.oneof(
  fc.tuple(fc.constantFrom('limit', 'offset'), fc.constantFrom('0', '1', '25', '-1', 'abc', '2.5', '', '501', '99999')),
  fc.tuple(fc.constant('fico_score'), fc.constantFrom('700-719', '720-739,740-759', 'x', '')),
  fc.tuple(fc.constantFrom('borrower_rate_min', 'borrower_rate_max'), fc.constantFrom('0.1', '0.25', 'high', '-3')),
  fc.tuple(fc.constantFrom('listing_term', 'prosper_rating'), fc.constantFrom('36', '36,60', 'AA,B', '7')),
  fc.tuple(fc.constant('sort_by'), fc.constantFrom('borrower_rate desc', 'listing_number', 'nope asc')),
  fc.tuple(fc.constantFrom('biddable', 'invested', 'include_credit_bureau_values'), fc.constantFrom('true', 'false', 'transunion', 'maybe')),
  fc.tuple(fc.constantFrom('listing_start_date_min', 'unknown_param'), fc.constantFrom('2026-05-01', '2026-05-01T10:00:00', 'soon')),
  fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })),
);
// The good token half the time, so that many orders are accepted and change the world.
const authorization = fc.oneof(fc.constant('rw'), fc.constantFrom(undefined, 'readOnly', 'noListing', 'expired', 'bob', 'nope', 'basic', 'spaced')).map((which) => {
  if (which === undefined) return undefined;
  if (which === 'nope') return 'bearer not-a-token';
  if (which === 'basic') return `Basic ${Buffer.from('a:b').toString('base64')}`;
  if (which === 'spaced') return `BEARER   ${tokens.rw}  `;
  return `Bearer ${tokens[which]}`;
});
const timezone = fc.constantFrom(undefined, 'America/New_York', 'Asia/Kolkata', ' UTC ', 'utc', 'Mars/Olympus', '', 'Etc/GMT+5');
const headerValue = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,20}[\x21-\x7e])?$/);

/** A listings search: a spelling of its path, a query of known and unknown parameters, good and bad. */
const search = fc.record({ path: paths, params: fc.array(param, { maxLength: 4 }) }).map(({ path, params }): RawRequest => {
  const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return { target: query ? `${path}?${query}` : path };
});

/** An order: a spelling of its path, a content type, and a body that is good, bad JSON, bad bids or not UTF-8. */
function order(listings: readonly number[]): fc.Arbitrary<RawRequest> {
  const bid = fc.record({ listing_id: fc.oneof(fc.constantFrom(...listings), fc.constant(1)), bid_amount: fc.constantFrom(25, 25.5, 0, 24, 1e9) });
  const body = fc.oneof(
    fc.array(bid, { minLength: 1, maxLength: 3 }).map((bids) => JSON.stringify({ bid_requests: bids })),
    fc.constantFrom('', '{', '[]', 'null', '{"bid_requests":[]}', `\uFEFF{"bid_requests":[{"listing_id":${listings[0]},"bid_amount":25}]}`),
    fc.constant(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])),
  );
  const type = fc.constantFrom(undefined, 'application/json', 'application/json; charset=utf-8', 'application/problem+json', 'text/plain', 'application/x-www-form-urlencoded');
  const path = fc.constantFrom('/v1/orders', '/v1/orders/', '//v1/./orders', '/V1/orders', '/api/v1/orders');
  return fc.record({ path, body, type }).map(({ path, body, type }): RawRequest => (
    { method: 'POST', target: path, body, headers: type === undefined ? {} : { 'content-type': type } }
  ));
}

describe('the direct routes', () => {
  it('answer every request exactly as msw does: status, headers, body bytes and journal entry, as the world changes', async () => {
    const before = taken;
    let accepted = 0;
    const page = await both({ target: '/listingsvc/v2/listings?limit=6', headers: { authorization: `bearer ${tokens.rw}` } });
    const listings = (JSON.parse(page.text) as { result: { listing_number: number }[] }).result.map((l) => l.listing_number);
    const request = fc.record({ req: fc.oneof(search, order(listings)), auth: authorization, zone: timezone, extra: fc.option(headerValue, { nil: undefined }) });
    await fc.assert(fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 4 }), async (requests) => {
      for (const { req, auth, zone, extra } of requests) {
        const headers: Record<string, string> = { ...req.headers };
        if (auth !== undefined) headers.authorization = auth;
        if (zone !== undefined) headers.timezone = zone;
        if (extra !== undefined) headers['x-extra'] = extra;
        const a = await both({ ...req, headers });
        if (req.method === 'POST' && a.status === 200) accepted++;
      }
    }), { numRuns: 80, seed: 20261123 });
    // The comparison is worth something only if the direct path answered many of them, orders accepted among them.
    expect(taken - before).toBeGreaterThan(80);
    expect(accepted).toBeGreaterThan(5);
  });

  it('answer the documented failures the same way: bad token, missing scope, bad parameter, unknown zone, bad order', async () => {
    const search = (headers: Record<string, string>, query = 'limit=2'): RawRequest => ({ target: `/listingsvc/v2/listings?${query}`, headers });
    const rw = { authorization: `bearer ${tokens.rw}` };
    const cases: [RawRequest, number, RegExp][] = [
      [search({ authorization: 'bearer nope' }), 401, /invalid_token/],
      [search({ authorization: `bearer ${tokens.noListing}` }), 403, /read_listing/],
      [search(rw, 'limit=abc'), 400, /limit/],
      [search(rw, 'fico_score=x'), 400, /fico_score/],
      [search({ ...rw, timezone: 'Mars/Olympus' }), 400, /timezone/],
      [{ method: 'POST', target: '/v1/orders', headers: { authorization: `bearer ${tokens.readOnly}` }, body: '{}' }, 403, /write_invest_order/],
      [{ method: 'POST', target: '/v1/orders', headers: { ...rw, 'content-type': 'application/xml' }, body: '<a/>' }, 415, /content-type/],
      [{ method: 'POST', target: '/v1/orders', headers: rw, body: '{' }, 400, /./],
      // No bytes is no body (as Fetch has it): no content type to refuse, the empty order is the fault.
      [{ method: 'POST', target: '/v1/orders', headers: { ...rw, 'content-type': 'application/x-www-form-urlencoded' }, body: '' }, 400, /./],
    ];
    for (const [req, status, message] of cases) {
      const before = taken;
      const a = await both(req);
      expect(taken).toBe(before + 1);
      expect(a.status).toBe(status);
      expect(a.text).toMatch(message);
    }
  });

  it('take only their method at the normalised path; HEAD and other spellings go through msw, another case to the 404', async () => {
    const before = taken;
    const rw = { authorization: `bearer ${tokens.rw}` };
    const head = await both({ method: 'HEAD', target: '/listingsvc/v2/listings', headers: rw });
    const post = await both({ method: 'POST', target: '/listingsvc/v2/listings', headers: rw });
    const upper = await both({ target: '/LISTINGSVC/v2/listings?limit=1', headers: rw });
    const get = await both({ target: '/v1/orders', headers: rw });
    expect([head.status, head.text, post.status, upper.status, get.status]).toEqual([200, '', 405, 404, 200]);
    expect(JSON.parse(upper.text)).toEqual({ code: 'NOT_FOUND', message: 'No route for GET /LISTINGSVC/v2/listings' });
    expect(taken).toBe(before);
  });

  it('have injected faults applied to them as to any route', async () => {
    const before = taken;
    directApp.ctx.faults.set({ error_rate: 1, path: '/listingsvc', count: 1 });
    const a = await rawRequest(direct.port, { target: '/listingsvc/v2/listings', headers: { authorization: `bearer ${tokens.rw}` } }, agent);
    expect([a.status, JSON.parse(a.text).code, taken]).toEqual([500, 'SYS0001', before]);
  });

  it('have their answers checked against the OpenAPI document when checking is on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mkt-direct-'));
    const checked = testMockApp({ seed: 11, listings: 20, frozen: true, start: TEST_START, checkAnswers: join(dir, 'violations.jsonl') });
    const server = await startHttpServer(checked);
    const spy = vi.spyOn(AnswerChecker.prototype, 'check');
    try {
      const token = issueTestToken(checked);
      const a = await rawRequest(server.port, { target: '/listingsvc/v2/listings?limit=1', headers: { authorization: `bearer ${token}` } }, agent);
      const o = await rawRequest(server.port, { method: 'POST', target: '/v1/orders', headers: { authorization: `bearer ${token}` }, body: '{' }, agent);
      expect([a.status, o.status]).toEqual([200, 400]);
      const calls = spy.mock.calls.filter(([, url]) => url.pathname === '/listingsvc/v2/listings' || url.pathname === '/v1/orders');
      expect(calls.map(([method, , res]) => [method, res.status])).toEqual([['GET', 200], ['POST', 400]]);
    } finally {
      spy.mockRestore();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
