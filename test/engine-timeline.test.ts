/**
 * The market's timeline (mock-server/engine/timeline.ts) visits only the listings and loans with
 * something due, yet builds exactly the world of the plain hourly walk that looks at every live
 * listing and every loan each hour; it is derived data, so a world saved and loaded midway goes on
 * exactly as one that never stopped; and an hour's tick does not look at what cannot change.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { checkInvariants } from '../mock-server/audit/invariants.js';
import { stepListing, TICK_MS } from '../mock-server/engine/market.js';
import { arrivals } from '../mock-server/engine/arrivals.js';
import { serviceLoan } from '../mock-server/engine/servicing.js';
import { firesAt } from '../mock-server/engine/chance-processes.js';
import { isLive, prepareTimeline } from '../mock-server/engine/timeline.js';
import { parseState, serializeState } from '../mock-server/world/persistence.js';
import type { Loan, World } from '../mock-server/world/world.js';
import { LISTING_STATUS, LOAN_STATUS } from '../src/contract/enums.js';
import { DAY, HOUR, makeApp, tokenFor } from './engine-fixture.js';
import { applyStep, type Step as WorldStep } from './helpers/listing-steps.js';

/** The market as a plain hourly walk: every live listing in number order, then every loan, then arrivals. */
function hourlyWalk(world: World, t: number): void {
  const h = t / TICK_MS;
  const live = world.listings.filter(isLive).sort((a, b) => a.listing_number - b.listing_number);
  for (const l of live) stepListing(world, l, t, firesAt(world.seed, l, h));
  for (const loan of [...world.loans.values()]) serviceLoan(world, loan, t);
  arrivals(world, t);
}

const ACCOUNTS = ['alice-1', 'alice-2', 'bob-1', 'ivy-1', 'kate-1'] as const;

/**
 * A change to the world (orders, clock moves, processing, withdrawals: listing-steps.ts), a restart from the
 * state file, or a slice of the timeline the next tick begins with built early (the engine does it while idle).
 */
type Step = WorldStep | { kind: 'restart' } | { kind: 'prepare'; rows: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      account: fc.nat(ACCOUNTS.length - 1),
      listing: fc.nat(10_000),
      amount: fc.integer({ min: 25, max: 3000 }),
      whole: fc.nat(3).map((n) => n === 0),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      minutes: fc.oneof(fc.integer({ min: 1, max: 3 * 24 * 60 }), fc.integer({ min: 20 * 24 * 60, max: 40 * 24 * 60 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('process' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), listing: fc.nat(10_000) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'restart' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('prepare' as const), rows: fc.integer({ min: 1, max: 240 }) }) },
);

/** The world as its state file holds it (written, as every reader reads, after the listings' columns are brought up). */
const snapshot = (app: MockApp): string => {
  app.ctx.engine.settle();
  return serializeState(app.ctx.world, app.ctx.clock.now());
};

/** What the runs did, so the comparison cannot pass on worlds where nothing happened. */
const seen = { payments: 0, originated: 0, ended: 0, restarts: 0, begun: 0, unfinished: 0 };

/** Applies one step; `restarts`: a restart step swaps the world for its own state file's reading (as a reload does). */
async function apply(app: MockApp, tokens: readonly string[], s: Step, restarts: boolean): Promise<void> {
  if (s.kind === 'prepare') {
    // The plain walk has no timeline: building one for it would change nothing it reads.
    if (app.ctx.engine.tick !== hourlyWalk) {
      const world = app.ctx.world;
      if (!world.index.timeline) seen.begun++;
      if (!prepareTimeline(world, world.engine.lastTick / TICK_MS + 1, s.rows)) seen.unfinished++;
    }
  } else if (s.kind !== 'restart') await applyStep(app, tokens, s);
  else if (restarts) {
    app.ctx.world = parseState(snapshot(app)).world;
    seen.restarts++;
  }
}

/** Runs the steps (see apply). */
async function run(app: MockApp, steps: Step[], restarts: boolean): Promise<void> {
  const tokens = ACCOUNTS.map((a) => tokenFor(app, a));
  for (const s of steps) await apply(app, tokens, s, restarts);
}

/**
 * The timeline's own books: its count of live rows is the rows it marks live, and every listing a tick can still change
 * that it has looked at is one of them (a listing that ends in its visit leaves it, counted once; one ended outside a
 * tick, by a withdrawal or an order, may stay marked until its next visit lets it go).
 */
function expectTimelineConsistent(world: World): void {
  const tl = world.index.timeline;
  if (!tl) return;
  const ev = tl.listings;
  let marked = 0;
  for (let r = 0; r < ev.capacity; r++) {
    if (ev.live[r] === 1) marked++;
    else if (r < tl.listingsSeen) expect({ row: r, live: isLive(world.listings[r]!) }).toEqual({ row: r, live: false });
  }
  expect(tl.liveCount).toBe(marked);
}

function countActivity(world: World): void {
  for (const loan of world.loans.values()) {
    if (loan.loan_number >= 500_000 + 100) seen.originated++;
    seen.payments += loan.paymentsMade;
  }
  seen.ended += world.listings.filter((l) => l.listing_status === 4 || l.listing_status === 5 || l.listing_status === 7).length;
}

describe('the market timeline', () => {
  test('builds exactly the world of the plain hourly walk, after random orders, clock moves, processing and withdrawals', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const timed = makeApp({ listings: 60 });
        const walked = makeApp({ listings: 60 });
        walked.ctx.engine.tick = hourlyWalk;
        const tokens = [timed, walked].map((app) => ACCOUNTS.map((a) => tokenFor(app, a)));
        // Compared after every step, as a reader sees it (settled): a difference a later step would hide still shows.
        for (const s of steps) {
          await apply(timed, tokens[0]!, s, false);
          await apply(walked, tokens[1]!, s, false);
          timed.ctx.engine.settle();
          expect(snapshot(timed)).toBe(snapshot(walked));
          expectTimelineConsistent(timed.ctx.world);
        }
        expect(checkInvariants(timed.ctx.world)).toEqual({ ok: true, violations: [] });
        countActivity(timed.ctx.world);
      }),
      { numRuns: 25, seed: 14_05 },
    );
    // Listings ended every way, loans were made and due dates met (seeded loans and new ones).
    expect(seen.originated).toBeGreaterThan(20);
    expect(seen.ended).toBeGreaterThan(20);
    expect(seen.payments).toBeGreaterThan(100);
    // Timelines were begun early (before any tick), and some were left unfinished for the next tick or slice.
    expect(seen.begun).toBeGreaterThan(5);
    expect(seen.unfinished).toBeGreaterThan(5);
  });

  test('is rebuilt after a load as it was: a world saved and loaded midway goes on exactly as one that never stopped', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 10 }), async (steps) => {
        const straight = makeApp({ listings: 60 });
        const restarted = makeApp({ listings: 60 });
        await run(straight, steps, false);
        await run(restarted, steps, true);
        expect(snapshot(restarted)).toBe(snapshot(straight));
      }),
      { numRuns: 25, seed: 5 },
    );
    expect(seen.restarts).toBeGreaterThan(10);
  });

  test('keeps an origination time only on the listings waiting to originate (an ended one has none, not null)', () => {
    const app = makeApp({ listings: 400 });
    app.ctx.clock.advance(20 * DAY);
    const world = app.ctx.world;
    const waiting = world.listings.filter((l) => l.listing_status === LISTING_STATUS.PENDING && l.originateAt != null);
    const ended = world.listings.filter(
      (l) => l.loan_number != null || l.listing_status === 4 || l.listing_status === 5 || l.listing_status === 7,
    );
    expect(waiting.length).toBeGreaterThan(0);
    expect(ended.length).toBeGreaterThan(100);
    for (const l of ended) expect('originateAt' in JSON.parse(JSON.stringify(l))).toBe(false);
    const column = world.listingTable.columns.find((c) => c.name === 'originateAt')!;
    // Typed (a null would have made it a map), set on the waiting rows only.
    expect(column.kind).toBe('sparseNum');
    const times = (column.data as Float64Array).subarray(0, world.listingTable.size);
    expect(times.filter((x) => x !== 0).length).toBe(waiting.length);
  });

  test('an active listing already verified and funded in full whose end comes with the next tick ends then, as the walk ends it', async () => {
    // A state no tick leaves (a listing ready to originate goes Pending in its visit), but a hand-made or older state file can hold:
    // its own steps would make it Pending at the next hour, the hour its end meets it too, and the end decides.
    const apps = [makeApp({ listings: 300 }), makeApp({ listings: 300 })];
    apps[1]!.ctx.engine.tick = hourlyWalk;
    const numbers = apps.map((app) => {
      const s = app.ctx.world;
      const l = s.listings.find(
        (x) => x.listing_status === LISTING_STATUS.ACTIVE && x.investment_typeid === 1 && !x.mockRole && x.amount_funded < x.listing_amount,
      )!;
      Object.assign(l, {
        verification_stage: 3,
        amount_funded: l.listing_amount,
        amount_remaining: 0,
        percent_funded: 1,
        listing_end_date: s.engine.lastTick + TICK_MS,
      });
      return l.listing_number;
    });
    expect(numbers[0]).toBe(numbers[1]);
    for (const app of apps) {
      await app.ctx.engine.moveClock((now) => now + 5 * DAY);
      app.ctx.engine.settle();
    }
    const [timed, walked] = apps.map((app) => app.ctx.world.listingByNumber.get(numbers[0]!)!);
    expect(walked!.loan_origination_date).toBe(apps[1]!.ctx.world.engine.lastTick - 5 * DAY + TICK_MS);
    expect(timed!.loan_origination_date).toBe(walked!.loan_origination_date);
    expect(snapshot(apps[0]!)).toBe(snapshot(apps[1]!));
  });

  test('is the same for the same seed, and another seed moves the market differently', () => {
    const world = (seed: number): string => {
      const app = makeApp({ seed, listings: 200 });
      app.ctx.clock.advance(20 * DAY);
      return snapshot(app);
    };
    expect(world(3)).toBe(world(3));
    expect(world(3)).not.toBe(world(4));
  });
});

describe('an hourly tick', () => {
  /** Replaces `loan` in the world by a proxy counting reads of its status. */
  function watched(world: World, loan: Loan): { reads: number } {
    const counter = { reads: 0 };
    world.loans.set(
      loan.loan_number,
      new Proxy(loan, {
        get(target, key, receiver) {
          if (key === 'loan_status') counter.reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      }),
    );
    return counter;
  }

  test('does not look at a loan that is paid off or charged off, and at a current one only when something is due', () => {
    const app = makeApp({ listings: 200 });
    const world = app.ctx.world;
    const loans = [...world.loans.values()];
    const done = loans.find((l) => l.loan_status === LOAN_STATUS.COMPLETED || l.loan_status === LOAN_STATUS.CHARGEOFF)!;
    const now = app.ctx.clock.now();
    // A current loan with no arrears whose next due date is more than two days away.
    const current = loans.find(
      (l) => l.loan_status === LOAN_STATUS.CURRENT && l.oldestMissedDue == null && l.next_payment_due_date! > now + 2 * DAY,
    )!;
    const doneReads = watched(world, done);
    const currentReads = watched(world, current);
    app.ctx.clock.advance(HOUR);
    const afterFirst = { done: doneReads.reads, current: currentReads.reads };
    app.ctx.clock.advance(current.next_payment_due_date! - now - 2 * HOUR);
    expect(doneReads.reads).toBe(afterFirst.done);
    expect(currentReads.reads).toBe(afterFirst.current);
    const paid = current.paymentsMade + (current.missedPayments ?? 0);
    app.ctx.clock.advance(3 * HOUR);
    expect(currentReads.reads).toBeGreaterThan(afterFirst.current);
    expect(current.paymentsMade + (current.missedPayments ?? 0) + (current.loan_status === LOAN_STATUS.CURRENT ? 0 : 1)).toBeGreaterThan(
      paid,
    );
    expect(doneReads.reads).toBe(afterFirst.done);
  });
});
