/**
 * The indexed listings search (mock-server/search/listing-search.ts) answers exactly as the plain full scan
 * (`scanListingQuery`) after random sequences of orders, processing, clock moves (funding, endings,
 * originations, arrivals) and withdrawals, for random queries and pages; and later pages of one
 * query are read from its kept matches instead of searching the world again.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { parseListingQuery, scanListingQuery } from '../mock-server/search/listing-query.js';
import { runListingQuery } from '../mock-server/search/listing-search.js';
import { FIRST_ACTIVE_LISTING } from '../mock-server/seed/seed.js';
import { participationOf } from '../mock-server/world/world-index.js';
import type { Listing } from '../mock-server/world/world.js';
import { FICO_BINS, LISTING_STATUS, LISTING_TERMS, PLATFORM_RATINGS } from '../src/contract/enums.js';
import { call, makeApp, tokenFor } from './engine-fixture.js';
import { ACCOUNTS, applyStep, step, type Step } from './helpers/listing-steps.js';

const some = <T>(xs: readonly T[]) => fc.subarray([...xs], { minLength: 1 }).map((v) => v.join(','));
const bool = fc.constantFrom('true', 'false');
const STATUSES = Object.values(LISTING_STATUS);

/** Each filter kind of the catalogue, the pool switches and sorts, as [parameter, value] generators. */
const FILTERS: Record<string, fc.Arbitrary<string>> = {
  fico_score: some(FICO_BINS),
  platform_rating: some(PLATFORM_RATINGS),
  listing_term: some(LISTING_TERMS),
  listing_status: some(STATUSES),
  has_mortgage: bool,
  co_borrower_application: bool,
  partial_funding_indicator: bool,
  borrower_rate_min: fc.constantFrom('0.08', '0.12', '0.2'),
  amount_funded_max: fc.constantFrom('0', '500', '5000'),
  percent_funded_min: fc.constantFrom('0.1', '0.5', '0.9'),
  verification_stage_min: fc.constantFrom('2', '3'),
  at02s_max: fc.constantFrom('0', '10'),
  loan_origination_date_min: fc.constant('2020-01-01'),
  biddable: bool,
  invested: bool,
  whole_loan: bool,
  exclude_co_borrower_application: bool,
  listing_number: some([-1, 0, 1, 2, 40, 79, 85, 120].map((d) => FIRST_ACTIVE_LISTING + d)),
  // Numbers with ties and nulls (sorted by typed keys), strings and booleans (by the generic order).
  sort_by: fc.constantFrom(
    'listing_amount desc',
    'borrower_rate',
    'percent_funded desc,listing_number',
    'occupation',
    'max_prior_platform_loan desc,listing_amount',
    'combined_dti_wplatform_loan',
    'has_mortgage,borrower_rate desc',
    'loan_origination_date desc',
    'amount_funded,percent_funded desc',
    'amount_participation desc,listing_number',
    'amount_participation',
  ),
};

/** A random search: up to four of those, and a page. */
const query: fc.Arbitrary<Record<string, string>> = fc
  .record({
    filters: fc.array(fc.oneof(...Object.entries(FILTERS).map(([k, v]) => v.map((value) => [k, value] as const))), { maxLength: 4 }),
    offset: fc.nat(40),
    limit: fc.integer({ min: 1, max: 30 }),
  })
  .map(({ filters, offset, limit }) => ({ ...Object.fromEntries(filters), offset: String(offset), limit: String(limit) }));

const numbers = (ls: Listing[]) => ls.map((l) => l.listing_number);
const seen = { nonEmpty: 0, queries: 0, ended: 0 };

/** Runs `params` for `account` both ways and expects the same page and total. */
function expectSameAnswer(app: MockApp, params: Record<string, string>, account: string, after: string): void {
  const q = parseListingQuery(new URLSearchParams(params), undefined);
  const participation = participationOf(app.ctx.world, account);
  const want = scanListingQuery(app.ctx.world.listings, q, participation);
  const got = runListingQuery(app.ctx.world, q, participation);
  const what = `${after}, ${account} ${new URLSearchParams(params)}`;
  expect(got.total, what).toBe(want.total);
  expect(numbers(got.page), what).toEqual(numbers(want.page));
  seen.queries++;
  if (want.page.length > 0) seen.nonEmpty++;
}

async function run(app: MockApp, steps: Step[], queries: Record<string, string>[]): Promise<void> {
  const tok = ACCOUNTS.map((a) => tokenFor(app, a));
  const check = (after: string) => queries.forEach((q, i) => expectSameAnswer(app, q, ACCOUNTS[i % ACCOUNTS.length]!, after));
  check('at start');
  for (const s of steps) {
    await applyStep(app, tok, s);
    check(`after ${JSON.stringify(s)}`);
  }
  seen.ended += app.ctx.world.listings.filter((l) => l.listing_status !== 2 && l.loan_number === null).length;
}

describe('indexed listings search', () => {
  test('answers as a full scan after random orders, processing, clock moves and withdrawals, for random queries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 12 }),
        // At most as many queries as the search keeps answers for, so kept answers are read after each step.
        fc.array(query, { minLength: 1, maxLength: 4 }),
        async (steps, queries) => run(makeApp({ listings: 80 }), steps, queries),
      ),
      { numRuns: 60, seed: 20261123 },
    );
    // The property was not met vacuously: queries found listings, and listings ended along the way.
    expect(seen.nonEmpty).toBeGreaterThan(seen.queries / 4);
    expect(seen.ended).toBeGreaterThan(0);
  });

  test("sort_by=amount_participation orders by the caller's participation (0 where none), both ways", () => {
    const app = makeApp({ listings: 80 });
    const world = app.ctx.world;
    const active = world.listings.filter((l) => l.listing_status === 2 && l.investment_typeid === 1).map((l) => l.listing_number);
    const [a, b, c] = [active[5]!, active[0]!, active[9]!];
    const participation = new Map([
      [a, 50],
      [b, 25],
      [c, 75],
    ]);
    for (const search of [
      runListingQuery,
      (st: typeof world, q: Parameters<typeof runListingQuery>[1], p: ReadonlyMap<number, number>) => scanListingQuery(st.listings, q, p),
    ]) {
      const page = (sort: string, mine: ReadonlyMap<number, number>) =>
        numbers(search(world, parseListingQuery(new URLSearchParams({ sort_by: sort, limit: '5' }), undefined), mine).page);
      expect(page('amount_participation desc', participation).slice(0, 3)).toEqual([c, a, b]);
      // Ascending, the listings without participation come first, in the pool's order; and another caller's map gives another order.
      expect(page('amount_participation', participation)).not.toContain(c);
      expect(page('amount_participation desc', new Map([[b, 25]]))[0]).toBe(b);
    }
  });

  test('later pages of one query are slices of its kept matches: no listing is read again', () => {
    const app = makeApp({ listings: 300 });
    const world = app.ctx.world;
    let reads = 0;
    // Count every read of a field the query tests, on every listing: through the listing, or by row from its column.
    world.listings = world.listings.map(
      (l) =>
        new Proxy(l, {
          get: (t, p, r) => {
            if (p === 'borrower_rate') reads++;
            return Reflect.get(t, p, r);
          },
        }),
    );
    const table = world.listingTable;
    const column = table.columns[table.byName.get('borrower_rate')!]!;
    const data = column.data as Int32Array;
    column.data = new Proxy(data, {
      get: (t, p) => {
        if (typeof p === 'string' && /^\d+$/.test(p)) reads++;
        return Reflect.get(t, p) as unknown;
      },
    }) as never;
    const page = (offset: number) => {
      const q = parseListingQuery(new URLSearchParams({ borrower_rate_min: '0.1', limit: '25', offset: String(offset) }), undefined);
      return runListingQuery(world, q, new Map());
    };
    const first = page(0);
    expect(first.total).toBeGreaterThan(50);
    expect(reads).toBeGreaterThan(50);
    reads = 0;
    const second = page(25);
    expect(reads).toBe(0);
    expect(second.page).toHaveLength(25);
    expect(numbers(second.page)).not.toEqual(numbers(first.page));
  });

  test('a kept answer is not served once funding moves a listing across a range, or the caller invests', async () => {
    const app = makeApp({ listings: 80 });
    const world = app.ctx.world;
    const alice = tokenFor(app, 'alice-1');
    const l = world.listings.find(
      (x) =>
        x.listing_status === 2
        && x.investment_typeid === 1
        && !x.mockRole
        && !x.borrowerUserId
        && x.amount_funded < 100
        && x.listing_amount >= 2000,
    )!;
    // Each search is asked at offset 1 too, so its matches are kept and the second page reads them.
    const both = (params: Record<string, string>) =>
      [0, 1].map((offset) => {
        const q = parseListingQuery(new URLSearchParams({ ...params, limit: '500', offset: String(offset) }), undefined);
        const participation = participationOf(world, 'alice-1');
        return { got: runListingQuery(world, q, participation), want: scanListingQuery(world.listings, q, participation) };
      });
    const funded = { amount_funded_min: String(l.amount_funded + 100) };
    const invested = { invested: 'true' };
    for (const params of [funded, invested])
      for (const { got, want } of both(params)) expect(numbers(got.page)).toEqual(numbers(want.page));
    expect(numbers(both(funded)[0]!.got.page)).not.toContain(l.listing_number);
    const res = await call(app, 'POST', '/v1/orders', {
      token: alice,
      body: { bid_requests: [{ listing_id: l.listing_number, bid_amount: 150 }] },
    });
    expect(res.status).toBe(200);
    await call(app, 'POST', '/__mock/process');
    for (const params of [funded, invested]) {
      const pages = both(params);
      expect(numbers(pages[0]!.got.page)).toContain(l.listing_number);
      for (const { got, want } of pages) {
        expect(numbers(got.page)).toEqual(numbers(want.page));
        expect(got.total).toBe(want.total);
      }
    }
  });

  test('finds listings by number wherever they sit in the world, in or out of number order', () => {
    const app = makeApp({ listings: 80 });
    const all = app.ctx.world.listings;
    // A world whose listings are not in number order (as a hand-edited or future state file may hold).
    [all[3], all[70]] = [all[70]!, all[3]!];
    const wanted = [all[3]!, all[70]!, all[10]!].map((l) => l.listing_number);
    for (const params of [{ listing_number: wanted.join(',') }, { listing_number: wanted.join(','), biddable: 'false' }] as Record<
      string,
      string
    >[]) {
      const q = parseListingQuery(new URLSearchParams(params), undefined);
      const want = scanListingQuery(all, q, new Map());
      const got = runListingQuery(app.ctx.world, q, new Map());
      expect(numbers(got.page)).toEqual(numbers(want.page));
      expect(got.total).toBe(want.total);
    }
    expect(
      numbers(
        runListingQuery(app.ctx.world, parseListingQuery(new URLSearchParams({ listing_number: wanted.join(',') }), undefined), new Map())
          .page,
      ).sort(),
    ).toEqual(
      wanted
        .filter(
          (n) =>
            app.ctx.world.listingByNumber.get(n)!.listing_status === 2 && app.ctx.world.listingByNumber.get(n)!.investment_typeid === 1,
        )
        .sort(),
    );
  });
});
