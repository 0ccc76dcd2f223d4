/** Property tests: random sequences of orders, clock moves, processing and operator actions keep every invariant. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { checkInvariants } from '../mock-server/engine/invariants.js';
import { serializeState } from '../mock-server/persistence.js';
import { call, makeApp, tokenFor } from './engine-fixture.js';

const ACCOUNTS = ['alice-1', 'alice-1', 'alice-2', 'bob-1', 'dave-1', 'ivy-1', 'kate-1', 'erin-1'] as const;

type Step =
  | { kind: 'order'; account: number; picks: { listing: number; amount: number }[] }
  | { kind: 'advance'; minutes: number }
  | { kind: 'process' }
  | { kind: 'withdraw'; listing: number };

const amount = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 25, max: 400 }) },
  { weight: 10, arbitrary: fc.integer({ min: 2500, max: 40000 }).map((c) => c / 100) },
  { weight: 1, arbitrary: fc.constantFrom(24.99, 0, 35000, 1e6) },
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('order' as const), account: fc.nat(ACCOUNTS.length - 1), picks: fc.array(fc.record({ listing: fc.nat(10_000), amount }), { minLength: 1, maxLength: 4 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 6 * 24 * 60 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('process' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), listing: fc.nat(10_000) }) },
);

/** What the runs did, so the property cannot pass by refusing everything. */
const seen = { accepted: 0, refused: 0, invested: 0, expired: 0 };

/** Runs the steps; checks the invariants (and that a refused order moved nothing) after each one. */
async function run(app: MockApp, steps: Step[], check: boolean): Promise<void> {
  const tokens = ACCOUNTS.map((a) => tokenFor(app, a));
  for (const s of steps) {
    const store = app.ctx.store;
    // Pick among listings that exist now: active ones mostly, any listing sometimes (ended, originated, whole).
    const active = store.listings.filter((l) => l.listing_status === 2);
    const choose = (i: number) => (i % 5 === 0 ? store.listings[i % store.listings.length]! : active[i % active.length] ?? store.listings[0]!);
    if (s.kind === 'order') {
      const once = new Set<number>();
      const bids = s.picks.map((p) => ({ listing_id: choose(p.listing).listing_number, bid_amount: p.amount })).filter((b) => !once.has(b.listing_id) && once.add(b.listing_id));
      const ledger = store.ledger.length;
      const orders = store.orders.size;
      const res = await call(app, 'POST', '/v1/orders', { token: tokens[s.account], body: { bid_requests: bids } });
      expect(res.status).not.toBe(500);
      if (res.status === 200) seen.accepted++;
      else seen.refused++;
      if (res.status !== 200) {
        expect(store.ledger.length).toBe(ledger);
        expect(store.orders.size).toBe(orders);
      }
    } else if (s.kind === 'advance') {
      await call(app, 'POST', '/__mock/clock', { body: { advance: `${s.minutes}m` } });
    } else if (s.kind === 'process') {
      await call(app, 'POST', '/__mock/process');
    } else {
      await call(app, 'POST', `/__mock/listings/${choose(s.listing).listing_number}/withdraw`);
    }
    if (check) {
      const report = checkInvariants(app.ctx.store);
      if (!report.ok) throw new Error(`after ${JSON.stringify(s)}: ${report.violations.join('; ')}`);
    }
  }
  for (const o of app.ctx.store.orders.values()) {
    for (const b of o.bids) {
      if (b.bid_status === 'INVESTED') seen.invested++;
      if (b.bid_status === 'EXPIRED') seen.expired++;
    }
  }
}

describe('invariants', () => {
  test('hold after every step of random sequences of orders, clock moves, processing and withdrawals', async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
      await run(makeApp({ listings: 80 }), steps, true);
    }), { numRuns: 40, seed: 20260302 });
    expect(seen.accepted).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(20);
    expect(seen.invested).toBeGreaterThan(5);
    expect(seen.expired).toBeGreaterThan(5);
  });

  test('the same seed and the same sequence of events build the same world', async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
      const a = makeApp({ listings: 60 });
      const b = makeApp({ listings: 60 });
      await run(a, steps, false);
      await run(b, steps, false);
      expect(serializeState(a.ctx.store, a.ctx.clock.now())).toBe(serializeState(b.ctx.store, b.ctx.clock.now()));
    }), { numRuns: 10, seed: 7 });
  });
});
