/** The order and bid state table of the spec, one test per row, through the HTTP handlers with a frozen clock. */
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { fund } from '../mock-server/engine/lifecycle.js';
import { specialListing } from '../mock-server/seed/seed-extras.js';
import type { Listing } from '../mock-server/world/world.js';
import { call, DAY, HOUR, makeApp, order, plainListings, tokenFor } from './engine-fixture.js';

async function account(app: MockApp, token: string) {
  return (await call(app, 'GET', '/v1/accounts/platform', { token })).body as {
    available_cash_balance: number;
    pending_investments_primary_market: number;
    total_account_value: number;
  };
}

async function getOrder(app: MockApp, token: string, id: string) {
  return (await call(app, 'GET', `/v1/orders/${id}`, { token })).body;
}

/** A plain listing with plenty of time left, made ready: stage 3 when `verified`. */
function pick(app: MockApp, i = 0, verified = false): Listing {
  const l = plainListings(app)[i]!;
  if (verified) l.verification_stage = 3;
  return l;
}

describe('POST /orders', () => {
  test('validation passes: order IN_PROGRESS, every bid PENDING with bid_result NONE until processed', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const res = await order(app, alice, [{ listing_id: pick(app).listing_number, bid_amount: 50 }]);
    const o = await getOrder(app, alice, res.body.order_id);
    expect(o.order_status).toBe('IN_PROGRESS');
    expect(o.bid_requests).toEqual([
      { listing_id: pick(app).listing_number, bid_amount: 50, bid_amount_placed: 0, bid_status: 'PENDING', bid_result: 'NONE' },
    ]);
    expect(o.order_amount).toBe(50);
    expect(o.order_amount_placed).toBe(0);
  });

  test('validation fails on any bid: no order is created', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const res = await order(app, alice, [
      { listing_id: pick(app).listing_number, bid_amount: 50 },
      { listing_id: 1, bid_amount: 50 },
    ]);
    expect(res.status).toBe(404);
    expect((await call(app, 'GET', '/v1/orders', { token: alice })).body.total_count).toBe(0);
  });
});

describe('order processing', () => {
  test('happens after the configured delay, not before', async () => {
    const app = makeApp({ processDelayMs: 5000 });
    const alice = tokenFor(app, 'alice-1');
    const id = (await order(app, alice, [{ listing_id: pick(app).listing_number, bid_amount: 50 }])).body.order_id;
    await call(app, 'POST', '/__mock/clock', { body: { advance: '4s' } });
    expect((await getOrder(app, alice, id)).bid_requests[0].bid_result).toBe('NONE');
    await call(app, 'POST', '/__mock/clock', { body: { advance: '1s' } });
    expect((await getOrder(app, alice, id)).bid_requests[0].bid_result).toBe('BID_SUCCEEDED');
  });

  test('listing no longer active: LISTING_NOT_BIDDABLE, EXPIRED, amount credited back', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const l = pick(app);
    const before = await account(app, alice);
    const id = (await order(app, alice, [{ listing_id: l.listing_number, bid_amount: 75 }])).body.order_id;
    expect((await call(app, 'POST', `/__mock/listings/${l.listing_number}/withdraw`)).status).toBe(200);
    await call(app, 'POST', '/__mock/process');
    const o = await getOrder(app, alice, id);
    expect(o.bid_requests[0]).toMatchObject({ bid_status: 'EXPIRED', bid_result: 'LISTING_NOT_BIDDABLE', bid_amount_placed: 0 });
    expect(o.order_status).toBe('COMPLETED');
    expect((await account(app, alice)).available_cash_balance).toBe(before.available_cash_balance);
  });

  test('bid placed in full: BID_SUCCEEDED, still PENDING, order stays IN_PROGRESS, listing funded by the bid', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const l = pick(app);
    const funded = l.amount_funded;
    const id = (await order(app, alice, [{ listing_id: l.listing_number, bid_amount: 75 }])).body.order_id;
    await call(app, 'POST', '/__mock/process');
    const o = await getOrder(app, alice, id);
    expect(o.bid_requests[0]).toMatchObject({ bid_status: 'PENDING', bid_result: 'BID_SUCCEEDED', bid_amount_placed: 75 });
    expect(o.order_status).toBe('IN_PROGRESS');
    expect(o.order_amount_placed).toBe(75);
    expect(l.amount_funded).toBe(funded + 75);
  });

  test('bid above the amount remaining: PARTIAL_BID_SUCCEEDED, placed cut to the remainder, excess credited', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const l = pick(app);
    const remaining = l.amount_remaining;
    const before = await account(app, alice);
    const id = (await order(app, alice, [{ listing_id: l.listing_number, bid_amount: remaining + 100 }])).body.order_id;
    await call(app, 'POST', '/__mock/process');
    const o = await getOrder(app, alice, id);
    expect(o.bid_requests[0]).toMatchObject({ bid_status: 'PENDING', bid_result: 'PARTIAL_BID_SUCCEEDED', bid_amount_placed: remaining });
    expect(l.amount_funded).toBe(l.listing_amount);
    const after = await account(app, alice);
    expect(after.available_cash_balance).toBeCloseTo(before.available_cash_balance - remaining, 2);
    expect(after.pending_investments_primary_market).toBeCloseTo(before.pending_investments_primary_market + remaining, 2);
  });

  test('partial-funding listing under 24 hours old: a bid above 10% is LENDER_NOT_ELIGIBLE_TO_BID and EXPIRED with a refund; 10% is fine; later any amount is', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const young = specialListing(app.ctx.world, 'young_partial')!;
    const tenth = Math.floor(young.listing_amount * 0.1);
    const before = await account(app, alice);
    const big = (await order(app, alice, [{ listing_id: young.listing_number, bid_amount: tenth + 25 }])).body.order_id;
    await call(app, 'POST', '/__mock/process');
    expect((await getOrder(app, alice, big)).bid_requests[0]).toMatchObject({
      bid_status: 'EXPIRED',
      bid_result: 'LENDER_NOT_ELIGIBLE_TO_BID',
      bid_amount_placed: 0,
    });
    expect((await account(app, alice)).available_cash_balance).toBe(before.available_cash_balance);
    const small = (await order(app, tokenFor(app, 'alice-2'), [{ listing_id: young.listing_number, bid_amount: tenth }])).body.order_id;
    await call(app, 'POST', '/__mock/process');
    expect((await getOrder(app, tokenFor(app, 'alice-2'), small)).bid_requests[0].bid_result).toBe('BID_SUCCEEDED');
    // 24 hours after its creation the 10% rule no longer applies.
    await call(app, 'POST', '/__mock/clock', { body: { to: new Date(young.listing_creation_date + DAY).toISOString() } });
    if (young.listing_status === 2) {
      const later = (
        await order(app, alice, [{ listing_id: young.listing_number, bid_amount: Math.min(young.amount_remaining, tenth + 25) }])
      ).body.order_id;
      await call(app, 'POST', '/__mock/process');
      expect((await getOrder(app, alice, later)).bid_requests[0].bid_result).toMatch(/^(PARTIAL_)?BID_SUCCEEDED$/);
    } else {
      throw new Error(`young listing ended early: status ${young.listing_status}`);
    }
  });

  test('processing fails: a whole loan taken meanwhile is BID_FAILED and EXPIRED with a refund', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const whole = app.ctx.world.listings.find((x) => x.investment_typeid === 2 && x.listing_status === 2 && x.verification_stage < 3)!;
    const before = await account(app, alice);
    const id = (await order(app, alice, [{ listing_id: whole.listing_number, bid_amount: whole.listing_amount }])).body.order_id;
    fund(app.ctx.world, whole, whole.listing_amount, app.ctx.clock.now());
    await call(app, 'POST', '/__mock/process');
    expect((await getOrder(app, alice, id)).bid_requests[0]).toMatchObject({ bid_status: 'EXPIRED', bid_result: 'BID_FAILED' });
    expect((await account(app, alice)).available_cash_balance).toBe(before.available_cash_balance);
  });
});

describe('after processing', () => {
  test('listing originates: bid INVESTED with a note number, order COMPLETED with its invested amount, loan visible', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const l = pick(app, 0, true);
    const amount = l.amount_remaining;
    const id = (await order(app, alice, [{ listing_id: l.listing_number, bid_amount: amount }])).body.order_id;
    await call(app, 'POST', '/__mock/process');
    expect(l.listing_status).toBe(8);
    await call(app, 'POST', '/__mock/clock', { body: { advance: '4d' } });
    expect(l.listing_status).toBe(6);
    const o = await getOrder(app, alice, id);
    expect(o.bid_requests[0]).toMatchObject({ bid_status: 'INVESTED', bid_result: 'BID_SUCCEEDED', bid_amount_placed: amount });
    expect(o.order_status).toBe('COMPLETED');
    expect(o.order_amount_invested).toBe(amount);
    const listings = (await call(app, 'GET', `/v1/orders/${id}/listings`, { token: alice })).body;
    expect(listings.result[0].status).toBe('INVESTED');
    expect(listings.result[0].note_number).toMatch(/^\d+-\d+$/);
    expect(listings.result[0].invested_amount).toBe(amount);
    const loan = (await call(app, 'GET', `/v1/loans/${l.loan_number}`, { token: alice })).body;
    expect(loan.amount_borrowed).toBe(l.listing_amount);
    expect(loan.loan_status_description).toBe('CURRENT');
    expect(loan.origination_date <= new Date(l.listing_start_date + 14 * DAY).toISOString().slice(0, 10)).toBe(true);
  });

  test('listing at 70% with partial funding at its end originates for the funded amount; without partial funding it expires', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const [withPartial, without] = [pick(app, 0, true), pick(app, 1, true)];
    const now = app.ctx.clock.now();
    for (const [l, partial] of [
      [withPartial, true],
      [without, false],
    ] as const) {
      l.partial_funding_indicator = partial;
      l.listing_end_date = now + 2 * HOUR;
      l.amount_funded = 0;
      l.amount_remaining = l.listing_amount;
      fund(app.ctx.world, l, Math.ceil((l.listing_amount * 0.75) / 25) * 25 - 50, now);
    }
    const ids = [];
    for (const l of [withPartial, without])
      ids.push((await order(app, alice, [{ listing_id: l.listing_number, bid_amount: 50 }])).body.order_id);
    await call(app, 'POST', '/__mock/process');
    await call(app, 'POST', '/__mock/clock', { body: { advance: '3h' } });
    expect(withPartial.listing_status).toBe(6);
    expect(app.ctx.world.loans.get(withPartial.loan_number!)!.amount_borrowed).toBe(withPartial.amount_funded);
    expect(withPartial.amount_funded).toBeLessThan(withPartial.listing_amount);
    expect((await getOrder(app, alice, ids[0])).bid_requests[0].bid_status).toBe('INVESTED');
    expect(without.listing_status).toBe(5);
    expect((await getOrder(app, alice, ids[1])).bid_requests[0]).toMatchObject({ bid_status: 'EXPIRED', bid_result: 'BID_SUCCEEDED' });
  });

  test.each([
    ['withdrawn', 'withdraw', 4],
    ['cancelled by the operator', 'cancel', 7],
  ])('listing %s: bid EXPIRED, bid_result stays BID_SUCCEEDED, money credited, order COMPLETED', async (_name, action, status) => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const l = pick(app);
    const before = await account(app, alice);
    const id = (await order(app, alice, [{ listing_id: l.listing_number, bid_amount: 60 }])).body.order_id;
    await call(app, 'POST', '/__mock/process');
    expect((await account(app, alice)).pending_investments_primary_market).toBeCloseTo(before.pending_investments_primary_market + 60, 2);
    await call(app, 'POST', `/__mock/listings/${l.listing_number}/${action}`);
    expect(l.listing_status).toBe(status);
    const o = await getOrder(app, alice, id);
    expect(o.bid_requests[0]).toMatchObject({ bid_status: 'EXPIRED', bid_result: 'BID_SUCCEEDED' });
    expect(o.order_status).toBe('COMPLETED');
    const after = await account(app, alice);
    expect(after.available_cash_balance).toBe(before.available_cash_balance);
    expect(after.pending_investments_primary_market).toBe(before.pending_investments_primary_market);
  });

  test('listing expired unfunded: bid EXPIRED with a refund when the listing ends short', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const l = pick(app);
    l.partial_funding_indicator = false;
    l.listing_end_date = app.ctx.clock.now() + 2 * HOUR;
    const before = await account(app, alice);
    const id = (await order(app, alice, [{ listing_id: l.listing_number, bid_amount: 60 }])).body.order_id;
    await call(app, 'POST', '/__mock/clock', { body: { advance: '3h' } });
    expect(l.listing_status).toBe(5);
    const o = await getOrder(app, alice, id);
    expect(o.bid_requests[0]).toMatchObject({ bid_status: 'EXPIRED', bid_result: 'BID_SUCCEEDED' });
    expect((await account(app, alice)).available_cash_balance).toBe(before.available_cash_balance);
  });

  test('an order is COMPLETED only once every bid is INVESTED or EXPIRED', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const [a, b] = [pick(app, 0), pick(app, 1)];
    const id = (
      await order(app, alice, [
        { listing_id: a.listing_number, bid_amount: 25 },
        { listing_id: b.listing_number, bid_amount: 25 },
      ])
    ).body.order_id;
    await call(app, 'POST', '/__mock/process');
    await call(app, 'POST', `/__mock/listings/${a.listing_number}/withdraw`);
    expect((await getOrder(app, alice, id)).order_status).toBe('IN_PROGRESS');
    await call(app, 'POST', `/__mock/listings/${b.listing_number}/withdraw`);
    expect((await getOrder(app, alice, id)).order_status).toBe('COMPLETED');
  });
});
