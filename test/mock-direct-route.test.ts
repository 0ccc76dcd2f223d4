/**
 * The HTTP adapter answers the listings search straight from node's request (app.direct): no Fetch
 * Request, msw matching or Response. Its answers must be msw's, byte for byte: two servers over one
 * world, one with the direct path and one without, get the same generated requests and must give the
 * same status, headers and body, and record the same journal entry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AnswerChecker } from '../mock-server/answer-check.js';
import type { MockApp } from '../mock-server/app.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';
import { rawRequest, type RawAnswer, type RawRequest } from './helpers/raw-http.js';

let app: MockApp;
let direct: RunningServer;
let viaMsw: RunningServer;
let taken = 0;
const agent = new Agent({ keepAlive: true, maxSockets: 2 });
const tokens: Record<string, string> = {};

beforeAll(async () => {
  app = testMockApp({ seed: 11, listings: 120, frozen: true, start: TEST_START });
  // The same app twice: once as it is (counting what the direct path takes), once with the direct path off.
  direct = await startHttpServer({
    ...app,
    direct(method, url, headers) {
      const answer = app.direct(method, url, headers);
      if (answer) taken++;
      return answer;
    },
  });
  viaMsw = await startHttpServer({ ...app, direct: () => null });
  tokens.read = issueTestToken(app, 'alice-1');
  tokens.noScope = issueTestToken(app, 'alice-1', ['read_invest_order']);
  tokens.expired = issueTestToken(app, 'alice-1', undefined, -1000);
  tokens.bob = issueTestToken(app, 'bob-1');
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
function lastEntry(): unknown {
  const { id: _id, at: _at, duration_ms: _d, ...rest } = app.journal.list(1).result[0]!;
  return rest;
}

async function both(sent: RawRequest): Promise<void> {
  // One Host for both servers, or the journal entries differ by port.
  const req = { ...sent, headers: { host: 'mock.test', ...sent.headers } };
  const a = await rawRequest(direct.port, req, agent);
  const aEntry = lastEntry();
  const b = await rawRequest(viaMsw.port, req, agent);
  expect(comparable(a)).toEqual(comparable(b));
  expect(aEntry).toEqual(lastEntry());
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
const authorization = fc.constantFrom<(string | undefined)[]>(
  ['read'], ['noScope'], ['expired'], ['bob'], [undefined], ['nope'], ['basic'], ['spaced'],
).map(([which]) => {
  if (which === undefined) return undefined;
  if (which === 'nope') return 'bearer not-a-token';
  if (which === 'basic') return `Basic ${Buffer.from('a:b').toString('base64')}`;
  if (which === 'spaced') return `BEARER   ${tokens.read}  `;
  return `Bearer ${tokens[which]}`;
});
const timezone = fc.constantFrom(undefined, 'America/New_York', 'Asia/Kolkata', ' UTC ', 'utc', 'Mars/Olympus', '', 'Etc/GMT+5');
const headerValue = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,20}[\x21-\x7e])?$/);

describe('the direct listings route', () => {
  it('answers every request exactly as msw does: status, headers, body bytes and journal entry', async () => {
    const before = taken;
    await fc.assert(fc.asyncProperty(
      paths, fc.array(param, { maxLength: 4 }), authorization, timezone, fc.option(headerValue, { nil: undefined }),
      async (path, params, auth, zone, extra) => {
        const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        const headers: Record<string, string> = {};
        if (auth !== undefined) headers.authorization = auth;
        if (zone !== undefined) headers.timezone = zone;
        if (extra !== undefined) headers['x-extra'] = extra;
        await both({ target: query ? `${path}?${query}` : path, headers });
      },
    ), { numRuns: 120, seed: 20261123 });
    // The comparison is worth something only if the direct path answered many of them.
    expect(taken - before).toBeGreaterThan(40);
  });

  it('answers the documented failures the same way: bad token, missing scope, bad parameter, unknown zone', async () => {
    const cases: [RawRequest, number, RegExp][] = [
      [{ target: '/listingsvc/v2/listings?limit=2', headers: { authorization: 'bearer nope' } }, 401, /invalid_token/],
      [{ target: '/listingsvc/v2/listings?limit=2', headers: { authorization: `bearer ${tokens.noScope}` } }, 403, /read_listing/],
      [{ target: '/listingsvc/v2/listings?limit=abc', headers: { authorization: `bearer ${tokens.read}` } }, 400, /limit/],
      [{ target: '/listingsvc/v2/listings?fico_score=x', headers: { authorization: `bearer ${tokens.read}` } }, 400, /fico_score/],
      [{ target: '/listingsvc/v2/listings', headers: { authorization: `bearer ${tokens.read}`, timezone: 'Mars/Olympus' } }, 400, /timezone/],
    ];
    for (const [req, status, message] of cases) {
      const before = taken;
      const a = await rawRequest(direct.port, req, agent);
      expect(taken).toBe(before + 1);
      expect(a.status).toBe(status);
      expect(a.text).toMatch(message);
      await both(req);
    }
  });

  it('takes only GET at the normalised path; HEAD and other methods go through msw', async () => {
    const before = taken;
    const head = await rawRequest(direct.port, { method: 'HEAD', target: '/listingsvc/v2/listings', headers: { authorization: `bearer ${tokens.read}` } }, agent);
    const post = await rawRequest(direct.port, { method: 'POST', target: '/listingsvc/v2/listings', headers: { authorization: `bearer ${tokens.read}` } }, agent);
    expect([head.status, head.text, post.status]).toEqual([200, '', 405]);
    expect(taken).toBe(before);
  });

  it('applies injected faults to it as to any route', async () => {
    const before = taken;
    app.ctx.faults.set({ error_rate: 1, path: '/listingsvc', count: 1 });
    const a = await rawRequest(direct.port, { target: '/listingsvc/v2/listings', headers: { authorization: `bearer ${tokens.read}` } }, agent);
    expect([a.status, JSON.parse(a.text).code, taken]).toEqual([500, 'SYS0001', before]);
  });

  it('has its answers checked against the OpenAPI document when checking is on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mkt-direct-'));
    const checked = testMockApp({ seed: 11, listings: 20, frozen: true, start: TEST_START, checkAnswers: join(dir, 'violations.jsonl') });
    const server = await startHttpServer(checked);
    const spy = vi.spyOn(AnswerChecker.prototype, 'check');
    try {
      const token = issueTestToken(checked);
      const a = await rawRequest(server.port, { target: '/listingsvc/v2/listings?limit=1', headers: { authorization: `bearer ${token}` } }, agent);
      expect(a.status).toBe(200);
      const calls = spy.mock.calls.filter(([, url]) => url.pathname === '/listingsvc/v2/listings');
      expect(calls.map(([method, , res]) => [method, res.status])).toEqual([['GET', 200]]);
    } finally {
      spy.mockRestore();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
