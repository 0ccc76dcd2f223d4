/** POST /orders validation: every ORD code the mock produces, first error wins, a rejected order changes nothing. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { specialListing } from '../mock-server/seed/seed-extras.js';
import { serializeState } from '../mock-server/world/persistence.js';
import { ORDER_ERRORS } from '../src/contract/errors.js';
import { call, DAY, HOUR, makeApp, order, plainListings, START, tokenFor } from './engine-fixture.js';

function expectCode(res: { status: number; body: { code: string; message: string } }, code: string): void {
  expect(res.body.code).toBe(code);
  expect(res.status).toBe(ORDER_ERRORS[code]!.status);
  expect(typeof res.body.message).toBe('string');
}

describe('the order body and its entries', () => {
  const app = makeApp();
  const alice = tokenFor(app, 'alice-1');
  const [l1, l2] = plainListings(app);

  test.each([
    ['a body that is not JSON', '{"bid_requests": [', 'ORD0032'],
    ['a body that is an array', '[]', 'ORD0032'],
    ['bid_requests that is not an array', '{"bid_requests": 5}', 'ORD0032'],
    ['no bid_requests at all', '{}', 'ORD0032'],
    ['an empty bid_requests', '{"bid_requests": []}', 'ORD0008'],
    ['an entry that is not an object', '{"bid_requests": [5]}', 'ORD0033'],
    ['an entry without bid_amount', `{"bid_requests": [{"listing_id": ${l1!.listing_number}}]}`, 'ORD0033'],
    ['an entry without listing_id', '{"bid_requests": [{"bid_amount": 25}]}', 'ORD0033'],
    ['a listing_id that is text', '{"bid_requests": [{"listing_id": "abc", "bid_amount": 25}]}', 'ORD0009'],
    ['a negative listing_id', '{"bid_requests": [{"listing_id": -3, "bid_amount": 25}]}', 'ORD0009'],
    ['a fractional listing_id', '{"bid_requests": [{"listing_id": 1.5, "bid_amount": 25}]}', 'ORD0009'],
    ['an amount with three decimals', `{"bid_requests": [{"listing_id": ${l1!.listing_number}, "bid_amount": 25.123}]}`, 'ORD0005'],
    ['a zero amount', `{"bid_requests": [{"listing_id": ${l1!.listing_number}, "bid_amount": 0}]}`, 'ORD0005'],
    ['a negative amount', `{"bid_requests": [{"listing_id": ${l1!.listing_number}, "bid_amount": -25}]}`, 'ORD0005'],
    ['an amount below 25.00', `{"bid_requests": [{"listing_id": ${l1!.listing_number}, "bid_amount": 24.99}]}`, 'ORD0005'],
    ['an amount given as text', `{"bid_requests": [{"listing_id": ${l1!.listing_number}, "bid_amount": "25"}]}`, 'ORD0005'],
    [
      'an amount above the most a bid may carry',
      `{"bid_requests": [{"listing_id": ${l1!.listing_number}, "bid_amount": 50000.01}]}`,
      'ORD0014',
    ],
    [
      'a listing twice',
      `{"bid_requests": [{"listing_id": ${l1!.listing_number}, "bid_amount": 25}, {"listing_id": ${l1!.listing_number}, "bid_amount": 30}]}`,
      'ORD0030',
    ],
    ['a listing that does not exist', '{"bid_requests": [{"listing_id": 424242, "bid_amount": 25}]}', 'ORD0003'],
  ])('%s is %s', async (_name, body, code) => {
    expectCode(await call(app, 'POST', '/v1/orders', { token: alice, body }), code);
  });

  test('more than 100 bid requests is ORD0029', async () => {
    const bids = Array.from({ length: 101 }, (_, i) => ({ listing_id: 10_000_000 + i, bid_amount: 25 }));
    expectCode(await order(app, alice, bids), 'ORD0029');
  });

  test('the shape of every entry is checked before any listing: a bad amount in the second entry beats an unknown listing in the first', async () => {
    expectCode(
      await order(app, alice, [
        { listing_id: 424242, bid_amount: 25 },
        { listing_id: l2!.listing_number, bid_amount: 10 },
      ]),
      'ORD0005',
    );
  });

  test('a bid above the listing amount is ORD0015', async () => {
    expectCode(await order(app, alice, [{ listing_id: l1!.listing_number, bid_amount: l1!.listing_amount + 25 }]), 'ORD0015');
  });
});

describe('the investor', () => {
  const app = makeApp();
  const listing = plainListings(app)[0]!;
  test.each([
    ['erin is inactive', 'erin-1', 'ORD0038'],
    ['frank has unsigned agreements', 'frank-1', 'ORD0039'],
    ["carol's state does not allow investing", 'carol-1', 'ORD0040'],
    ['gina has loan delinquencies', 'gina-1', 'ORD0041'],
    ['hank has not verified his email (registered a day ago)', 'hank-1', 'ORD0042'],
    ['lena has a frozen ledger', 'lena-1', 'ORD0035'],
    ['bob has too little cash', 'bob-1', 'ORD0021'],
  ])('%s: %s gets %s', async (_name, account, code) => {
    const bids =
      account === 'bob-1'
        ? [
            { listing_id: listing.listing_number, bid_amount: 25 },
            { listing_id: plainListings(app)[1]!.listing_number, bid_amount: 25 },
          ]
        : [{ listing_id: listing.listing_number, bid_amount: 25 }];
    expectCode(await order(app, tokenFor(app, account), bids), code);
  });

  test('ivy, whose state limits her orders to 2,500.00, gets ORD0022 above it and is accepted below it', async () => {
    const [a, b] = plainListings(app);
    const ivy = tokenFor(app, 'ivy-1');
    expectCode(
      await order(app, ivy, [
        { listing_id: a!.listing_number, bid_amount: 1500 },
        { listing_id: b!.listing_number, bid_amount: 1500 },
      ]),
      'ORD0022',
    );
    expect((await order(app, ivy, [{ listing_id: a!.listing_number, bid_amount: 1500 }])).status).toBe(200);
  });

  test('kate, a whole-loan-only investor, gets ORD0036 on a fractional listing', async () => {
    expectCode(await order(app, tokenFor(app, 'kate-1'), [{ listing_id: listing.listing_number, bid_amount: 25 }]), 'ORD0036');
  });

  test('an unverified email more than 3 days after registration means the user cannot log in at all (401)', async () => {
    const late = makeApp();
    await call(late, 'POST', '/__mock/clock', { body: { advance: '3d' } });
    const res = await order(late, tokenFor(late, 'hank-1'), [{ listing_id: plainListings(late)[0]!.listing_number, bid_amount: 25 }]);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_token');
  });

  test('investor checks come before the entries: erin with an empty order still gets ORD0038', async () => {
    expectCode(await order(app, tokenFor(app, 'erin-1'), []), 'ORD0038');
  });
});

describe('the listing', () => {
  test.each([
    ['the listing dave borrows on', 'dave-1', 'own', 'ORD0011'],
    ['a listing only alice may invest in', 'bob-1', 'restricted', 'ORD0016'],
    ['a whole loan, for an investor not eligible for whole loans', 'bob-1', 'whole', 'ORD0012'],
    ['a listing whose investment type id is unset', 'alice-1', 'type_unset', 'ORD0037'],
    ['a listing that has not started', 'alice-1', 'not_started', 'ORD0020'],
    ['a completed (originated) listing', 'alice-1', 'completed', 'ORD0019'],
  ])('a bid on %s is refused (%s)', async (_name, account, kind, code) => {
    const app = makeApp();
    const s = app.ctx.world;
    const l =
      kind === 'own'
        ? s.listings.find((x) => x.borrowerUserId === 'dave')
        : kind === 'whole'
          ? s.listings.find((x) => x.investment_typeid === 2 && x.listing_status === 2)
          : kind === 'completed'
            ? s.listings.find((x) => x.listing_status === 6)
            : specialListing(s, kind as 'restricted');
    expect(l).toBeDefined();
    const amount = kind === 'whole' ? l!.listing_amount : 25;
    expectCode(await order(app, tokenFor(app, account), [{ listing_id: l!.listing_number, bid_amount: amount }]), code);
  });

  test('a bid on the restricted listing by alice, who may invest in it, is accepted', async () => {
    const app = makeApp();
    const l = specialListing(app.ctx.world, 'restricted')!;
    expect((await order(app, tokenFor(app, 'alice-1'), [{ listing_id: l.listing_number, bid_amount: 25 }])).status).toBe(200);
  });

  test('a whole-loan bid must be the whole loan (ORD0018) and a taken whole loan cannot be funded in part (ORD0017)', async () => {
    const app = makeApp();
    // Below stage 3 a funded whole loan stays Active, so the later bids meet ORD0017 rather than a Pending listing.
    const whole = app.ctx.world.listings.find((x) => x.investment_typeid === 2 && x.listing_status === 2 && x.verification_stage < 3)!;
    const a1 = tokenFor(app, 'alice-1');
    expectCode(await order(app, a1, [{ listing_id: whole.listing_number, bid_amount: whole.listing_amount - 25 }]), 'ORD0018');
    expect((await order(app, a1, [{ listing_id: whole.listing_number, bid_amount: whole.listing_amount }])).status).toBe(200);
    expectCode(
      await order(app, tokenFor(app, 'alice-2'), [{ listing_id: whole.listing_number, bid_amount: whole.listing_amount }]),
      'ORD0017',
    );
    await call(app, 'POST', '/__mock/process');
    expect(whole.amount_funded).toBe(whole.listing_amount);
    expectCode(
      await order(app, tokenFor(app, 'kate-1'), [{ listing_id: whole.listing_number, bid_amount: whole.listing_amount }]),
      'ORD0017',
    );
  });

  test('an expired listing is ORD0013 (Listing has ended)', async () => {
    const app = makeApp();
    await call(app, 'POST', '/__mock/clock', { body: { advance: '3d' } });
    const expired = app.ctx.world.listings.find((l) => l.listing_status === 5);
    expect(expired).toBeDefined();
    expectCode(await order(app, tokenFor(app, 'alice-1'), [{ listing_id: expired!.listing_number, bid_amount: 25 }]), 'ORD0013');
  });

  test('a listing past its end date is taken until the hourly tick that ends it, as search shows it; then ORD0013', async () => {
    const app = makeApp({ listings: 2000 });
    const alice = tokenFor(app, 'alice-1');
    // Half past an hour, a day or more in: an active listing whose end date passed in the last half hour, and that
    // the tick will end (not funded in full by then, nor partly funded enough to originate: that makes it Pending, ORD0019).
    const live = (now: number) =>
      app.ctx.world.listings.find(
        (x) =>
          x.listing_status === 2
          && x.investment_typeid === 1
          && x.listing_end_date <= now
          && Math.ceil(x.listing_end_date / HOUR) * HOUR > now
          && !x.partial_funding_indicator
          && x.listing_amount - x.amount_funded >= 500,
      );
    let now = START + 14 * DAY + HOUR / 2;
    await call(app, 'POST', '/__mock/clock', { body: { to: new Date(now).toISOString() } });
    while (!live(now) && now < START + 20 * DAY) {
      now += HOUR;
      await call(app, 'POST', '/__mock/clock', { body: { to: new Date(now).toISOString() } });
    }
    const l = live(now)!;
    expect(l, 'an active listing past its end date, before the tick that ends it').toBeDefined();
    const found = await call(app, 'GET', `/listingsvc/v2/listings/?listing_number=${l.listing_number}`, { token: alice });
    expect(found.body.result).toHaveLength(1);
    expect((await order(app, alice, [{ listing_id: l.listing_number, bid_amount: 25 }])).status).toBe(200);
    // The tick on the hour ends it: search no longer shows it as biddable, and a bid is ORD0013.
    await call(app, 'POST', '/__mock/clock', { body: { to: new Date(Math.ceil(l.listing_end_date / HOUR) * HOUR).toISOString() } });
    expect(
      (await call(app, 'GET', `/listingsvc/v2/listings/?listing_number=${l.listing_number}`, { token: alice })).body.result,
    ).toHaveLength(0);
    expectCode(await order(app, alice, [{ listing_id: l.listing_number, bid_amount: 25 }]), 'ORD0013');
  });

  test('an order total above 500,000.00 is ORD0034', async () => {
    const app = makeApp();
    const bids: { listing_id: number; bid_amount: number }[] = [];
    let total = 0;
    for (const l of plainListings(app, 0).sort((a, b) => b.listing_amount - a.listing_amount)) {
      if (total > 500_000) break;
      bids.push({ listing_id: l.listing_number, bid_amount: l.listing_amount });
      total += l.listing_amount;
    }
    expect(total).toBeGreaterThan(500_000);
    expectCode(await order(app, tokenFor(app, 'alice-1'), bids), 'ORD0034');
  });
});

describe('acceptance', () => {
  test('an accepted order answers every bid PENDING, the order IN_PROGRESS, and debits the whole total at once', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const [a, b] = plainListings(app);
    const before = (await call(app, 'GET', '/v1/accounts/platform', { token: alice })).body;
    const res = await order(app, alice, [
      { listing_id: a!.listing_number, bid_amount: 100 },
      { listing_id: b!.listing_number, bid_amount: 25.5 },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.order_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.order_status).toBe('IN_PROGRESS');
    expect(res.body.order_date).toBe('2026-03-02 12:00:00 +0000');
    expect(res.body.bid_requests).toEqual([
      { listing_id: a!.listing_number, bid_amount: 100, bid_status: 'PENDING' },
      { listing_id: b!.listing_number, bid_amount: 25.5, bid_status: 'PENDING' },
    ]);
    const after = (await call(app, 'GET', '/v1/accounts/platform', { token: alice })).body;
    expect(after.available_cash_balance).toBeCloseTo(before.available_cash_balance - 125.5, 2);
    expect(after.pending_investments_primary_market).toBeCloseTo(before.pending_investments_primary_market + 125.5, 2);
    expect(after.total_account_value).toBeCloseTo(before.total_account_value, 2);
  });

  test('a read-only grant cannot submit an order (403 insufficient_scope)', async () => {
    const app = makeApp();
    const res = await order(app, tokenFor(app, 'alice-1', true), [{ listing_id: plainListings(app)[0]!.listing_number, bid_amount: 25 }]);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
  });

  test('a rejected order changes no state but the email telling the investor so', async () => {
    const app = makeApp();
    const snapshot = serializeState(app.ctx.world, app.ctx.clock.now());
    const l = plainListings(app)[0]!;
    for (const [account, bids] of [
      [
        'bob-1',
        [
          { listing_id: l.listing_number, bid_amount: 30 },
          { listing_id: plainListings(app)[1]!.listing_number, bid_amount: 30 },
        ],
      ],
      [
        'alice-1',
        [
          { listing_id: l.listing_number, bid_amount: 25 },
          { listing_id: 424242, bid_amount: 25 },
        ],
      ],
      ['lena-1', [{ listing_id: l.listing_number, bid_amount: 25 }]],
      ['erin-1', [{ listing_id: l.listing_number, bid_amount: 25 }]],
    ] as const) {
      const res = await order(app, tokenFor(app, account), [...bids]);
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
    // One email per rejection, to the investor who sent it (engine/notifications.ts).
    expect(app.ctx.world.outbox.messages.map((m) => [m.to, m.kind, m.order_id])).toEqual(
      ['bob', 'alice', 'lena', 'erin'].map((u) => [`${u}@investors.example`, 'order_validation_error', null]),
    );
    // Tokens were added by the test itself, the emails were just checked; everything else must be byte for byte the same.
    app.ctx.world.tokens.clear();
    app.ctx.world.outbox = { next: 1, messages: [] };
    expect(serializeState(app.ctx.world, app.ctx.clock.now())).toBe(snapshot);
  });

  test('no client body ever gets a 500: random JSON bodies get 200 or an ORD error', async () => {
    const app = makeApp({ listings: 60 });
    const alice = tokenFor(app, 'alice-1');
    const numbers = app.ctx.world.listings.slice(-60).map((l) => l.listing_number);
    const entry = fc.oneof(
      fc.record(
        {
          listing_id: fc.oneof(fc.constantFrom(...numbers), fc.integer(), fc.string(), fc.double()),
          bid_amount: fc.oneof(fc.double(), fc.integer({ min: -10, max: 60000 }), fc.string(), fc.constant(null)),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    );
    const body = fc.oneof(fc.record({ bid_requests: fc.array(entry, { maxLength: 5 }) }), fc.jsonValue(), fc.string());
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await call(app, 'POST', '/v1/orders', { token: alice, body: typeof b === 'string' ? b : JSON.stringify(b) });
        expect(res.status).not.toBe(500);
        if (res.status !== 200) expect(ORDER_ERRORS[res.body.code]).toBeDefined();
      }),
      { numRuns: 300, seed: 42 },
    );
  });
});
