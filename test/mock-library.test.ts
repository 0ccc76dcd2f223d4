/**
 * `mkt/mock` in Node: a marketplace inside msw's setupServer serves fetch and node:http clients in this
 * process with the full semantics (an order processed on a clock move), and its admin surface as methods.
 */
// The module object, as clients call it: msw patches its `request`, which a named import taken before would miss.
import http from 'node:http';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createMarketplace as create, MarketplaceError, type Marketplace, type MarketplaceOptions } from '../mock-server/library/index.js';

// Every answer checked against the OpenAPI document, as every mock the suite starts (test/helpers/answer-check-setup.ts).
const createMarketplace = (o: MarketplaceOptions): Marketplace => create({ ...o, checkAnswers: process.env.MKT_MOCK_CHECK_ANSWERS! });

const BASE = 'https://api.example.test';
const market: Marketplace = createMarketplace({ seed: 7, listings: 300 });
// node:http speaks http: only; the same marketplace answers under a second base URL too.
const PLAIN = 'http://api.example.test';
const server = setupServer(...market.handlers(BASE), ...market.handlers(PLAIN));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(async () => {
  server.close();
  await market.close();
});

const get = async (path: string, token?: string) => {
  const res = await fetch(`${BASE}${path}`, { headers: token ? { authorization: `bearer ${token}` } : {} });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe('mkt/mock in setupServer', () => {
  test('fetch: search, order, clock move, bids processed, cash moved', async () => {
    const token = await market.tokenFor('alice');
    const page = await get('/listingsvc/v2/listings/?limit=5&sort_by=lender_yield%20desc', token);
    expect(page.status).toBe(200);
    expect(page.body.result).toHaveLength(5);
    const listing = page.body.result[0];
    const before = await get('/v1/accounts/platform', token);
    const placed = await fetch(`${BASE}/v1/orders/`, {
      method: 'POST',
      headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ bid_requests: [{ listing_id: listing.listing_number, bid_amount: 25 }] }),
    });
    expect(placed.status).toBe(200);
    const order = (await placed.json()) as { order_id: string; order_status: string };
    expect(order.order_status).toBe('IN_PROGRESS');
    // Frozen: nothing happens until the clock moves.
    const pending = await get(`/v1/orders/${order.order_id}`, token);
    expect(pending).toMatchObject({ status: 200, body: { order_status: 'IN_PROGRESS' } });
    const t0 = market.clock.now().getTime();
    // Ten minutes: the order is processed 1.5 s after it was taken; the token (an hour, as the service's) still holds.
    const t1 = await market.clock.advance('10m');
    expect(t1.getTime() - t0).toBe(600_000);
    const done = await get(`/v1/orders/${order.order_id}`, token);
    // Processed: the bid has its result; the order stays IN_PROGRESS until the listing originates or expires.
    expect(done.body.bid_requests[0].bid_result).not.toBe('NONE');
    expect(pending.body.bid_requests[0].bid_result).toBe('NONE');
    const after = await get('/v1/accounts/platform', token);
    expect(after.body.available_cash_balance).toBeCloseTo(before.body.available_cash_balance - 25, 2);
    // The request log saw what the handlers answered, and not the admin calls.
    const logged = await market.requests.list();
    expect(logged.filter((e) => e.method === 'POST').map((e) => [e.path, e.status])).toEqual([['/v1/orders', 200]]);
    expect(logged.some((e) => e.path.startsWith('/__mock'))).toBe(false);
  });

  test('node:http is served too', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      const req = http.request(`${PLAIN}/v1/loans/`, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(`${res.statusCode} ${text}`));
      });
      req.on('error', reject);
      req.end();
    });
    // No token: the API's own 401, as over HTTP.
    expect(body.startsWith('401 ')).toBe(true);
  });

  test('the admin surface: faults, a bad duration, snapshots that go back, reset', async () => {
    await market.faults.set({ error_rate: 1, path: '/v1/loans' });
    const token = await market.tokenFor('bob');
    expect((await get('/v1/loans/', token)).status).toBe(500);
    await market.faults.clear();
    expect((await get('/v1/loans/', token)).status).toBe(200);
    await expect(market.clock.advance('soon')).rejects.toThrow(/not a duration/);
    await expect(market.clock.to('2001-01-01T00:00:00Z')).rejects.toBeInstanceOf(MarketplaceError);
    const saved = await market.snapshots.save('here');
    expect((await market.snapshots.list()).map((s) => s.name)).toContain('here');
    expect(saved.name).toBe('here');
    await market.snapshots.remove('here');
    await expect(market.snapshots.load('here')).rejects.toMatchObject({ status: 404 });
    const users = await market.accounts();
    expect(users.map((u) => u.user)).toContain('alice');
  });

  test('handlers: the admin routes can be left out; a base URL off the base path is refused', async () => {
    server.use(...createMarketplace({ listings: 0, history: 'none' }).handlers('https://other.example.test', { admin: false }));
    const res = await fetch('https://other.example.test/__mock/state');
    expect(res.status).toBe(404);
    expect(() => market.handlers('https://api.example.test/v9')).toThrow(/basePath/);
  });

  test('the same seed and calls give the same answers', async () => {
    const a = createMarketplace({ seed: 3, listings: 50 });
    const b = createMarketplace({ seed: 3, listings: 50 });
    const page = async (m: Marketplace) => {
      const res = await m.handle(
        new Request(`${BASE}/listingsvc/v2/listings/?limit=50`, { headers: { authorization: `bearer ${await m.tokenFor('alice')}` } }),
      );
      return res.text();
    };
    expect(await page(a)).toBe(await page(b));
    await Promise.all([a.close(), b.close()]);
  });
});

describe("mkt/mock for undici's own API", () => {
  test('request() through MarketplaceDispatcher answers as the handlers do; other origins go to the fallback', async () => {
    const { MarketplaceDispatcher } = await import('../mock-server/library/node.js');
    const { request, MockAgent } = await import('undici');
    const m = createMarketplace({ seed: 7, listings: 50 });
    // The fallback: any request it gets is one the marketplace did not take.
    const fallback = new MockAgent();
    fallback.disableNetConnect();
    fallback.get('https://elsewhere.test').intercept({ path: '/x' }).reply(204, '');
    const dispatcher = new MarketplaceDispatcher(m, BASE, fallback);
    const token = await m.tokenFor('alice');
    const res = await request(`${BASE}/v1/accounts/platform`, { dispatcher, headers: { authorization: `bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    const body = (await res.body.json()) as { available_cash_balance: number };
    const same = await m.handle(new Request(`${BASE}/v1/accounts/platform`, { headers: { authorization: `bearer ${token}` } }));
    expect(body).toEqual(await same.json());
    const posted = await request(`${BASE}/v1/orders/`, {
      dispatcher,
      method: 'POST',
      headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ bid_requests: [] }),
    });
    expect(posted.statusCode).toBe(400);
    expect(((await posted.body.json()) as { code: string }).code).toMatch(/^(ORD|VAL)/);
    expect((await request('https://elsewhere.test/x', { dispatcher })).statusCode).toBe(204);
    await m.faults.set({ drop_rate: 1, count: 1 });
    await expect(request(`${BASE}/v1/loans/`, { dispatcher, headers: { authorization: `bearer ${token}` } })).rejects.toThrow(/closed/);
    await m.close();
  });
});

describe('createMarketplace and handlers refuse what they cannot serve, naming it', () => {
  test.each([
    [{ seed: -1 }, /seed/],
    [{ listings: 1.5 }, /listings/],
    [{ history: 'some' as never }, /history/],
    [{ start: 'yesterday' }, /start/],
    [{ basePath: 'no slash?' }, /basePath/],
  ])('%j', (o, message) => {
    expect(() => create(o)).toThrow(message);
  });

  test('a base URL with a query, fragment or credentials, or no URL at all', () => {
    for (const bad of ['https://a.test/?x=1', 'https://a.test/#top', 'https://u:p@a.test', 'a.test'])
      expect(() => market.handlers(bad)).toThrow(/handlers/);
  });

  test('tokenFor an unknown user or client', async () => {
    await expect(market.tokenFor('mallory')).rejects.toMatchObject({ status: 400, code: 'VAL0001' });
    await expect(market.tokenFor('alice', { client: 'nobody' })).rejects.toThrow(/no OAuth client/);
  });
});

describe('listings.add', () => {
  test('an empty world filled with a chosen listing, found by search, refused junk naming the field', async () => {
    const m = createMarketplace({ listings: 0, history: 'none' });
    const added = await m.listings.add({ platform_rating: 'A', listing_amount: 10000 });
    expect(added).toMatchObject({ platform_rating: 'A', listing_amount: 10000 });
    const token = await m.tokenFor('alice');
    const found = await m.handle(
      new Request(`${BASE}/listingsvc/v2/listings/?platform_rating=A`, { headers: { authorization: `bearer ${token}` } }),
    );
    const page = (await found.json()) as { result: { listing_number: number }[] };
    expect(page.result.map((l) => l.listing_number)).toEqual([added.listing_number]);
    await expect(m.listings.add({ platform_rating: 'Z' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('platform_rating'),
    });
    await m.close();
  });
});
