/**
 * Three years and more of servicing keep the books: random orders by several investors, then month after
 * month of the clock (loans pay, go late, catch up, default, are charged off, borrowers go bankrupt or die, and
 * collection agencies collect), and at every month's end every invariant holds, the books' included: each
 * account's cash is its deposits, withdrawals, bids, refunds and payment rows to the cent, each note's rows
 * are its figures (audit/books.ts).
 *
 * Bounded for CI (it runs on two Node versions): MKT_BOOKS_RUNS worlds (default 8) of MKT_BOOKS_MONTHS months
 * (default 36, at least 36) each. A bigger run: MKT_BOOKS_RUNS=20 MKT_BOOKS_MONTHS=60 npx vitest run test/mock-books-property.test.ts
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { checkInvariants } from '../mock-server/audit/invariants.js';
import { loggedSteps } from '../mock-server/engine/payment-log.js';
import { call, makeApp, tokenFor } from './engine-fixture.js';
import { step, STEP_ACCOUNTS, takeStep, type Step } from './helpers/engine-steps.js';

// Eight worlds: a charge-off goes to collections three times in ten, so fewer worlds may see none (two saw one).
const RUNS = Number(process.env.MKT_BOOKS_RUNS ?? 8);
const MONTHS = Math.max(36, Number(process.env.MKT_BOOKS_MONTHS ?? 36));

type OrderStep = Extract<Step, { kind: 'order' }>;

/** A month: a few orders (some processed at once), then the clock to the month's end. */
const month = fc.record({
  orders: fc.array(
    step.filter((s): s is OrderStep => s.kind === 'order'),
    { maxLength: 3 },
  ),
  process: fc.boolean(),
  days: fc.integer({ min: 28, max: 31 }),
});

/** What the runs went through, so the property cannot hold on worlds where nothing happened. */
const seen = {
  months: 0,
  accepted: 0,
  lates: 0,
  catchUps: 0,
  defaults: 0,
  chargeOffs: 0,
  bankruptcies: 0,
  deaths: 0,
  collections: 0,
  collectionFees: 0,
  // The same on loans some investor holds a note in: what the books check moved cash.
  heldCatchUps: 0,
  heldChargeOffs: 0,
  heldCollections: 0,
};

/** Counts what servicing did to the world's loans since it began at `start`. */
function countServicing(app: MockApp, start: number): void {
  const held = new Set(app.ctx.world.notes.map((n) => n.loanNumber));
  for (const loan of app.ctx.world.loans.values()) {
    const steps = loggedSteps(loan).filter((s) => s.at >= start);
    if (held.has(loan.loan_number)) {
      seen.heldCatchUps += steps.filter((s) => s.kind === 'payment' && s.moved.lateFees > 0).length;
      seen.heldChargeOffs += steps.filter((s) => s.kind === 'chargeoff').length;
      seen.heldCollections += steps.filter((s) => s.kind === 'collection').length;
    }
    if ((loan.missedPayments ?? 0) > 0 || steps.some((s) => s.moved.lateFees > 0)) seen.lates++;
    seen.catchUps += steps.filter((s) => s.kind === 'payment' && s.moved.lateFees > 0).length;
    const chargedOff = steps.some((s) => s.kind === 'chargeoff');
    if (chargedOff) seen.chargeOffs++;
    // Defaulted by servicing: charged off since, or in default now with a charge-off to come.
    if (chargedOff || loan.chargeOffAt != null) {
      seen.defaults++;
      if (loan.loan_default_reason === 2) seen.bankruptcies++;
      if (loan.loan_default_reason === 3) seen.deaths++;
    }
    for (const s of steps.filter((x) => x.kind === 'collection')) {
      seen.collections++;
      seen.collectionFees += s.moved.collectionFees;
    }
  }
}

test(`the books balance at every month's end over ${MONTHS} months of servicing with lates, catch-ups, defaults, charge-offs, bankruptcies and collections`, async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 100_000 }),
      fc.array(month, { minLength: MONTHS, maxLength: MONTHS }),
      async (seed, months) => {
        const app = makeApp({ seed, listings: 40 });
        const start = app.ctx.clock.now();
        const tokens = STEP_ACCOUNTS.map((a) => tokenFor(app, a));
        for (const [m, plan] of months.entries()) {
          for (const o of plan.orders) if (await takeStep(app, tokens, o)) seen.accepted++;
          if (plan.process) await call(app, 'POST', '/__mock/process');
          await call(app, 'POST', '/__mock/clock', { body: { advance: `${plan.days}d` } });
          const report = checkInvariants(app.ctx.world);
          if (!report.ok) throw new Error(`seed ${seed}, month ${m + 1}: ${report.violations.join('; ')}`);
          seen.months++;
        }
        countServicing(app, start);
        await app.close?.();
      },
    ),
    { numRuns: RUNS, seed: 38 },
  );
  console.log(`books: ${RUNS} worlds × ${MONTHS} months: ${JSON.stringify(seen)}`);
  expect(seen.months).toBe(RUNS * MONTHS);
  const happened = [
    'accepted',
    'lates',
    'catchUps',
    'defaults',
    'chargeOffs',
    'bankruptcies',
    'collections',
    'collectionFees',
    'heldCatchUps',
    'heldChargeOffs',
    'heldCollections',
  ] as const;
  for (const k of happened) expect(seen[k], k).toBeGreaterThan(0);
}, 600_000);
