/**
 * A new sorted search puts in order only the first of its matches, up to the page asked for (a heap: kit/top-order.ts),
 * and reads the fields it tests and sorts by from the listing table's columns by row (world/column-read.ts): its pages,
 * the first and any later one (which orders the rest), are the plain full scan's, in a world where a clock move left
 * arrived listings awaiting their description (those rows are read through their objects, which describes them).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseListingQuery, scanListingQuery } from '../mock-server/search/listing-query.js';
import { runListingQuery } from '../mock-server/search/listing-search.js';
import { rowsAwaiting } from '../mock-server/world/row-table.js';
import type { Listing } from '../mock-server/world/world.js';
import { call, makeApp } from './engine-fixture.js';

const SORTS = [
  'lender_yield desc',
  'borrower_rate',
  'listing_amount desc,lender_yield',
  'percent_funded desc,borrower_apr',
  'max_prior_platform_loan desc,listing_amount',
  'loan_origination_date desc',
  'listing_start_date desc',
  'estimated_return',
];
const RANGES: Record<string, string[]> = {
  borrower_rate_min: ['0.08', '0.15'],
  lender_yield_max: ['0.12', '0.2'],
  at02s_max: ['0', '5'],
  listing_amount_min: ['5000', '15000'],
  percent_funded_max: ['0.3', '0.9'],
};
const FILTERS: Record<string, string[]> = {
  listing_term: ['36', '60', '36,60'],
  fico_score: ['700-719,720-739', '760-779'],
  income_range: ['3,4', '5'],
};

const search = fc.record({
  sort: fc.constantFrom(...SORTS),
  ranges: fc
    .subarray(Object.keys(RANGES), { maxLength: 2 })
    .chain((ks) => fc.tuple(...ks.map((k) => fc.constantFrom(...RANGES[k]!).map((v) => [k, v] as const)))),
  filters: fc
    .subarray(Object.keys(FILTERS), { maxLength: 2 })
    .chain((ks) => fc.tuple(...ks.map((k) => fc.constantFrom(...FILTERS[k]!).map((v) => [k, v] as const)))),
  first: fc.record({ offset: fc.nat(5), limit: fc.integer({ min: 1, max: 10 }) }),
  later: fc.record({ offset: fc.nat(300), limit: fc.integer({ min: 1, max: 200 }) }),
});

const numbers = (ls: Listing[]) => ls.map((l) => l.listing_number);

describe('a new sorted search', () => {
  test('answers its first page and a later one as a full scan, from the columns, with rows awaiting their description', async () => {
    let awaited = 0;
    await fc.assert(
      fc.asyncProperty(search, async ({ sort, ranges, filters, first, later }) => {
        const app = makeApp({ listings: 400 });
        await call(app, 'POST', '/__mock/clock', { body: { advance: '3d' } });
        app.ctx.engine.settle();
        const world = app.ctx.world;
        awaited += rowsAwaiting(world.listingTable) > 0 ? 1 : 0;
        const params = (page: { offset: number; limit: number }) =>
          parseListingQuery(
            new URLSearchParams({
              ...Object.fromEntries([...ranges, ...filters]),
              sort_by: sort,
              offset: String(page.offset),
              limit: String(page.limit),
            }),
            undefined,
          );
        // The indexed search first (a full scan reads every listing's object, describing it).
        const got = [first, later, first].map((page) => runListingQuery(world, params(page), new Map()));
        [first, later, first].forEach((page, i) => {
          const want = scanListingQuery(world.listings, params(page), new Map());
          expect(numbers(got[i]!.page), `${sort} ${JSON.stringify([ranges, filters, page])}`).toEqual(numbers(want.page));
          expect(got[i]!.total).toBe(want.total);
        });
      }),
      { numRuns: 40, seed: 4343 },
    );
    // Rows awaited their description when the searches read them (the property was not met on whole rows only).
    expect(awaited).toBeGreaterThan(0);
  });
});
