/** GET /accounts/platform: invested and pending principal by rating add up to the account's totals and follow each order. */
import { describe, expect, test } from 'vitest';
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
});
