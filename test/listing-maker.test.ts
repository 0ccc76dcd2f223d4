/**
 * An arriving listing is drawn with its market fields only (engine/arrivals.ts): the draws of its
 * description are stepped over, not computed (listing-maker.ts skipDescriptionDraws). Both ways must
 * leave the stream at the same place, or every later listing of the hour would differ, and give the
 * same market fields.
 */
import fc from 'fast-check';
import { afterEach, expect, test, vi } from 'vitest';
import { makeListing } from '../mock-server/engine/listing-maker.js';
import { Rng } from '../mock-server/kit/rng.js';
import { Bureau2, fillBureau2, skipBureau2 } from '../mock-server/engine/seed-bureau.js';
import type { Listing } from '../mock-server/world/world.js';

const MARKET: (keyof Listing)[] = [
  'listing_number',
  'listing_status',
  'listing_status_reason',
  'listing_amount',
  'amount_funded',
  'amount_remaining',
  'percent_funded',
  'partial_funding_indicator',
  'investment_typeid',
  'investment_type_description',
  'listing_term',
  'borrower_rate',
  'platform_rating',
  'listing_creation_date',
  'listing_start_date',
  'listing_end_date',
  'loan_number',
  'loan_origination_date',
  'borrowerUserId',
];

test('drawing only the market fields leaves the stream where the whole listing leaves it, with the same market fields', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      fc.integer({ min: 0, max: 20_000_000 }),
      // Before and after the bureau1 cut-off (2019-03-01): a listing created before it draws bureau1 values too.
      fc.integer({ min: Date.parse('2015-01-01'), max: Date.parse('2027-01-01') }),
      (state, index, created) => {
        const whole = Rng.resume(state);
        const full = makeListing(whole, index, created, created, index);
        const market = Rng.resume(state);
        const only = makeListing(market, index, created, created, index, {} as Listing, true);
        expect(market.state).toBe(whole.state);
        for (const f of MARKET) expect(only[f], f).toEqual(full[f]);
        // The whole listing has its description; the market's has none of it.
        expect(only.member_key).toBeUndefined();
        expect(typeof full.member_key).toBe('string');
      },
    ),
    { numRuns: 3000, seed: 20261126 },
  );
});

afterEach(() => {
  vi.restoreAllMocks();
});

test("an arrival's market fields work out no monthly payment (its description does, when drawn)", () => {
  const created = Date.parse('2026-03-02T17:00:00Z');
  const pow = vi.spyOn(Math, 'pow');
  for (let index = 0; index < 300; index++) {
    const market = makeListing(Rng.resume(index * 7919 + 1), index, created, created, index, {} as Listing, true);
    expect('listing_monthly_payment' in market).toBe(false);
  }
  expect(pow).not.toHaveBeenCalled();
  // The payment itself may come from monthlyPayment's memo of the power (amortisation.ts), so no call of pow is asked for.
  const full = makeListing(Rng.resume(12345), 500, created, created, 500);
  expect(full.listing_monthly_payment).toBeGreaterThan(0);
});

test('skipping draws leaves a stream where drawing them would', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.nat(5000), (state, n) => {
      const drawn = Rng.resume(state);
      for (let k = 0; k < n; k++) drawn.next();
      const skipped = Rng.resume(state);
      skipped.skip(n);
      expect(skipped.state).toBe(drawn.state);
      expect(skipped.next()).toBe(drawn.next());
    }),
    { numRuns: 500, seed: 20261126 },
  );
});

test('a stream resumed from its state draws what the stream would have drawn next', () => {
  const rng = new Rng(42);
  for (let k = 0; k < 17; k++) rng.next();
  const again = Rng.resume(rng.state);
  expect(Array.from({ length: 5 }, () => again.next())).toEqual(Array.from({ length: 5 }, () => rng.next()));
});

test('a stream moved to a state draws what a stream resumed from it draws (skipBureau2 steps a plain number and hands it back)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (from, to) => {
      const moved = Rng.resume(from);
      moved.next();
      moved.state = to;
      expect(moved.state).toBe(to);
      const resumed = Rng.resume(to);
      expect(Array.from({ length: 3 }, () => moved.next())).toEqual(Array.from({ length: 3 }, () => resumed.next()));
    }),
    { numRuns: 300, seed: 20261130 },
  );
});

test('skipBureau2 leaves the stream where drawing the bureau2 values leaves it', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (state) => {
      const drawn = Rng.resume(state);
      fillBureau2(new Bureau2(), drawn);
      const skipped = Rng.resume(state);
      skipBureau2(skipped);
      expect(skipped.state).toBe(drawn.state);
    }),
    { numRuns: 1000, seed: 20261130 },
  );
});
