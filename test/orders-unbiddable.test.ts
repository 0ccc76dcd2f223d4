/**
 * A listing that cannot take bids fails the whole order (issue 41, item 4): the code the spec names where it
 * names the case (not started ORD0020, no investment type ORD0037, ended ORD0013), else ORD0019 in the real
 * service's words, `Listing [N] is in status [PENDING_COMPLETION] and cannot currently accept bids.`
 * (cwalsh525/liveLongAndProsperBot run_v1/search_and_destroy.py:269 at 8188c71). A valid bid beside it is
 * not placed and no cash moves.
 */
import { describe, expect, test } from 'vitest';
import { setPending, setStatus } from '../mock-server/engine/listing-status.js';
import { specialListing } from '../mock-server/seed/seed-extras.js';
import type { Listing } from '../mock-server/world/world.js';
import type { MockApp } from '../mock-server/app.js';
import { LISTING_STATUS } from '../src/contract/enums.js';
import { call, makeApp, order, plainListings, tokenFor } from './engine-fixture.js';

/** Each kind of listing a search may show (or just showed) that takes no bids, made so in `app`, with the answer expected. */
const KINDS: Array<[string, (app: MockApp) => Listing, string, (l: Listing) => string]> = [
  [
    'funded, awaiting origination (Pending)',
    (app) => {
      const l = plainListings(app)[5]!;
      setPending(app.ctx.world, l, app.ctx.clock.now());
      return l;
    },
    'ORD0019',
    (l) => `Listing [${l.listing_number}] is in status [PENDING_COMPLETION] and cannot currently accept bids.`,
  ],
  ...(
    [
      ['withdrawn', LISTING_STATUS.WITHDRAWN, 'WITHDRAWN'],
      ['cancelled', LISTING_STATUS.CANCELLED, 'CANCELLED'],
      ['completed (originated)', LISTING_STATUS.COMPLETED, 'COMPLETED'],
    ] as const
  ).map(([name, status, word]): [string, (app: MockApp) => Listing, string, (l: Listing) => string] => [
    name,
    (app) => {
      const l = plainListings(app)[5]!;
      setStatus(app.ctx.world, l, status, app.ctx.clock.now());
      return l;
    },
    'ORD0019',
    (l) => `Listing [${l.listing_number}] is in status [${word}] and cannot currently accept bids.`,
  ]),
  [
    'not started (listing_start_date ahead)',
    (app) => specialListing(app.ctx.world, 'not_started')!,
    'ORD0020',
    (l) => `Listing has not started. bid_requests[1]: listing ${l.listing_number} has not started.`,
  ],
  [
    'without an investment type',
    (app) => specialListing(app.ctx.world, 'type_unset')!,
    'ORD0037',
    (l) => `Listing has a null investment type id. bid_requests[1]: listing ${l.listing_number}.`,
  ],
  [
    'expired',
    (app) => {
      const l = plainListings(app)[5]!;
      setStatus(app.ctx.world, l, LISTING_STATUS.EXPIRED, app.ctx.clock.now());
      return l;
    },
    'ORD0013',
    (l) => `Listing has ended. bid_requests[1]: listing ${l.listing_number} expired.`,
  ],
];

describe('a bid on a listing that cannot take bids fails its whole order', () => {
  test.each(KINDS.map(([name, make, code, text]) => ({ name, make, code, text })))(
    '$name: $code with its text, and the valid bid beside it is not placed',
    async ({ make, code, text }) => {
      const app = makeApp();
      const alice = tokenFor(app, 'alice-1');
      const valid = plainListings(app)[0]!;
      const l = make(app);
      const account = async () => (await call(app, 'GET', '/v1/accounts/platform', { token: alice })).body;
      const orders = async () => (await call(app, 'GET', '/v1/orders/', { token: alice })).body.total_count as number;
      const [before, ordersBefore, fundedBefore] = [await account(), await orders(), valid.amount_funded];
      const res = await order(app, alice, [
        { listing_id: valid.listing_number, bid_amount: 25 },
        { listing_id: l.listing_number, bid_amount: 25 },
      ]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code, message: text(l) });
      // All-or-nothing: no order, no cash taken, nothing pending, nothing on the valid listing.
      await call(app, 'POST', '/__mock/process');
      const after = await account();
      expect(after.available_cash_balance).toBe(before.available_cash_balance);
      expect(after.pending_investments_primary_market).toBe(before.pending_investments_primary_market);
      expect(await orders()).toBe(ordersBefore);
      expect(valid.amount_funded).toBe(fundedBefore);
    },
  );

  test('the first error found wins: an unbiddable listing before a valid one and another unbiddable one names the first', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const [valid, a, b] = [plainListings(app)[0]!, plainListings(app)[6]!, plainListings(app)[7]!];
    setPending(app.ctx.world, a, app.ctx.clock.now());
    setStatus(app.ctx.world, b, LISTING_STATUS.WITHDRAWN, app.ctx.clock.now());
    const res = await order(app, alice, [
      { listing_id: a.listing_number, bid_amount: 25 },
      { listing_id: valid.listing_number, bid_amount: 25 },
      { listing_id: b.listing_number, bid_amount: 25 },
    ]);
    expect(res.body.message).toBe(`Listing [${a.listing_number}] is in status [PENDING_COMPLETION] and cannot currently accept bids.`);
  });

  test('the not-started listing takes bids once it has started', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const l = specialListing(app.ctx.world, 'not_started')!;
    expect((await order(app, alice, [{ listing_id: l.listing_number, bid_amount: 25 }])).body.code).toBe('ORD0020');
    await call(app, 'POST', '/__mock/clock', { body: { to: new Date(l.listing_start_date).toISOString() } });
    expect((await order(app, alice, [{ listing_id: l.listing_number, bid_amount: 25 }])).status).toBe(200);
  });
});
