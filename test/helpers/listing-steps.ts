/**
 * Random changes to a mock world for property tests of what the mock keeps between requests (the
 * search's kept answers, the listings' kept view texts): orders, processing, clock moves (funding,
 * endings, originations, arrivals) and withdrawals, each through the app as a client or operator would.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { MockApp } from '../../mock-server/app.js';
import { call } from '../engine-fixture.js';

/** Accounts the steps order for (by index). */
export const ACCOUNTS = ['alice-1', 'bob-1', 'dave-1'] as const;

/** One change to the world. */
export type Step =
  | { kind: 'order'; account: number; listing: number; amount: number; whole: boolean }
  | { kind: 'advance'; minutes: number }
  | { kind: 'process' }
  | { kind: 'withdraw'; listing: number };

/** A random step, orders the most likely. */
export const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      account: fc.nat(ACCOUNTS.length - 1),
      listing: fc.nat(10_000),
      amount: fc.integer({ min: 25, max: 2000 }),
      whole: fc.nat(4).map((n) => n === 0),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 6 * 24 * 60 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('process' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), listing: fc.nat(10_000) }) },
);

/** Makes step `s` happen in `app`; `tokens` are the ACCOUNTS' tokens. */
export async function applyStep(app: MockApp, tokens: readonly string[], s: Step): Promise<void> {
  // Picked from the world as a client sees it: brought up first, as every route does before it reads (a move leaves it to them).
  app.ctx.engine.settle();
  const world = app.ctx.world;
  const pool = (whole: boolean) => world.listings.filter((l) => l.listing_status === 2 && l.investment_typeid === (whole ? 2 : 1));
  if (s.kind === 'order') {
    const from = pool(s.whole);
    const l = from[s.listing % Math.max(1, from.length)] ?? world.listings[s.listing % world.listings.length]!;
    const body = { bid_requests: [{ listing_id: l.listing_number, bid_amount: s.whole ? l.listing_amount : s.amount }] };
    expect((await call(app, 'POST', '/v1/orders', { token: tokens[s.account], body })).status).not.toBe(500);
  } else if (s.kind === 'advance') {
    await call(app, 'POST', '/__mock/clock', { body: { advance: `${s.minutes}m` } });
  } else if (s.kind === 'process') {
    await call(app, 'POST', '/__mock/process');
  } else {
    const from = pool(false);
    if (from.length > 0) await call(app, 'POST', `/__mock/listings/${from[s.listing % from.length]!.listing_number}/withdraw`);
  }
}
