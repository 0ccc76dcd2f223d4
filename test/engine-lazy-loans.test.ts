/**
 * A loan nobody we model holds is serviced lazily (mock-server/engine/servicing.ts): the timeline visits it only when
 * it departs from its schedule (a miss, a default, a payoff, its last instalment, its 91st day past due, its charge-off),
 * and its months on schedule and days past due are written when it is read. Read at any time, in any way, it is the
 * loan the plain hourly walk (every loan serviced every hour) makes; and a month's ticks do not visit the loans that pay
 * on schedule.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { stepListing, TICK_MS } from '../mock-server/engine/market.js';
import { arrivals } from '../mock-server/engine/arrivals.js';
import { lazyLoanHour, ScheduleSteps, serviceLoan } from '../mock-server/engine/servicing.js';
import { addMonths } from '../src/contract/amortisation.js';
import { firesAt } from '../mock-server/engine/chance-processes.js';
import { isLive, prepareTimeline } from '../mock-server/engine/timeline.js';
import { notesOfLoan } from '../mock-server/world/world-index.js';
import { serializeState } from '../mock-server/world/persistence.js';
import type { Loan, World } from '../mock-server/world/world.js';
import { LOAN_STATUS } from '../src/contract/enums.js';
import { DAY, makeApp, START, tokenFor } from './engine-fixture.js';
import { ACCOUNTS, applyStep, step as worldStep, type Step as WorldStep } from './helpers/listing-steps.js';

/**
 * The due dates after `due`, one a call, from a ScheduleSteps started there (as the departure search and payOnSchedule
 * step them); null for a due date off its origination's schedule (a seeded loan's), whose next ones dueAfter works out.
 */
function scheduleAfter(origination: number, due: number): (() => number) | null {
  const steps = new ScheduleSteps();
  return steps.start(origination, due) ? () => steps.next() : null;
}

/** The market as a plain hourly walk: every live listing in number order, then every loan (eagerly, each hour), then arrivals. */
function hourlyWalk(world: World, t: number): void {
  const h = t / TICK_MS;
  const live = world.listings.filter(isLive).sort((a, b) => a.listing_number - b.listing_number);
  for (const l of live) stepListing(world, l, t, firesAt(world.seed, l, h));
  for (const loan of [...world.loans.values()]) serviceLoan(world, loan, t);
  arrivals(world, t);
}

/** How a loan is read: one field of it, its whole text, every loan, or nothing this time. */
type Read = { how: 'field'; loan: number; field: number } | { how: 'json'; loan: number } | { how: 'all' } | { how: 'none' };

const FIELDS = [
  'principal_balance',
  'principal_paid',
  'interest_paid',
  'service_fees_paid',
  'late_fees_paid',
  'loan_status',
  'days_past_due',
  'next_payment_due_date',
  'next_payment_due_amount',
  'paymentsMade',
  'missedPayments',
  'oldestMissedDue',
] as const;

const read: fc.Arbitrary<Read> = fc.oneof(
  fc.record({ how: fc.constant('field' as const), loan: fc.nat(), field: fc.nat(FIELDS.length - 1) }),
  fc.record({ how: fc.constant('json' as const), loan: fc.nat() }),
  fc.constant({ how: 'all' as const }),
  fc.constant({ how: 'none' as const }),
);

/** A world step, or a clock move of hours to months (loans meet due dates, miss them, default, charge off). */
const step: fc.Arbitrary<WorldStep> = fc.oneof(
  { weight: 2, arbitrary: worldStep },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 60, max: 75 * 24 * 60 }) }) },
);

/** The loan numbers of a world, in order. */
const numbers = (world: World): number[] => [...world.loans.keys()];

/** The world's state text, as a reader sees it (the listings' columns brought up first). */
const snapshot = (app: MockApp): string => {
  app.ctx.engine.settle();
  return serializeState(app.ctx.world, app.ctx.clock.now());
};

/** What the runs saw, so the comparison cannot pass on worlds where loans did nothing. */
const seen = { readsBehind: 0, departures: 0, completed: 0 };

/** True when `loan` is behind the clock: a lazily serviced loan with a due date the ticks passed (read before it is brought up). */
function behind(world: World, loan: Loan): boolean {
  return loan.loan_status === LOAN_STATUS.CURRENT && loan.next_payment_due_date <= world.engine.lastTick;
}

/** The loan as stored, without bringing it up (the reader set aside). */
function rawLoan(world: World, n: number): Loan {
  return world.loans.kept(n)!;
}

describe('loans serviced lazily', () => {
  test('read at any time, field by field, whole or all at once, a loan is the one the plain hourly walk makes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100_000 }),
        fc.array(fc.tuple(step, fc.array(read, { maxLength: 4 })), { minLength: 1, maxLength: 8 }),
        async (seed, steps) => {
          const lazy = makeApp({ seed, listings: 60 });
          const walked = makeApp({ seed, listings: 60 });
          walked.ctx.engine.tick = hourlyWalk;
          const tokens = [lazy, walked].map((app) => ACCOUNTS.map((a) => tokenFor(app, a)));
          for (const [s, reads] of steps) {
            await applyStep(lazy, tokens[0]!, s);
            await applyStep(walked, tokens[1]!, s);
            const [lw, ww] = [lazy.ctx.world, walked.ctx.world];
            const all = numbers(lw);
            expect(all).toEqual(numbers(ww));
            for (const r of reads) {
              if (r.how === 'none') continue;
              if (r.how === 'all') {
                expect(JSON.stringify([...lw.loans.values()])).toBe(JSON.stringify([...ww.loans.values()]));
                continue;
              }
              const n = all[r.loan % all.length]!;
              if (behind(lw, rawLoan(lw, n))) seen.readsBehind++;
              if (r.how === 'json') expect(JSON.stringify(lw.loans.get(n))).toBe(JSON.stringify(ww.loans.get(n)));
              else expect(lw.loans.get(n)![FIELDS[r.field]!]).toEqual(ww.loans.get(n)![FIELDS[r.field]!]);
            }
          }
          expect(snapshot(lazy)).toBe(snapshot(walked));
          for (const loan of lazy.ctx.world.loans.values()) {
            if (loan.oldestMissedDue != null || loan.loan_status === LOAN_STATUS.DEFAULTED) seen.departures++;
            if (loan.loan_status === LOAN_STATUS.COMPLETED) seen.completed++;
          }
        },
      ),
      { numRuns: 12, seed: 43 },
    );
    // Reads met loans the ticks had left behind, and loans departed from their schedules and completed.
    expect(seen.readsBehind).toBeGreaterThan(10);
    expect(seen.departures).toBeGreaterThan(10);
    expect(seen.completed).toBeGreaterThan(5);
  }, 180_000);

  test('after a stretch the ticks skipped (a load after years), loans behind it are serviced as the walk services them', async () => {
    // Two faults at once: loans left behind lazily, then a stretch no tick runs (engine.ts skips a catch-up beyond 800 days
    // the same way: its due dates are then met an hour at a time from where the ticks resume).
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 90 }), async (seed, skipped) => {
        const lazy = makeApp({ seed, listings: 60 });
        const walked = makeApp({ seed, listings: 60 });
        walked.ctx.engine.tick = hourlyWalk;
        for (const app of [lazy, walked]) await app.ctx.engine.moveClock((now) => now + 20 * DAY);
        // Some loans read (brought up), the rest left behind.
        const all = numbers(lazy.ctx.world);
        for (const n of all.filter((_, i) => i % 3 === 0)) lazy.ctx.world.loans.get(n);
        for (const app of [lazy, walked]) {
          app.ctx.world.engine.lastTick += skipped * DAY;
          await app.ctx.engine.moveClock((now) => now + (skipped + 30) * DAY);
        }
        expect(snapshot(lazy)).toBe(snapshot(walked));
      }),
      { numRuns: 4, seed: 7 },
    );
  }, 180_000);

  test('a month of ticks does not visit the loans nobody holds that pay on schedule: the timeline has them at their next departure', async () => {
    const app = makeApp({ seed: 9, listings: 1000 });
    await app.ctx.engine.moveClock((now) => now + 10 * DAY);
    const world = app.ctx.world;
    const tl = world.index.timeline!;
    const soon = tl.hour + 31 * 24;
    const queuedSoon = new Set<Loan>();
    for (const queue of [tl.loansAt, tl.lazyLoansAt])
      for (const [h, loans] of queue) if (h <= soon) for (const loan of loans) queuedSoon.add(loan);
    const onSchedule = [...world.loans.values()].filter(
      (l) => l.loan_status === LOAN_STATUS.CURRENT && l.oldestMissedDue == null && notesOfLoan(world, l.loan_number).length === 0,
    );
    // Every one of these has a due date in the next month; a walk of each due date visited them all.
    expect(onSchedule.length).toBeGreaterThan(100);
    const visitedSoon = onSchedule.filter((l) => queuedSoon.has(rawLoan(world, l.loan_number)));
    expect(visitedSoon.length).toBeLessThan(onSchedule.length / 4);
    // A loan some account holds is visited at each due date: its holders' cash moves then.
    const held = [...world.loans.values()].filter(
      (l) => l.loan_status === LOAN_STATUS.CURRENT && l.oldestMissedDue == null && notesOfLoan(world, l.loan_number).length > 0,
    );
    expect(held.length).toBeGreaterThan(0);
    for (const l of held) expect(queuedSoon.has(rawLoan(world, l.loan_number))).toBe(true);
  });

  test('a move shorter than a month searches no departure of the loans it made that nobody holds; the idle work does, as at once', async () => {
    const app = makeApp({ seed: 11, listings: 1000 });
    await app.ctx.engine.moveClock((now) => now + 15 * DAY);
    const world = app.ctx.world;
    const tl = world.index.timeline!;
    const queued = (): Map<Loan, number> => {
      const at = new Map<Loan, number>();
      for (const queue of [tl.loansAt, tl.lazyLoansAt]) for (const [h, loans] of queue) for (const loan of loans) at.set(loan, h);
      return at;
    };
    // Made by the move and held by nobody: their first due date is a month on, after the move's end.
    const made = numbers(world)
      .map((n) => rawLoan(world, n))
      .filter((l) => l.origination_date > START && notesOfLoan(world, l.loan_number).length === 0);
    expect(made.length).toBeGreaterThan(50);
    const before = queued();
    for (const loan of made) expect(before.has(loan)).toBe(false);
    // Between requests the engine searches them: each then waits at the hour a search at the next tick finds.
    const h = tl.hour + 1;
    expect(prepareTimeline(world, h, Infinity)).toBe(true);
    const after = queued();
    for (const loan of made) {
      const at = lazyLoanHour(world, loan, h);
      if (at === Infinity) expect(after.has(loan)).toBe(false);
      else expect(after.get(loan)).toBe(at);
    }
  });

  test('a loan that keeps to its schedule past the year a search looks ahead is visited there and searched on, as the walk services it', async () => {
    const lazy = makeApp({ seed: 5, listings: 120 });
    const walked = makeApp({ seed: 5, listings: 120 });
    walked.ctx.engine.tick = hourlyWalk;
    for (const app of [lazy, walked]) {
      await app.ctx.engine.moveClock((now) => now + 10 * DAY);
      await app.ctx.engine.moveClock((now) => now + 430 * DAY);
    }
    // Loans made in the first days kept to their schedule through more than twelve due dates.
    const made = [...lazy.ctx.world.loans.values()].filter((l) => l.origination_date > START);
    expect(made.filter((l) => l.paymentsMade >= 13 && l.loan_status === LOAN_STATUS.CURRENT).length).toBeGreaterThan(0);
    expect(snapshot(lazy)).toBe(snapshot(walked));
  }, 120_000);

  test('the due dates a departure search steps through are the calendar months dueAfter gives, for any origination time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 60 }),
        (origination, k, steps) => {
          const next = scheduleAfter(origination, addMonths(origination, k))!;
          expect(next).not.toBeNull();
          for (let j = 1; j <= steps; j++) expect(next()).toBe(addMonths(origination, k + j));
        },
      ),
      { numRuns: 2000 },
    );
    // Ends of months clamp and come back (the 31st: the 28th or 29th in February, the 30th in April, then the 31st again).
    const jan31 = Date.UTC(2024, 0, 31, 17, 5);
    const next = scheduleAfter(jan31, addMonths(jan31, 1))!;
    expect([next(), next(), next()]).toEqual([Date.UTC(2024, 2, 31, 17, 5), Date.UTC(2024, 3, 30, 17, 5), Date.UTC(2024, 4, 31, 17, 5)]);
    // A due date off its origination's schedule (a seeded loan's) has none: dueAfter steps it.
    expect(scheduleAfter(jan31, jan31 + 30.4375 * DAY)).toBeNull();
  });

  test('one ScheduleSteps started again and again steps as a new one would (it keeps the last calendar dates it worked out)', () => {
    // Loans from a few days, at a few times of day, due a few months on or off their schedule: starts that share the
    // origination's day or the due date's, and starts that share neither, one after another in any order.
    const day = fc.integer({ min: 0, max: 3 }).map((d) => Date.UTC(2024, 0, 29 + d * 31));
    const start = fc.record({
      origination: fc.tuple(day, fc.constantFrom(0, 3_600_000, 61_000)).map(([d, t]) => d + t),
      months: fc.integer({ min: 1, max: 14 }),
      off: fc.constantFrom(0, 0, 0, DAY, -DAY),
    });
    fc.assert(
      fc.property(fc.array(start, { minLength: 1, maxLength: 30 }), (starts) => {
        const reused = new ScheduleSteps();
        for (const { origination, months, off } of starts) {
          const due = addMonths(origination, months) + off;
          const fresh = scheduleAfter(origination, due);
          expect(reused.start(origination, due)).toBe(fresh !== null);
          if (fresh) expect([reused.next(), reused.next()]).toEqual([fresh(), fresh()]);
        }
      }),
      { numRuns: 1000 },
    );
  });

  test('a due date is on its schedule exactly when dueAfter finds it there (the k months within one of the days between)', () => {
    // dueAfter's rule, which the search once tried month count by month count with addMonths.
    const onSchedule = (origination: number, due: number): number | undefined => {
      const k = Math.round((due - origination) / (30.4375 * DAY));
      return [k, k - 1, k + 1].find((n) => n >= 1 && addMonths(origination, n) === due);
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }),
        fc.integer({ min: -2, max: 80 }),
        // Off by a little (a millisecond, an hour, a day, a seeded loan's 30.4375 days) or not at all.
        fc.constantFrom(0, 0, 0, 1, -1, 3_600_000, DAY, -DAY, 2 * DAY),
        fc.boolean(),
        (origination, k, off, seeded) => {
          const due = (seeded ? origination + k * 30.4375 * DAY : addMonths(origination, k)) + off;
          const at = onSchedule(origination, due);
          const next = scheduleAfter(origination, due);
          if (at === undefined) expect(next).toBeNull();
          else expect([next?.(), next?.()]).toEqual([addMonths(origination, at + 1), addMonths(origination, at + 2)]);
        },
      ),
      { numRuns: 5000 },
    );
  });
});
