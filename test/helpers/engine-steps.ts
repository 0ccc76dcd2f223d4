/** Random steps of a mock world for property tests: orders by several investors, clock moves, processing, operator withdrawals. */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { MockApp } from '../../mock-server/app.js';
import { call } from '../engine-fixture.js';

/** The accounts the steps act for (alice-1 twice: she is the busiest). */
export const STEP_ACCOUNTS = ['alice-1', 'alice-1', 'alice-2', 'bob-1', 'dave-1', 'ivy-1', 'kate-1', 'erin-1'] as const;

/** One step. */
export type Step =
  | { kind: 'order'; account: number; picks: { listing: number; amount: number }[] }
  | { kind: 'advance'; minutes: number }
  | { kind: 'process' }
  | { kind: 'withdraw'; listing: number };

const amount = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 25, max: 400 }) },
  { weight: 10, arbitrary: fc.integer({ min: 2500, max: 40000 }).map((c) => c / 100) },
  { weight: 1, arbitrary: fc.constantFrom(24.99, 0, 35000, 1e6) },
);

/** A random step. */
export const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      account: fc.nat(STEP_ACCOUNTS.length - 1),
      picks: fc.array(fc.record({ listing: fc.nat(10_000), amount }), { minLength: 1, maxLength: 4 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 6 * 24 * 60 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('process' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), listing: fc.nat(10_000) }) },
);

/** Takes one step as `tokens[i]` acts for STEP_ACCOUNTS[i]; answers whether an order step was accepted (null for other steps). A refused order must move nothing. */
export async function takeStep(app: MockApp, tokens: readonly string[], s: Step): Promise<boolean | null> {
  const world = app.ctx.world;
  // Pick among listings that exist now: active ones mostly, any listing sometimes (ended, originated, whole).
  const active = world.listings.filter((l) => l.listing_status === 2);
  const choose = (i: number) =>
    i % 5 === 0 ? world.listings[i % world.listings.length]! : (active[i % active.length] ?? world.listings[0]!);
  if (s.kind === 'order') {
    const once = new Set<number>();
    const bids = s.picks
      .map((p) => ({ listing_id: choose(p.listing).listing_number, bid_amount: p.amount }))
      .filter((b) => !once.has(b.listing_id) && once.add(b.listing_id));
    const ledger = world.ledger.length;
    const orders = world.orders.size;
    const res = await call(app, 'POST', '/v1/orders', { token: tokens[s.account], body: { bid_requests: bids } });
    expect(res.status).not.toBe(500);
    if (res.status !== 200) {
      expect(world.ledger.length).toBe(ledger);
      expect(world.orders.size).toBe(orders);
    }
    return res.status === 200;
  }
  if (s.kind === 'advance') await call(app, 'POST', '/__mock/clock', { body: { advance: `${s.minutes}m` } });
  else if (s.kind === 'process') await call(app, 'POST', '/__mock/process');
  else {
    // Two withdrawals in three are of a listing a bid still waits on (so its bids expire), when there is one.
    const waitedOn = [...world.orders.values()].flatMap((o) => o.bids.filter((b) => b.bid_status === 'PENDING').map((b) => b.listing_id));
    const target = s.listing % 3 !== 0 && waitedOn.length > 0 ? waitedOn[s.listing % waitedOn.length]! : choose(s.listing).listing_number;
    await call(app, 'POST', `/__mock/listings/${target}/withdraw`);
  }
  return null;
}
