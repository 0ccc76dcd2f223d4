/** Property tests: random sequences of orders, clock moves, processing and operator actions keep every invariant. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { checkInvariants } from '../mock-server/audit/invariants.js';
import { serializeState } from '../mock-server/world/persistence.js';
import { makeApp, tokenFor } from './engine-fixture.js';
import { step, STEP_ACCOUNTS, takeStep, type Step } from './helpers/engine-steps.js';

/** What the runs did, so the property cannot pass by refusing everything. */
const seen = { accepted: 0, refused: 0, invested: 0, expired: 0 };

/** Runs the steps; checks the invariants (and that a refused order moved nothing) after each one. */
async function run(app: MockApp, steps: Step[], check: boolean): Promise<void> {
  const tokens = STEP_ACCOUNTS.map((a) => tokenFor(app, a));
  for (const s of steps) {
    const accepted = await takeStep(app, tokens, s);
    if (accepted === true) seen.accepted++;
    if (accepted === false) seen.refused++;
    if (check) {
      const report = checkInvariants(app.ctx.world);
      if (!report.ok) throw new Error(`after ${JSON.stringify(s)}: ${report.violations.join('; ')}`);
    }
  }
  for (const o of app.ctx.world.orders.values()) {
    for (const b of o.bids) {
      if (b.bid_status === 'INVESTED') seen.invested++;
      if (b.bid_status === 'EXPIRED') seen.expired++;
    }
  }
}

describe('invariants', () => {
  test('hold after every step of random sequences of orders, clock moves, processing and withdrawals', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        await run(makeApp({ listings: 80 }), steps, true);
      }),
      { numRuns: 40, seed: 20260302 },
    );
    expect(seen.accepted).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(20);
    expect(seen.invested).toBeGreaterThan(5);
    expect(seen.expired).toBeGreaterThan(5);
  });

  test('the same seed and the same sequence of events build the same world', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const a = makeApp({ listings: 60 });
        const b = makeApp({ listings: 60 });
        await run(a, steps, false);
        await run(b, steps, false);
        expect(serializeState(a.ctx.world, a.ctx.clock.now())).toBe(serializeState(b.ctx.world, b.ctx.clock.now()));
      }),
      { numRuns: 10, seed: 7 },
    );
  });
});
