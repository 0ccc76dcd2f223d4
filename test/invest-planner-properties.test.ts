import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Candidate, Market, TakenReason } from '../src/invest/market.js';
import { canStillUse, plan } from '../src/invest/planner.js';
import type { Rule, Strategy } from '../src/invest/strategy.js';
import { PLATFORM_RATINGS } from '../src/contract/enums.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const DAY = 86_400_000;

const cents = (min: number, max: number) => fc.integer({ min, max }).map((c) => c / 100);
const rating = fc.constantFrom(...PLATFORM_RATINGS);
/** Listing numbers from a small range, so rules share listings and taken sets hit them. */
const listingNumber = fc.integer({ min: 1, max: 30 });

const candidate: fc.Arbitrary<Candidate> = fc
  .record({
    listing_number: listingNumber,
    platform_rating: fc.oneof({ weight: 9, arbitrary: rating }, { weight: 1, arbitrary: fc.constant('NA') }),
    listing_amount: cents(2000, 3_500_000),
    amount_remaining: cents(0, 500_000),
    partial_funding_indicator: fc.boolean(),
    created_at: fc.integer({ min: NOW - 3 * DAY, max: NOW }),
    whole_loan: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  })
  .map((c) => ({ ...c, amount_remaining: Math.min(c.amount_remaining, c.listing_amount) }));

const rule = (i: number): fc.Arbitrary<Rule> =>
  fc
    .record({
      amount: fc.option(cents(2500, 60_000), { nil: undefined }),
      byRating: fc.dictionary(rating, cents(2500, 60_000), { maxKeys: 4 }),
      max_listings: fc.option(fc.nat(8), { nil: undefined }),
    })
    .map(({ amount, byRating, max_listings }) => ({
      name: `r${i}`,
      filters: {},
      ...(amount !== undefined || Object.keys(byRating).length === 0 ? { amount: amount ?? 25 } : { amount_by_rating: byRating }),
      ...(max_listings !== undefined ? { max_listings } : {}),
    }));

const strategy: fc.Arbitrary<Strategy> = fc.integer({ min: 1, max: 4 }).chain((n) =>
  fc
    .record({
      rules: fc.tuple(...Array.from({ length: n }, (_, i) => rule(i))),
      reserve: fc.option(cents(0, 200_000), { nil: undefined }),
      max_per_run: fc.option(cents(0, 300_000), { nil: undefined }),
      max_per_day: fc.option(cents(0, 400_000), { nil: undefined }),
      max_bids_per_run: fc.option(fc.nat(20), { nil: undefined }),
      rating_share: fc.option(
        fc.dictionary(
          rating,
          fc.integer({ min: 1, max: 100 }).map((p) => p / 100),
          { maxKeys: 3 },
        ),
        { nil: undefined },
      ),
    })
    .map((s) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as unknown as Strategy),
);

const market = (rules: number): fc.Arbitrary<Market> =>
  fc
    .record({
      cash: cents(0, 1_000_000),
      principal_by_rating: fc.dictionary(fc.constantFrom(...PLATFORM_RATINGS, 'NA'), cents(0, 500_000), { maxKeys: 8 }),
      requested_today: cents(0, 300_000),
      taken: fc.array(fc.tuple(listingNumber, fc.constantFrom<TakenReason>('held', 'pending', 'journal')), { maxLength: 6 }),
      candidates: fc.array(fc.array(candidate, { maxLength: 15 }), { minLength: rules, maxLength: rules }),
    })
    .map((m) => ({ ...m, now: NOW, taken: new Map(m.taken) }));

const world = strategy.chain((s) => market(s.rules.length).map((m) => ({ s, m })));
const c = (dollars: number): number => Math.round(dollars * 100);

describe('the planner, over random strategies and markets', () => {
  test('never exceeds a cap, never bids below 25.00 or above what remains, never twice on a listing; one decision per candidate', () => {
    fc.assert(
      fc.property(world, ({ s, m }) => {
        const ds = plan(s, m);
        expect(ds).toHaveLength(m.candidates.reduce((n, l) => n + l.length, 0));
        // Decisions come rule by rule, candidates in their order: the k-th decision is the k-th candidate.
        const flat = s.rules.flatMap((r, ri) => m.candidates[ri]!.map((cand) => ({ cand, ri })));
        flat.forEach(({ cand, ri }, k) => expect([ds[k]!.listing_id, ds[k]!.rule]).toEqual([cand.listing_number, s.rules[ri]!.name]));
        const bids = ds.flatMap((d, k) => (d.action === 'bid' ? [{ ...d, ...flat[k]! }] : []));
        const seen = new Set<number>();
        let spent = 0;
        const perRule = new Map<string, number>();
        const byRating = new Map<string, number>();
        for (const b of bids) {
          const amount = c(b.amount!);
          expect(amount / 100).toBe(b.amount); // whole cents
          expect(seen.has(b.listing_id)).toBe(false);
          seen.add(b.listing_id);
          expect(m.taken.has(b.listing_id)).toBe(false);
          const { cand, ri } = b;
          expect(cand.whole_loan).toBe(false);
          expect(amount).toBeGreaterThanOrEqual(2500);
          expect(amount).toBeLessThanOrEqual(c(cand.amount_remaining));
          const wanted = s.rules[ri]!.amount ?? s.rules[ri]!.amount_by_rating![cand.platform_rating as 'A'];
          expect(amount).toBeLessThanOrEqual(c(wanted!));
          if (cand.partial_funding_indicator && NOW - cand.created_at < DAY)
            expect(amount).toBeLessThanOrEqual(Math.round(c(cand.listing_amount) / 10)); // the marketplace's 10%, to the cent
          spent += amount;
          perRule.set(b.rule, (perRule.get(b.rule) ?? 0) + 1);
          byRating.set(cand.platform_rating, (byRating.get(cand.platform_rating) ?? 0) + amount);
        }
        expect(spent).toBeLessThanOrEqual(Math.max(0, c(m.cash) - c(s.reserve ?? 0)));
        if (s.max_per_run !== undefined) expect(spent).toBeLessThanOrEqual(c(s.max_per_run));
        if (s.max_per_day !== undefined && spent > 0) expect(c(m.requested_today) + spent).toBeLessThanOrEqual(c(s.max_per_day));
        if (s.max_bids_per_run !== undefined) expect(bids.length).toBeLessThanOrEqual(s.max_bids_per_run);
        for (const r of s.rules) if (r.max_listings !== undefined) expect(perRule.get(r.name) ?? 0).toBeLessThanOrEqual(r.max_listings);
        // After the run, a capped rating the run bid in is within its share of the whole portfolio.
        const held = Object.values(m.principal_by_rating).reduce((a, v) => a + c(v), 0);
        for (const [r, share] of Object.entries(s.rating_share ?? {})) {
          const mine = byRating.get(r) ?? 0;
          if (mine === 0) continue;
          const part = c(m.principal_by_rating[r] ?? 0) + mine;
          expect(part / (held + spent)).toBeLessThanOrEqual(share + 1e-12);
        }
      }),
      { numRuns: 400 },
    );
  });

  test('when canStillUse says a rule is done, more candidates for it change nothing', () => {
    fc.assert(
      fc.property(world, fc.array(candidate, { minLength: 1, maxLength: 5 }), ({ s, m }, extra) => {
        s.rules.forEach((_, ri) => {
          if (canStillUse(s, m, ri) > 0) return;
          const more = m.candidates.map((l, i) => (i === ri ? [...l, ...extra] : l));
          const bidsOf = (mk: Market) => plan(s, mk).filter((d) => d.action === 'bid' && d.rule === s.rules[ri]!.name).length;
          expect(bidsOf({ ...m, candidates: more })).toBe(bidsOf(m));
        });
      }),
      { numRuns: 300 },
    );
  });
});
