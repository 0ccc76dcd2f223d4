/** Over real HTTP on 127.0.0.1: injected faults, racing orders, real-time processing, admin input checks. */
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { checkInvariants } from '../mock-server/audit/invariants.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { mockAdminUrl } from '../src/contract/mock-admin.js';
import { makeApp, plainListings, START, tokenFor } from './engine-fixture.js';
import { testMockApp } from './helpers/mock.js';

const running: { app: MockApp; server: RunningServer }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.server.close();
    await r.app.close?.();
  }
});

async function serve(app: MockApp = makeApp({ listings: 80 })) {
  const server = await startHttpServer(app, '127.0.0.1', 0);
  running.push({ app, server });
  return { app, origin: server.origin };
}

async function post(url: string, body: unknown, token?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    signal: AbortSignal.timeout(10_000),
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

describe('faults', () => {
  test('error_rate 1 answers 500 SYS0001; {} clears it', async () => {
    const { app, origin } = await serve();
    const token = tokenFor(app, 'alice-1');
    expect((await post(mockAdminUrl(origin, 'faults'), { error_rate: 1 })).status).toBe(200);
    const res = await fetch(`${origin}/v1/accounts/platform`, { headers: { authorization: `bearer ${token}` } });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ code: 'SYS0001', message: 'Application Error' });
    await post(mockAdminUrl(origin, 'faults'), {});
    expect((await fetch(`${origin}/v1/accounts/platform`, { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
  });

  test('rate_limit_rate answers 429 with Retry-After, for the given count of requests only', async () => {
    const { app, origin } = await serve();
    const token = tokenFor(app, 'alice-1');
    await post(mockAdminUrl(origin, 'faults'), { rate_limit_rate: 1, retry_after: 7, count: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${origin}/v1/orders`, { headers: { authorization: `bearer ${token}` } });
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get('retry-after')).toBe('7');
    }
    expect(statuses).toEqual([429, 429, 200]);
  });

  test('drop_response: the order exists though the client never got the answer', async () => {
    const { app, origin } = await serve();
    const token = tokenFor(app, 'alice-1');
    await post(mockAdminUrl(origin, 'faults'), { drop_response_rate: 1, path: '/v1/orders', method: 'POST' });
    const listing = plainListings(app)[0]!.listing_number;
    await expect(post(`${origin}/v1/orders`, { bid_requests: [{ listing_id: listing, bid_amount: 25 }] }, token)).rejects.toThrow();
    expect(app.ctx.world.orders.size).toBe(1);
    // GETs are untouched by a POST-only fault: the client can find its order.
    const list = (await (await fetch(`${origin}/v1/orders`, { headers: { authorization: `bearer ${token}` } })).json()) as {
      total_count: number;
    };
    expect(list.total_count).toBe(1);
  });

  test('drop_rate drops the connection before the handler runs: no order', async () => {
    const { app, origin } = await serve();
    const token = tokenFor(app, 'alice-1');
    await post(mockAdminUrl(origin, 'faults'), { drop_rate: 1 });
    const listing = plainListings(app)[0]!.listing_number;
    await expect(post(`${origin}/v1/orders`, { bid_requests: [{ listing_id: listing, bid_amount: 25 }] }, token)).rejects.toThrow();
    expect(app.ctx.world.orders.size).toBe(0);
  });

  test('handler_delay_ms: a request read whole is handled later though the client gave up (the order lands); latency_ms: it is not', async () => {
    const landed: Record<string, number> = {};
    for (const fault of [{ handler_delay_ms: 600 }, { latency_ms: 600 }]) {
      const { app, origin } = await serve();
      const token = tokenFor(app, 'alice-1');
      await post(mockAdminUrl(origin, 'faults'), { ...fault, path: '/v1/orders', method: 'POST' });
      const listing = plainListings(app)[0]!.listing_number;
      const gaveUp = fetch(`${origin}/v1/orders`, {
        method: 'POST',
        signal: AbortSignal.timeout(100),
        headers: { 'content-type': 'application/json', authorization: `bearer ${token}` },
        body: JSON.stringify({ bid_requests: [{ listing_id: listing, bid_amount: 25 }] }),
      });
      await expect(gaveUp).rejects.toThrow();
      expect(app.ctx.world.orders.size).toBe(0);
      // Well past the 600 ms either fault adds: a delayed handler has run by then.
      for (let i = 0; i < 30 && app.ctx.world.orders.size === 0; i++) await new Promise((r) => setTimeout(r, 100));
      landed[Object.keys(fault)[0]!] = app.ctx.world.orders.size;
    }
    expect(landed).toEqual({ handler_delay_ms: 1, latency_ms: 0 });
  });

  test('latency_ms delays answers; bad settings are a 400 naming the field', async () => {
    const { app, origin } = await serve();
    const token = tokenFor(app, 'alice-1');
    await post(mockAdminUrl(origin, 'faults'), { latency_ms: 150 });
    const t0 = performance.now();
    expect((await fetch(`${origin}/v1/orders`, { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    for (const bad of [
      { latency_ms: 10 ** 9 },
      { handler_delay_ms: -1 },
      { handler_delay_ms: 1.5 },
      { error_rate: 2 },
      { error_rate: 0.6, drop_rate: 0.6 },
      { nonsense: 1 },
      [1],
    ]) {
      const res = await post(mockAdminUrl(origin, 'faults'), bad);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('VAL0001');
    }
  });
});

describe('concurrency', () => {
  test('many orders racing for the same listing never over-fund it', async () => {
    const { app, origin } = await serve();
    const listing = plainListings(app)[0]!;
    const accounts = ['alice-1', 'alice-2', 'ivy-1', 'dave-1'];
    const tokens = accounts.map((a) => tokenFor(app, a));
    const bid = Math.min(2500, Math.ceil(listing.amount_remaining / 10 / 25) * 25 + 25);
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        post(`${origin}/v1/orders`, { bid_requests: [{ listing_id: listing.listing_number, bid_amount: bid }] }, tokens[i % tokens.length]),
      ),
    );
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThan(10);
    await post(mockAdminUrl(origin, 'process'), {});
    expect(listing.amount_funded).toBeLessThanOrEqual(listing.listing_amount);
    const placed = [...app.ctx.world.orders.values()].flatMap((o) => o.bids).reduce((s, b) => s + b.bid_amount_placed, 0);
    expect(placed).toBeLessThanOrEqual(listing.listing_amount);
    const results = new Set([...app.ctx.world.orders.values()].map((o) => o.bids[0]!.bid_result));
    expect(results.has('BID_SUCCEEDED')).toBe(true);
    // The listing was over-subscribed: the last bids were cut or found nothing left.
    expect(results.has('PARTIAL_BID_SUCCEEDED') || results.has('LISTING_NOT_BIDDABLE')).toBe(true);
    expect(listing.amount_funded).toBe(listing.listing_amount);
    expect(checkInvariants(app.ctx.world).ok).toBe(true);
  });
});

describe('real time', () => {
  test('a running clock processes an accepted order on its own, shortly after acceptance', async () => {
    const app = testMockApp({ seed: 7, listings: 60, start: START, frozen: false, processDelayMs: 300 });
    const { origin } = await serve(app);
    const token = tokenFor(app, 'alice-1');
    const listing = plainListings(app)[0]!.listing_number;
    const created = (await (
      await post(`${origin}/v1/orders`, { bid_requests: [{ listing_id: listing, bid_amount: 25 }] }, token)
    ).json()) as { order_id: string };
    let result = 'NONE';
    for (let i = 0; i < 50 && result === 'NONE'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      result = app.ctx.world.orders.get(created.order_id)!.bids[0]!.bid_result;
    }
    expect(result).toBe('BID_SUCCEEDED');
  });
});

describe('admin input', () => {
  test('the clock refuses bad moves with 400 and moves on good ones', async () => {
    const { app, origin } = await serve();
    for (const bad of [
      {},
      { advance: 'soon' },
      { to: 'yesterday' },
      { advance: '1h', to: '2030-01-01T00:00:00Z' },
      { to: '2020-01-01T00:00:00Z' },
      { advance: '500d' },
    ]) {
      expect((await post(mockAdminUrl(origin, 'clock'), bad)).status).toBe(400);
    }
    expect(app.ctx.clock.now()).toBe(START);
    const res = await post(mockAdminUrl(origin, 'clock'), { to: '2026-03-05T00:00:00Z' });
    expect(await res.json()).toEqual({ now: '2026-03-05 00:00:00 +0000', moved_ms: Date.parse('2026-03-05T00:00:00Z') - START });
    const invalid = await fetch(mockAdminUrl(origin, 'clock'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(invalid.status).toBe(400);
  });

  test('with admin off, the admin routes do not exist', async () => {
    const { origin } = await serve(makeApp({ listings: 30, admin: false }));
    expect((await post(mockAdminUrl(origin, 'clock'), { advance: '1h' })).status).toBe(404);
  });
});
