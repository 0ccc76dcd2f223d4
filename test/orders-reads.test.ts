/** GET /orders/{id}, GET /orders/, GET /orders/{id}/listings: ids, ownership, scopes, paging, sorting, filtering, zones. */
import { describe, expect, test } from 'vitest';
import { call, makeApp, order, plainListings, tokenFor } from './engine-fixture.js';

describe('GET /orders/{id}', () => {
  const app = makeApp();
  const alice = tokenFor(app, 'alice-1');

  test('an id that is not a UUID is ORD0002 (404)', async () => {
    const res = await call(app, 'GET', '/v1/orders/12345', { token: alice });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ORD0002');
  });

  test('an unknown UUID is ORD0001 (404)', async () => {
    const res = await call(app, 'GET', '/v1/orders/0b2c0b5e-1111-4222-8333-444455556666', { token: alice });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ORD0001');
  });

  test("someone else's order is ORD0001 too: only the caller's orders are visible", async () => {
    const id = (await order(app, alice, [{ listing_id: plainListings(app)[0]!.listing_number, bid_amount: 25 }])).body.order_id;
    expect((await call(app, 'GET', `/v1/orders/${id}`, { token: alice })).status).toBe(200);
    const bob = await call(app, 'GET', `/v1/orders/${id}`, { token: tokenFor(app, 'bob-1') });
    expect(bob.body.code).toBe('ORD0001');
    expect((await call(app, 'GET', `/v1/orders/${id}`, { token: tokenFor(app, 'alice-2') })).body.code).toBe('ORD0001');
  });

  test('a read-only grant may read orders; without a token it is 401', async () => {
    const id = (await order(app, alice, [{ listing_id: plainListings(app)[1]!.listing_number, bid_amount: 25 }])).body.order_id;
    const ro = tokenFor(app, 'alice-1', true);
    expect((await call(app, 'GET', `/v1/orders/${id}`, { token: ro })).status).toBe(200);
    expect((await call(app, 'GET', `/v1/orders/${id}`)).status).toBe(401);
  });

  test('dates follow the timezone header; an unknown zone is a 400', async () => {
    const id = (await order(app, alice, [{ listing_id: plainListings(app)[2]!.listing_number, bid_amount: 25 }])).body.order_id;
    const ny = await call(app, 'GET', `/v1/orders/${id}`, { token: alice, headers: { timezone: 'America/New_York' } });
    expect(ny.body.order_date).toBe('2026-03-02 07:00:00 -0500');
    expect((await call(app, 'GET', `/v1/orders/${id}`, { token: alice, headers: { timezone: 'Mars/Olympus' } })).status).toBe(400);
  });

  test('deprecated yields appear only for orders with listings that started on or before 2018-08-08', async () => {
    expect((await call(app, 'GET', '/v1/orders?limit=1', { token: alice })).body.result[0]).not.toHaveProperty('estimated_return');
    const old = makeApp({ start: Date.parse('2018-07-20T12:00:00Z') });
    const token = tokenFor(old, 'alice-1');
    const l = plainListings(old)[0]!;
    const created = await order(old, token, [{ listing_id: l.listing_number, bid_amount: 25 }]);
    expect(created.body.estimated_return).toBe(l.estimated_return);
    const read = await call(old, 'GET', `/v1/orders/${created.body.order_id}`, { token });
    expect(read.body.effective_yield).toBe(l.effective_yield);
    expect(read.body.estimated_loss).toBe(l.estimated_loss_rate);
    const listings = await call(old, 'GET', `/v1/orders/${created.body.order_id}/listings`, { token });
    expect(listings.body.result[0].estimated_return).toBe(l.estimated_return);
  });
});

describe('GET /orders/', () => {
  test("lists only the caller's orders with offset and limit (default 25, maximum 100)", async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const ls = plainListings(app);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++)
      ids.push((await order(app, alice, [{ listing_id: ls[i % ls.length]!.listing_number, bid_amount: 25 }])).body.order_id);
    await order(app, tokenFor(app, 'dave-1'), [{ listing_id: ls[0]!.listing_number, bid_amount: 25 }]);
    const first = (await call(app, 'GET', '/v1/orders', { token: alice })).body;
    expect(first.total_count).toBe(30);
    expect(first.result_count).toBe(25);
    expect(first.result.map((o: { order_id: string }) => o.order_id)).toEqual(ids.slice(0, 25));
    const next = (await call(app, 'GET', '/v1/orders?offset=25&limit=25', { token: alice })).body;
    expect(next.result.map((o: { order_id: string }) => o.order_id)).toEqual(ids.slice(25));
    expect((await call(app, 'GET', '/v1/orders?limit=500', { token: alice })).body.result_count).toBe(30);
    const bad = await call(app, 'GET', '/v1/orders?offset=-1', { token: alice });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VAL0001');
  });
});

describe('GET /orders/{id}/listings', () => {
  test('sorts by listing_number desc by default, honours sort_by and status, and shows note_number only when INVESTED', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const [a, b, c] = plainListings(app);
    b!.verification_stage = 3;
    const id = (
      await order(app, alice, [
        { listing_id: a!.listing_number, bid_amount: 25 },
        { listing_id: b!.listing_number, bid_amount: b!.amount_remaining },
        { listing_id: c!.listing_number, bid_amount: 40 },
      ])
    ).body.order_id;
    await call(app, 'POST', '/__mock/process');
    await call(app, 'POST', `/__mock/listings/${c!.listing_number}/withdraw`);
    await call(app, 'POST', '/__mock/clock', { body: { advance: '4d' } });
    const path = `/v1/orders/${id}/listings`;
    const all = (await call(app, 'GET', path, { token: alice })).body;
    expect(all.total_count).toBe(3);
    const numbers = all.result.map((r: { listing_number: string }) => Number(r.listing_number));
    expect(numbers).toEqual([...numbers].sort((x, y) => y - x));
    for (const r of all.result) {
      if (r.status === 'INVESTED') expect(r.note_number).toMatch(/^\d+-\d+$/);
      else expect(r.note_number).toBeNull();
    }
    // b was funded whole and originates; a may too, as simulated investors fill it meanwhile.
    const investedRows = all.result
      .filter((r: { status: string }) => r.status === 'INVESTED')
      .map((r: { listing_number: string }) => r.listing_number);
    expect(investedRows).toContain(String(b!.listing_number));
    const invested = (await call(app, 'GET', `${path}?status=INVESTED`, { token: alice })).body;
    expect(invested.result.map((r: { listing_number: string }) => r.listing_number)).toEqual(investedRows);
    const expired = (await call(app, 'GET', `${path}?status=EXPIRED`, { token: alice })).body;
    expect(expired.result.map((r: { listing_number: string }) => r.listing_number)).toContain(String(c!.listing_number));
    const byAmount = (await call(app, 'GET', `${path}?sort_by=${encodeURIComponent('listing_amount asc')}`, { token: alice })).body;
    const amounts = byAmount.result.map((r: { listing_amount: number }) => r.listing_amount);
    expect(amounts).toEqual([...amounts].sort((x, y) => x - y));
    expect((await call(app, 'GET', `${path}?limit=1&offset=1`, { token: alice })).body.result_count).toBe(1);
    expect((await call(app, 'GET', `${path}?sort_by=nonsense`, { token: alice })).status).toBe(400);
    expect((await call(app, 'GET', `${path}?status=LOST`, { token: alice })).status).toBe(400);
    expect((await call(app, 'GET', '/v1/orders/not-a-uuid/listings', { token: alice })).body.code).toBe('ORD0002');
  });
});
