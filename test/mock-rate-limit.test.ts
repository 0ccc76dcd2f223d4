/**
 * The mock throttles as the service does (issue 41, item 1): per client and endpoint group, a sliding
 * second of real time, the service's 429 body and Retry-After; admin routes never. Real time is an
 * injected source here: no sleeps, no timing assertions.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import type { MockOptions } from '../mock-server/context.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { createMarketplace } from '../mock-server/library/index.js';
import {
  clientKeyOf,
  MAX_BUCKETS,
  parseRateLimitSpec,
  RATE_LIMIT_OFF,
  RATE_LIMIT_ON,
  RateLimiter,
} from '../mock-server/http/rate-limit.js';
import { buildOpenApiDocument } from '../src/contract/openapi/document.js';
import { RATE_LIMITS, rateGroupOf, type RateGroup } from '../src/contract/rate-limits.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';

const ORIGIN = 'http://127.0.0.1';
const THROTTLED_MESSAGE = 'The request limit has been exceeded - you are temporarily throttled';

/** A real-time source a test moves by hand. */
function manualTime(start = 1_000_000): { now: () => number; move: (ms: number) => void } {
  let t = start;
  return { now: () => t, move: (ms) => void (t += ms) };
}

const apps: MockApp[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const a of apps.splice(0)) await a.close?.();
});

/** A small frozen mock throttling with the stated limits over `now`. */
function throttledApp(now: () => number, options: Partial<MockOptions> = {}): MockApp {
  const app = testMockApp(
    { seed: 5, listings: 30, history: 'none', frozen: true, start: TEST_START, rateLimit: RATE_LIMIT_ON, ...options },
    now,
  );
  apps.push(app);
  return app;
}

/** One request of each group, as a client sends it. */
function requestOf(group: RateGroup, token: string, base = ''): Request {
  const auth = { authorization: `Bearer ${token}` };
  switch (group) {
    case 'listings':
      return new Request(`${ORIGIN}${base}/listingsvc/v2/listings/?limit=1`, { headers: auth });
    case 'orders':
      return new Request(`${ORIGIN}${base}/v1/orders/`, { headers: auth });
    case 'account':
      return new Request(`${ORIGIN}${base}/v1/accounts/platform`, { headers: auth });
    case 'oauth':
      // The token endpoint's caller is its client_id (the grant itself may be refused: it is counted all the same).
      return new Request(`${ORIGIN}${base}/v1/security/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'refresh_token', client_id: token, refresh_token: 'none' }),
      });
  }
}

/** Sends `n` requests of `group` at once and returns their statuses. */
async function statuses(app: MockApp, group: RateGroup, token: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await app.handle(requestOf(group, token))).status);
  return out;
}

describe('the throttle over an injected clock', () => {
  test('the (limit+1)th request in a second is refused, with the whole seconds until the window frees', () => {
    const time = manualTime();
    const limiter = new RateLimiter(time.now, { enabled: true, limits: { ...RATE_LIMITS, listings: 3 } });
    // Three a second, at 0, 400 and 800 ms.
    expect([0, 400, 400].map((ms) => (time.move(ms), limiter.decide('listings', 'a').admitted))).toEqual([true, true, true]);
    time.move(199);
    expect(limiter.decide('listings', 'a')).toEqual({ admitted: false, retryAfterS: 1 });
    // The oldest leaves the window a second after it came: one more is admitted, then the window is full again (until 1400).
    time.move(1);
    expect(limiter.decide('listings', 'a').admitted).toBe(true);
    expect(limiter.decide('listings', 'a').admitted).toBe(false);
  });

  test('refused requests are not counted: a client that keeps asking is admitted once the second has passed', () => {
    const time = manualTime();
    const limiter = new RateLimiter(time.now, { enabled: true, limits: { ...RATE_LIMITS, orders: 2 } });
    limiter.decide('orders', 'a');
    limiter.decide('orders', 'a');
    for (let i = 0; i < 50; i++) {
      time.move(10);
      expect(limiter.decide('orders', 'a').admitted).toBe(false);
    }
    time.move(500);
    expect(limiter.decide('orders', 'a').admitted).toBe(true);
  });

  test('clients and groups have buckets of their own; off admits everything', () => {
    const time = manualTime();
    const limiter = new RateLimiter(time.now, { enabled: true, limits: { listings: 1, orders: 1, account: 1, oauth: 1 } });
    expect(limiter.decide('listings', 'a').admitted).toBe(true);
    expect(limiter.decide('listings', 'b').admitted).toBe(true);
    expect(limiter.decide('orders', 'a').admitted).toBe(true);
    expect(limiter.decide('listings', 'a').admitted).toBe(false);
    limiter.set({ ...RATE_LIMIT_OFF, limits: { listings: 1, orders: 1, account: 1, oauth: 1 } });
    for (let i = 0; i < 100; i++) expect(limiter.decide('listings', 'a').admitted).toBe(true);
  });

  test('a real clock stepped back is read as standing still: the window does not stretch', () => {
    const time = manualTime();
    const limiter = new RateLimiter(time.now, { enabled: true, limits: { ...RATE_LIMITS, listings: 1 } });
    limiter.decide('listings', 'a');
    time.move(-60_000);
    expect(limiter.decide('listings', 'a')).toEqual({ admitted: false, retryAfterS: 1 });
    // A second past the latest time read, not past the stepped-back one.
    time.move(60_000 + 1000);
    expect(limiter.decide('listings', 'a').admitted).toBe(true);
  });

  test('a flood of new clients keeps the buckets bounded, and a busy client keeps its window', () => {
    const time = manualTime();
    const limiter = new RateLimiter(time.now, { enabled: true, limits: { ...RATE_LIMITS, listings: 1 } });
    limiter.decide('listings', 'busy');
    for (let i = 0; i < MAX_BUCKETS * 2; i++) {
      if (i % 1000 === 0) time.move(1001);
      limiter.decide('listings', `c${i}`);
      if (i % 1000 === 0) limiter.decide('listings', 'busy');
    }
    expect((limiter as unknown as { buckets: Map<string, unknown> }).buckets.size).toBeLessThanOrEqual(MAX_BUCKETS);
    expect(limiter.decide('listings', 'busy').admitted).toBe(false);
  });

  test('a client is its bearer token, else the client_id given, else the one shared bucket', () => {
    expect(clientKeyOf('Bearer abc', 'x')).toBe('token:abc');
    expect(clientKeyOf('bearer   abc ', null)).toBe('token:abc');
    expect(clientKeyOf(null, 'mkt-demo')).toBe('client:mkt-demo');
    expect(clientKeyOf('Basic Zm9vOmJhcg==', null)).toBe('');
    expect(clientKeyOf(null, null)).toBe('');
    expect(clientKeyOf(`Bearer ${'t'.repeat(10_000)}`, null).length).toBeLessThan(300);
  });
});

describe('the groups', () => {
  test('each throttled route is in a group, and the admin, consent and document routes in none', () => {
    expect(rateGroupOf('/listingsvc/v2/listings/')).toBe('listings');
    expect(rateGroupOf('/v1/orders/')).toBe('orders');
    expect(rateGroupOf('/v1/orders/abc/listings')).toBe('orders');
    expect(rateGroupOf('/v1/security/oauth/token')).toBe('oauth');
    for (const p of ['/v1/accounts/platform', '/v1/notes/', '/v1/loans/payments', '/v1/marketplace/application/offers/'])
      expect(rateGroupOf(p)).toBe('account');
    for (const p of ['/__mock/state', '/__mock/rate-limit', '/openapi.json', '/oauth', '/apply/offers/x'])
      expect(rateGroupOf(p)).toBeNull();
  });

  for (const group of Object.keys(RATE_LIMITS) as RateGroup[]) {
    const limit = RATE_LIMITS[group];
    test(`${group}: request ${limit + 1} within a second is the service's 429; after the window the next is answered`, async () => {
      const time = manualTime();
      const app = throttledApp(time.now);
      const token = group === 'oauth' ? 'mkt-demo' : issueTestToken(app);
      const first = await statuses(app, group, token, limit);
      expect(first.every((s) => s !== 429)).toBe(true);
      time.move(999);
      const refused = await app.handle(requestOf(group, token));
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('content-type')).toBe('application/json');
      expect(await refused.json()).toEqual({
        timestamp: new Date(TEST_START).toISOString(),
        errors: [{ code: 'too_many_requests', message: THROTTLED_MESSAGE }],
      });
      time.move(1);
      expect((await app.handle(requestOf(group, token))).status).toBe(first[0]);
    });
  }

  test('two tokens have buckets of their own; a group shares its bucket across its routes', async () => {
    const time = manualTime();
    const app = throttledApp(time.now);
    const [alice, bob] = [issueTestToken(app, 'alice-1'), issueTestToken(app, 'bob-1')];
    expect(await statuses(app, 'listings', alice, 20)).not.toContain(429);
    expect(await statuses(app, 'listings', bob, 20)).not.toContain(429);
    expect(await statuses(app, 'listings', alice, 1)).toEqual([429]);
    // account is one group: notes, loans and the account share 20 a second.
    const get = (path: string) => app.handle(new Request(`${ORIGIN}${path}`, { headers: { authorization: `Bearer ${bob}` } }));
    for (const path of ['/v1/notes/', '/v1/loans/'].flatMap((p) => Array<string>(10).fill(p))) expect((await get(path)).status).toBe(200);
    expect((await get('/v1/accounts/platform')).status).toBe(429);
  });

  test('admin routes are never throttled, nor are paths no route serves', async () => {
    const time = manualTime();
    const app = throttledApp(time.now, { rateLimit: { enabled: true, limits: { listings: 1, orders: 1, account: 1, oauth: 1 } } });
    for (let i = 0; i < 30; i++) {
      expect((await app.handle(new Request(`${ORIGIN}/__mock/state`))).status).toBe(200);
      expect((await app.handle(new Request(`${ORIGIN}/__mock/rate-limit`))).status).toBe(200);
      expect((await app.handle(new Request(`${ORIGIN}/openapi.json`))).status).toBe(200);
      expect((await app.handle(new Request(`${ORIGIN}/v1/nothing-here`))).status).toBe(404);
    }
  });

  test('under a base path the same groups apply', async () => {
    const time = manualTime();
    const app = throttledApp(time.now, { basePath: '/mock', rateLimit: { enabled: true, limits: { ...RATE_LIMITS, orders: 1 } } });
    const token = issueTestToken(app);
    expect((await app.handle(requestOf('orders', token, '/mock'))).status).toBe(200);
    expect((await app.handle(requestOf('orders', token, '/mock'))).status).toBe(429);
  });
});

describe('with injected faults', () => {
  test('a fault answered in front of the service is not counted; an answer dropped after it was admitted is', async () => {
    const time = manualTime();
    const app = throttledApp(time.now, { rateLimit: { enabled: true, limits: { ...RATE_LIMITS, listings: 2 } } });
    const token = issueTestToken(app);
    // A dropped answer is Response.error() in-process (status 0): what fetch turns into its network error.
    const send = async () => {
      const res = await app.handle(requestOf('listings', token));
      if (res.status === 0) return 'network error';
      if (res.status !== 429) return String(res.status);
      return ((await res.json()) as { errors?: unknown }).errors ? '429 throttled' : '429 fault';
    };
    // The injected 429 (SYS0429) twice: the service never saw those requests.
    app.ctx.faults.set({ rate_limit_rate: 1, count: 2 });
    expect([await send(), await send()]).toEqual(['429 fault', '429 fault']);
    // The service answered this one, the client never heard: it counts.
    app.ctx.faults.set({ drop_response_rate: 1, count: 1 });
    expect(await send()).toBe('network error');
    expect([await send(), await send()]).toEqual(['200', '429 throttled']);
    // A throttled request whose answer is dropped: neither counted nor heard.
    app.ctx.faults.set({ drop_response_rate: 1, count: 1 });
    expect(await send()).toBe('network error');
    time.move(1000);
    expect([await send(), await send(), await send()]).toEqual(['200', '200', '429 throttled']);
  });
});

describe('the OpenAPI document', () => {
  test('every throttled route documents the service 429 (body and Retry-After), and no other route does', () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    let throttled = 0;
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        const text = JSON.stringify(op.responses['429'] ?? null);
        const documented = text.includes('#/components/schemas/Throttled');
        expect({ route: `${method} ${path}`, documented }).toEqual({ route: `${method} ${path}`, documented: rateGroupOf(path) !== null });
        if (documented) {
          throttled++;
          expect(text).toContain('"Retry-After"');
        }
      }
    expect(throttled).toBeGreaterThanOrEqual(12);
  });
});

describe('the setting', () => {
  test('GET /__mock/state shows it; POST /__mock/rate-limit changes it, and a bad body changes nothing', async () => {
    const time = manualTime();
    const app = throttledApp(time.now);
    const state = (await (await app.handle(new Request(`${ORIGIN}/__mock/state`))).json()) as { rate_limit: unknown };
    expect(state.rate_limit).toMatchObject({ enabled: true, limits: RATE_LIMITS, window_ms: 1000 });
    const post = (body: unknown) =>
      app.handle(
        new Request(`${ORIGIN}/__mock/rate-limit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    for (const bad of [{ limits: { listings: 0 } }, { limits: { pages: 3 } }, { enabled: 'yes' }, { speed: 1 }, { limits: [] }]) {
      const refused = await post(bad);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { code: string }).code).toBe('VAL0001');
    }
    expect(app.ctx.rateLimit.get()).toMatchObject({ enabled: true, limits: RATE_LIMITS });
    expect(await (await post({ limits: { orders: 1 } })).json()).toMatchObject({ enabled: true, limits: { ...RATE_LIMITS, orders: 1 } });
    const token = issueTestToken(app);
    expect(await statuses(app, 'orders', token, 2)).toEqual([200, 429]);
    expect(await (await post({ enabled: false })).json()).toMatchObject({ enabled: false, limits: { ...RATE_LIMITS, orders: 1 } });
    expect(await statuses(app, 'orders', token, 5)).toEqual([200, 200, 200, 200, 200]);
  });

  test('a mock made without the option does not throttle (the library and in-process callers)', async () => {
    const app = testMockApp({ seed: 5, listings: 30, history: 'none', frozen: true, start: TEST_START }, manualTime().now);
    apps.push(app);
    const token = issueTestToken(app);
    expect(await statuses(app, 'listings', token, 40)).not.toContain(429);
  });
});

describe('the library', () => {
  test('rateLimit is off by default, true or a spec turns it on, and a bad spec is a TypeError naming the option', async () => {
    const small = { listings: 0, history: 'none' } as const;
    for (const [given, expected] of [
      [undefined, { enabled: false, limits: RATE_LIMITS }],
      [true, { enabled: true, limits: RATE_LIMITS }],
      ['listings=1', { enabled: true, limits: { ...RATE_LIMITS, listings: 1 } }],
      ['off', { enabled: false, limits: RATE_LIMITS }],
    ] as const) {
      const market = createMarketplace({ ...small, ...(given === undefined ? {} : { rateLimit: given }) });
      expect(await market.rateLimit.get()).toMatchObject(expected);
      await market.close();
    }
    expect(() => createMarketplace({ ...small, rateLimit: 'pages=2' })).toThrow(/^rateLimit: "pages=2": unknown group 'pages'/);
    const market = createMarketplace(small);
    expect(await market.rateLimit.set({ limits: { orders: 3 } })).toMatchObject({ enabled: true, limits: { ...RATE_LIMITS, orders: 3 } });
    await expect(market.rateLimit.set({ limits: { orders: 0 } })).rejects.toThrow(/limits\.orders: must be a whole number/);
    await market.close();
  });
});

describe('the --rate-limit spec', () => {
  test('off, on, one number for every group, or GROUP=N pairs (the others keep their limit)', () => {
    expect(parseRateLimitSpec('off')).toEqual({ setting: RATE_LIMIT_OFF });
    expect(parseRateLimitSpec(' on ')).toEqual({ setting: RATE_LIMIT_ON });
    expect(parseRateLimitSpec('5')).toEqual({ setting: { enabled: true, limits: { listings: 5, orders: 5, account: 5, oauth: 5 } } });
    expect(parseRateLimitSpec('listings=40, orders = 3')).toEqual({
      setting: { enabled: true, limits: { ...RATE_LIMITS, listings: 40, orders: 3 } },
    });
  });

  test.each([
    ['', /must be off, on, a whole number/],
    ['0', /"0": a limit must be a whole number .* from 1 to 100000, got '0'/],
    ['listings', /"listings" is not GROUP=N/],
    ['pages=3', /unknown group 'pages'; groups: listings, orders, account, oauth/],
    ['listings=3,listings=4', /group 'listings' is given twice/],
    ['orders=-1', /orders: a limit must be .*got '-1'/],
    ['orders=1.5', /got '1.5'/],
    ['listings=20,', /"" is not GROUP=N/],
  ])('%j is refused naming what is wrong', (spec, message) => {
    const read = parseRateLimitSpec(spec);
    expect('problem' in read && read.problem).toMatch(message);
  });

  test('any text is a setting with limits in range, or a problem in one line that quotes no more than a bit of it', () => {
    const piece = fc.oneof(
      fc.constantFrom('off', 'on', 'listings', 'orders', 'account', 'oauth', '=', ',', ' ', '0', '1', '20', '-', '999999999', '1e3'),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const read = parseRateLimitSpec(text);
        if ('setting' in read) {
          for (const n of Object.values(read.setting.limits)) expect(Number.isSafeInteger(n) && n >= 1 && n <= 100_000).toBe(true);
        } else {
          expect(read.problem).not.toMatch(/[\n\r]|undefined/);
          expect(read.problem.length).toBeLessThan(400);
          expect(read.problem).toMatch(/must be|not GROUP=N|unknown group|given twice|a limit must be/);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('both doors throttle alike', () => {
  test('over HTTP and in-process, the same requests get the same statuses, Retry-After and body', async () => {
    const limits = { listings: 2, orders: 1, account: 2, oauth: 1 };
    const seen: { status: number; retryAfter: string | null; body: string }[][] = [];
    for (const door of ['http', 'in-process'] as const) {
      const time = manualTime();
      const app = throttledApp(time.now, { rateLimit: { enabled: true, limits } });
      const token = issueTestToken(app);
      let send = (r: Request): Promise<Response> => app.handle(r);
      if (door === 'http') {
        const server = await startHttpServer(app, '127.0.0.1', 0);
        servers.push(server);
        send = (r) => fetch(new Request(r.url.replace(ORIGIN, server.origin), r));
      }
      const answers = [];
      for (const group of ['listings', 'listings', 'listings', 'oauth', 'oauth', 'orders', 'orders'] as RateGroup[]) {
        const res = await send(requestOf(group, group === 'oauth' ? 'mkt-demo' : token));
        answers.push({ status: res.status, retryAfter: res.headers.get('retry-after'), body: res.status === 429 ? await res.text() : '' });
      }
      seen.push(answers);
    }
    expect(seen[0]!.map((a) => a.status).filter((s) => s === 429)).toHaveLength(3);
    expect(seen[0]).toEqual(seen[1]);
  });
});
