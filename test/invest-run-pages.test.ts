import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { investRun, type ListingPage, type MarketReads, type RunDesk, type SeenOrder } from '../src/invest/run.js';
import type { Strategy } from '../src/invest/strategy.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');

/** A market standing still: `listings` in the search's order, and the limit of every page asked for. */
function still(listings: Record<string, unknown>[], orders: SeenOrder[] = []) {
  const limits: number[] = [];
  const reads: MarketReads = {
    account: async () => ({ available_cash_balance: 10_000 }),
    listingsPage: async (q): Promise<ListingPage> => {
      const offset = Number(q.get('offset'));
      const limit = Number(q.get('limit'));
      limits.push(limit);
      const page = listings.slice(offset, offset + limit);
      return { result: page, result_count: page.length, total_count: listings.length };
    },
    async *orders() {
      yield* orders;
    },
  };
  return { reads, limits };
}

const desk: RunDesk = {
  session: (fn) => fn(),
  holds: () => new Map(),
  place: () => Promise.reject(new Error('a dry run places nothing')),
};

const listingArb = (n: number) =>
  fc
    .record({
      platform_rating: fc.constantFrom('A', 'B', 'C'),
      amount_remaining: fc.constantFrom(10, 20, 25, 60, 5_000),
      invested: fc.boolean(),
      investment_typeid: fc.constantFrom(1, 1, 1, 2),
    })
    .map((l) => ({
      listing_number: n,
      listing_amount: 10_000,
      partial_funding_indicator: false,
      listing_creation_date: '2026-05-20 10:00:00 +0000',
      ...l,
    }));

const strategyArb: fc.Arbitrary<Strategy> = fc
  .record({
    max_listings: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
    max_bids_per_run: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
    max_per_run: fc.option(fc.integer({ min: 25, max: 2_000 }), { nil: undefined }),
    amount: fc.constantFrom(25, 50),
  })
  .map(({ max_listings, max_bids_per_run, max_per_run, amount }) => ({
    ...(max_bids_per_run === undefined ? {} : { max_bids_per_run }),
    ...(max_per_run === undefined ? {} : { max_per_run }),
    rules: [
      { name: 'first', filters: {}, amount, ...(max_listings === undefined ? {} : { max_listings }) },
      { name: 'second', filters: {}, amount: 25, max_listings: 5 },
    ],
  }));

describe("an invest run's page sizes", () => {
  it('change the requests and never the bids: any page size plans what pages of the most plan', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 700 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => listingArb(i + 1)))),
        strategyArb,
        fc.oneof(
          fc.integer({ min: 1, max: 120 }).map((k) => () => k),
          fc.integer({ min: 1, max: 4 }).map((k) => (bids: number) => k * bids),
        ),
        async (listings, strategy, pageRows) => {
          const plain = still(listings);
          const sized = still(listings);
          const deps = (reads: MarketReads) => ({ reads, desk, now: () => NOW, info: () => undefined });
          const a = await investRun(strategy, deps(plain.reads), { dryRun: true });
          const b = await investRun(strategy, { ...deps(sized.reads), pageRows }, { dryRun: true });
          const bids = (d: typeof a.decisions) => d.filter((x) => x.action === 'bid').map((x) => [x.listing_id, x.rule, x.amount]);
          expect(bids(b.decisions)).toEqual(bids(a.decisions));
          expect(b.total_bid).toBe(a.total_bid);
          expect(plain.limits.every((l) => l === 500)).toBe(true);
          // Each page asked for what pageRows said (at least one row, at most the API's 500).
          for (const l of sized.limits) expect(l).toBeLessThanOrEqual(500);
          if (listings.length > 0) expect(sized.limits[0]).toBe(Math.min(500, Math.max(1, pageRows(firstUsable(strategy)))));
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** What the first rule can still bid before any candidate: its count caps (Infinity when only money bounds it). */
function firstUsable(s: Strategy): number {
  return Math.min(s.rules[0]!.max_listings ?? Infinity, s.max_bids_per_run ?? Infinity);
}
