/** GET /accounts/platform: invested and pending principal by rating add up to the account's totals and follow each order. */
import { describe, expect, test } from 'vitest';
import { notePrincipal } from '../mock-server/engine/ledger.js';
import { notesOf } from '../mock-server/world/world-index.js';
import { accountRatingKey, readRating } from '../src/contract/enums.js';
import { checkMultivalue } from '../src/contract/listing-filters.js';
import { call, makeApp, order, plainListings, tokenFor } from './engine-fixture.js';

const sum = (o: Record<string, number>): number => Math.round(Object.values(o).reduce((s, v) => s + v, 0) * 100) / 100;

describe('GET /accounts/platform by rating', () => {
  test('invested_notes and pending_bids carry every rating key and add up to the totals', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const res = await call(app, 'GET', '/v1/accounts/platform', { token: alice });
    expect(res.status).toBe(200);
    for (const k of ['NA', 'HR', 'E', 'D', 'C', 'B', 'A', 'AA']) {
      expect(typeof res.body.invested_notes[k]).toBe('number');
      expect(typeof res.body.pending_bids[k]).toBe('number');
    }
    expect(sum(res.body.invested_notes)).toBe(res.body.outstanding_principal_on_active_notes);
    expect(sum(res.body.pending_bids)).toBe(res.body.pending_investments_primary_market);
  });

  test('an order shows as pending in its listing rating at once', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const listing = plainListings(app)[0]!;
    const before = (await call(app, 'GET', '/v1/accounts/platform', { token: alice })).body;
    expect((await order(app, alice, [{ listing_id: listing.listing_number, bid_amount: 40 }])).status).toBe(200);
    const after = (await call(app, 'GET', '/v1/accounts/platform', { token: alice })).body;
    expect(after.pending_bids[listing.platform_rating] - before.pending_bids[listing.platform_rating]).toBeCloseTo(40, 2);
    expect(sum(after.pending_bids)).toBe(after.pending_investments_primary_market);
  });

  test('the old loans rated N/A are counted under NA, as the real account answer keys them; no N/A key', async () => {
    const app = makeApp({ listings: 700 });
    const body = (await call(app, 'GET', '/v1/accounts/platform', { token: tokenFor(app, 'alice-1') })).body;
    const world = app.ctx.world;
    const old = notesOf(world, 'alice-1').filter((n) => world.loans.get(n.loanNumber)!.platform_rating === 'N/A');
    const outstanding = Math.round(old.reduce((s, n) => s + Math.max(0, notePrincipal(n)) * 100, 0)) / 100;
    expect(outstanding, 'alice holds old loans with principal outstanding').toBeGreaterThan(0);
    expect(body.invested_notes.NA).toBe(outstanding);
    expect(Object.keys(body.invested_notes)).not.toContain('N/A');
    expect(Object.keys(body.pending_bids)).not.toContain('N/A');
  });
});

describe("the two spellings of the old loans' rating", () => {
  test('N/A is the rating; NA (any case) is read as it where a rating is typed, and counted under NA in the account maps', () => {
    for (const typed of ['N/A', 'n/a', 'NA', 'na', ' Na ']) expect(readRating(typed), typed).toBe('N/A');
    expect(readRating('hr')).toBe('HR');
    expect(readRating('N-A')).toBeUndefined();
    expect([accountRatingKey('N/A'), accountRatingKey('NA'), accountRatingKey(undefined), accountRatingKey('AA')]).toEqual([
      'NA',
      'NA',
      'NA',
      'AA',
    ]);
    expect(checkMultivalue('platform_rating', 'string', 'na,N/A,aa')).toEqual(['N/A', 'N/A', 'AA']);
    expect(checkMultivalue('platform_rating', 'string', 'N')).toMatch(/unknown value 'N'; expected one of AA, A, B, C, D, E, HR, N\/A/);
  });

  test('the listings search takes platform_rating=N/A, NA or na alike: the old loans the caller invested in, each rated N/A', async () => {
    const app = makeApp({ listings: 700 });
    const alice = tokenFor(app, 'alice-1');
    const ask = async (value: string) =>
      (
        await call(app, 'GET', `/listingsvc/v2/listings?biddable=false&limit=500&platform_rating=${encodeURIComponent(value)}`, {
          token: alice,
        })
      ).body;
    const slash = await ask('N/A');
    expect(slash.total_count).toBeGreaterThan(0);
    for (const l of slash.result) expect(l.platform_rating).toBe('N/A');
    for (const alias of ['NA', 'na', 'NA,N/A']) expect(await ask(alias), alias).toEqual(slash);
  });
});
