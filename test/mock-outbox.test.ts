/**
 * The spec's notifications as the mock's outbox (GET/DELETE /__mock/outbox): one message per event —
 * validation error, processed, completed — to the investor's registered address, never twice, also
 * across clock moves and reloads of the state file.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import type { OutboxMessage } from '../src/contract/mock-inspect.js';
import { call, makeApp, order, plainListings, tokenFor } from './engine-fixture.js';

async function outbox(app: MockApp, query = ''): Promise<OutboxMessage[]> {
  const res = await call(app, 'GET', `/__mock/outbox${query}`);
  expect(res.status).toBe(200);
  expect(res.body.result_count).toBe(res.body.result.length);
  return res.body.result;
}

/** Kinds of the messages about `orderId`, oldest first. */
async function kindsOf(app: MockApp, orderId: string): Promise<string[]> {
  return (await outbox(app, `?order_id=${orderId}`)).map((m) => m.kind).reverse();
}

/** Alice's order for the whole remaining amount of a verified listing: it originates once processed and the clock moves on. */
async function wholeListingOrder(app: MockApp): Promise<{ id: string; amount: number; token: string }> {
  const token = tokenFor(app, 'alice-1');
  const l = plainListings(app)[0]!;
  l.verification_stage = 3;
  const res = await order(app, token, [{ listing_id: l.listing_number, bid_amount: l.amount_remaining }]);
  expect(res.status).toBe(200);
  return { id: res.body.order_id, amount: l.amount_remaining, token };
}

const advance = (app: MockApp, by: string) => call(app, 'POST', '/__mock/clock', { body: { advance: by } });

describe('outbox: one message per event', () => {
  test('an order processed, then originated, is reported processed once and completed once, however often the clock moves', async () => {
    const app = makeApp();
    const { id, amount, token } = await wholeListingOrder(app);
    expect(await outbox(app)).toEqual([]);
    await call(app, 'POST', '/__mock/process');
    await call(app, 'POST', '/__mock/process');
    expect(await kindsOf(app, id)).toEqual(['order_processed']);
    for (let i = 0; i < 6; i++) await advance(app, '1d');
    await call(app, 'POST', '/__mock/process');
    expect(await kindsOf(app, id)).toEqual(['order_processed', 'order_completed']);
    const [completed, processed] = await outbox(app);
    expect(processed).toMatchObject({
      to: 'alice@investors.example',
      order_id: id,
      subject: `Your order ${id} has been processed`,
      sent_at: '2026-03-02 12:00:00 +0000',
    });
    expect(processed!.text).toContain(`Your order ${id}`);
    expect(processed!.text).toContain('results: 1 bid succeeded');
    expect(processed!.text).toContain('Bid status: 1 pending');
    expect(completed).toMatchObject({ kind: 'order_completed', subject: `Your order ${id} is complete` });
    expect(completed!.text).toContain(`invested: $${amount.toLocaleString('en-US', { minimumFractionDigits: 2 })} in 1 note;`);
    expect(completed!.text).toContain('status: 1 invested');
    expect(completed!.id).toBeGreaterThan(processed!.id);
    expect(JSON.stringify(await outbox(app))).not.toContain(token);
  });

  test('an order whose every bid expires at processing is reported processed, then completed, at once', async () => {
    const app = makeApp();
    const { id } = await wholeListingOrder(app);
    const listing = app.ctx.world.orders.get(id)!.bids[0]!.listing_id;
    expect((await call(app, 'POST', `/__mock/listings/${listing}/withdraw`)).status).toBe(200);
    await call(app, 'POST', '/__mock/process');
    const [completed, processed] = await outbox(app);
    expect([processed!.kind, completed!.kind]).toEqual(['order_processed', 'order_completed']);
    expect(processed!.text).toContain('results: 1 listing not biddable');
    expect(processed!.text).toContain('No bid is left pending');
    expect(completed!.text).toMatch(/invested: \$0\.00 in 0 notes; returned to your cash balance: \$[\d,]+\.\d\d\./);
  });

  test('an order refused by validation (an ORD code) is reported once per attempt, without an order id; other failures are not', async () => {
    const app = makeApp();
    const bob = tokenFor(app, 'bob-1');
    const [a, b] = plainListings(app);
    await order(app, bob, [
      { listing_id: a!.listing_number, bid_amount: 30 },
      { listing_id: b!.listing_number, bid_amount: 30 },
    ]);
    await call(app, 'POST', '/v1/orders', { token: bob, body: 'not json' });
    await call(app, 'POST', '/v1/orders', { token: 'unknown', body: { bid_requests: [] } });
    await call(app, 'POST', '/v1/orders', { token: tokenFor(app, 'bob-1', true), body: { bid_requests: [] } });
    const [notJson, funds] = await outbox(app);
    expect(funds).toMatchObject({
      to: 'bob@investors.example',
      kind: 'order_validation_error',
      order_id: null,
      subject: 'Your order could not be placed (ORD0021)',
    });
    expect(funds!.text).toContain('Bid requests: 2, totalling $60.00.');
    expect(funds!.text).toContain('No order was created and no money was moved.');
    expect(notJson).toMatchObject({ kind: 'order_validation_error', subject: 'Your order could not be placed (ORD0032)' });
    expect(await outbox(app)).toHaveLength(2);
  });
});

describe('outbox: part of the saved world', () => {
  test('reloads of the state file neither resend nor lose a message, whatever moves between them', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mkt-outbox-')), 'world.json');
    let app = makeApp({ stateFile: file, listings: 120 });
    const { id } = await wholeListingOrder(app);
    const reload = async () => {
      await app.close?.();
      app = makeApp({ stateFile: file, listings: 120 });
    };
    await reload(); // the order is queued, not yet processed
    expect(await kindsOf(app, id)).toEqual([]);
    await call(app, 'POST', '/__mock/process');
    await reload();
    expect(await kindsOf(app, id)).toEqual(['order_processed']);
    await call(app, 'POST', '/__mock/process');
    await advance(app, '5d');
    await reload();
    await advance(app, '5d');
    await reload();
    expect(await kindsOf(app, id)).toEqual(['order_processed', 'order_completed']);
    expect(app.ctx.world.outbox.next).toBe(3);
    await app.close?.();
  });

  test('GET /__mock/outbox lists newest first with limit, to= and order_id=; DELETE clears and nothing is sent again', async () => {
    const app = makeApp();
    const first = await wholeListingOrder(app);
    await order(app, tokenFor(app, 'bob-1'), [{ listing_id: plainListings(app)[1]!.listing_number, bid_amount: 500 }]);
    await call(app, 'POST', '/__mock/process');
    expect((await outbox(app)).map((m) => [m.id, m.kind])).toEqual([
      [2, 'order_processed'],
      [1, 'order_validation_error'],
    ]);
    expect((await outbox(app, '?limit=1')).map((m) => m.id)).toEqual([2]);
    expect((await outbox(app, '?to=BOB@investors.example')).map((m) => m.id)).toEqual([1]);
    expect((await outbox(app, `?order_id=${first.id.toUpperCase()}`)).map((m) => m.id)).toEqual([2]);
    expect(await outbox(app, '?to=nobody@investors.example')).toEqual([]);
    expect((await call(app, 'GET', '/__mock/outbox?limit=0')).status).toBe(400);
    expect((await call(app, 'DELETE', '/__mock/outbox')).body).toEqual({ cleared: 2 });
    await call(app, 'POST', '/__mock/process');
    expect(await outbox(app)).toEqual([]);
    await advance(app, '10d');
    expect((await outbox(app)).map((m) => [m.id, m.kind])).toEqual([[3, 'order_completed']]);
  });

  test('GET /__mock/state shows every seeded investor registered with an address', async () => {
    const app = makeApp({ listings: 20 });
    const { users } = (await call(app, 'GET', '/__mock/state')).body as {
      users: { user: string; email: string; notifications: boolean }[];
    };
    expect(users.length).toBe(app.ctx.world.users.size);
    for (const u of users) expect(u).toMatchObject({ email: `${u.user}@investors.example`, notifications: true });
    expect(users.map((u) => u.user)).toEqual(expect.arrayContaining(['alice', 'bob', 'carol', 'dave', 'erin']));
  });
});
