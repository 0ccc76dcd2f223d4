import { describe, expect, it } from 'vitest';
import { RejectedError } from '../src/api/errors.js';
import { EXIT } from '../src/errors.js';
import { OrderDesk } from '../src/orders/desk.js';
import type { FakeMarket } from './helpers/desk-fakes.js';
import { BASE, bidsOn, failure, MARKET, range, setup, T0 } from './helpers/desk-fakes.js';

describe('the order desk places bids', () => {
  it('in orders of at most 100, under the lock, each journalled before it is sent and after, on its clock', async () => {
    const { api, journal, desk, lines, lock } = setup();
    const placed = await desk.place(bidsOn(range(250)));
    expect(api.orders.map((o) => o.bid_requests.length)).toEqual([100, 100, 50]);
    expect(placed).toMatchObject({ verdict: 'placed', exitCode: EXIT.OK, orderIds: ['o1', 'o2', 'o3'] });
    expect(placed.rows).toHaveLength(250);
    expect(placed.rows[0]).toEqual({ order_id: 'o1', listing_id: 1000, bid_amount: 25, bid_status: 'PENDING' });
    expect(journal.list.map((e) => e.t)).toEqual([
      'intent',
      'accepted',
      'outcome',
      'intent',
      'accepted',
      'outcome',
      'intent',
      'accepted',
      'outcome',
    ]);
    expect(new Set(journal.list.map((e) => e.at))).toEqual(new Set(['2026-06-01T12:00:00.000Z']));
    expect(journal.list[0]).toMatchObject({ base_url: BASE, market: MARKET.key });
    expect(lines.at(-1)).toBe('order 3/3 accepted: o3 (50 bids)');
    expect(lock).toEqual({ held: false, taken: 1 });
  });

  it('asks for confirmation inside the lock, after the checks; a no sends nothing (exit 2)', async () => {
    const { api, desk, lines, lock } = setup();
    let heldWhenAsked = false;
    const placed = await desk.place(bidsOn([1]), { confirm: async () => ((heldWhenAsked = lock.held), false) });
    expect(heldWhenAsked).toBe(true);
    expect(placed).toEqual({ verdict: 'cancelled', exitCode: EXIT.USAGE, rows: [], orderIds: [] });
    expect(lines).toContain('cancelled: nothing was sent');
    expect(api.orders).toHaveLength(0);
  });

  it('sends nothing and writes nothing when the lock is held by another run', async () => {
    const { api, journal, desk } = setup({ busy: true });
    const err = await failure(desk.place(bidsOn([1])));
    expect(err.exitCode).toBe(EXIT.USAGE);
    expect(api.orders).toHaveLength(0);
    expect(journal.list).toHaveLength(0);
  });
});

describe('the order desk never bids twice', () => {
  it('refuses listings held PENDING, naming the source line; nothing is sent (exit 2)', async () => {
    const { api, journal, desk } = setup();
    await desk.place(bidsOn([1, 2]));
    const written = journal.list.length;
    const err = await failure(desk.place(bidsOn([3, 2, 4]), { source: 'bids.csv' }));
    expect(err.exitCode).toBe(EXIT.USAGE);
    expect(err.message).toBe(
      'refusing 1 bid that could place money twice; nothing was sent:\n  bids.csv line 3: listing 2: already PENDING in order o1',
    );
    expect(err.hint).toMatch(/--allow-duplicate/);
    expect(api.orders).toHaveLength(1);
    // The PENDING hold was checked against the marketplace (and recorded), nothing else written.
    expect(journal.list.slice(written).map((e) => e.t)).toEqual(['outcome']);
  });

  it('refuses bids that name no source by listing alone, and places them again with allowDuplicate', async () => {
    const { api, desk } = setup();
    await desk.place([{ listing_id: 1, bid_amount: 25 }]);
    const err = await failure(desk.place([{ listing_id: 1, bid_amount: 30 }]));
    expect(err.message).toMatch(/\n {2}listing 1: already PENDING in order o1$/);
    await desk.place([{ listing_id: 1, bid_amount: 30 }], { allowDuplicate: true });
    expect(api.orders).toHaveLength(2);
  });

  it('frees a PENDING hold the marketplace has since EXPIRED, and records it', async () => {
    const { api, journal, desk } = setup();
    await desk.place(bidsOn([1]));
    api.settle = { bid_status: 'EXPIRED', bid_result: 'LISTING_NOT_BIDDABLE' };
    await desk.place(bidsOn([1]));
    expect(api.orders).toHaveLength(2);
    expect(journal.list.filter((e) => e.t === 'outcome').map((e) => e.t === 'outcome' && e.bids[0]!.bid_status)).toContain('EXPIRED');
  });

  it('finds an order whose answer was lost instead of sending it again', async () => {
    const { api, journal, desk, lines } = setup();
    api.next.push('lose');
    const lost = await failure(desk.place(bidsOn([1, 2])));
    expect(lost.exitCode).toBe(EXIT.UNREACHABLE);
    expect(lost.message).toMatch(
      /^order 1\/1: no answer from the marketplace \(socket hang up\); it may or may not have been placed: batch \S+ is in doubt until 2026-06-01T12:02:00Z\.$/,
    );
    expect(journal.list.map((e) => e.t)).toEqual(['intent', 'lost']);
    const again = await failure(desk.place(bidsOn([1, 2])));
    expect(lines).toContain('  order o1 was placed (the answer had been lost); it will not be sent again');
    expect(again.message).toContain('already PENDING in order o1');
    expect(journal.list.find((e) => e.t === 'reconciled')).toMatchObject({ order_id: 'o1' });
    expect(api.orders).toHaveLength(1);
  });

  it("keeps a lost order's listings held when the order list shows an order without its id", async () => {
    const { api, journal, clock, lines, desk } = setup();
    api.next.push('lose');
    await failure(desk.place(bidsOn([1, 2])));
    // The same account's orders, read back without their ids: the lost batch may be any of them.
    const idless = new OrderDesk({
      api: {
        submit: (bids) => api.submit(bids),
        get: (id) => api.get(id),
        availableCash: () => api.availableCash(),
        lookUp: (ids) => api.lookUp(ids),
        list: async function* () {
          for (const { order_id: _id, ...rest } of api.orders) yield rest;
        },
      },
      journal,
      clock,
      market: MARKET,
      info: (l) => lines.push(l),
      lock: (fn) => fn(),
    });
    const again = await failure(idless.place(bidsOn([1, 2])));
    expect(again.message).toMatch(/^refusing 2 bids that could place money twice/);
    expect(
      lines.some((l) =>
        /1 order in the list show no id or bids, so it cannot be told whether it was placed; its listings stay held/.test(l),
      ),
    ).toBe(true);
    expect(journal.list.some((e) => e.t === 'reconciled')).toBe(false);
    expect(api.orders).toHaveLength(1);
  });

  it('frees the bids of a lost order that never reached the marketplace', async () => {
    const { api, journal, desk, lines } = setup();
    api.next.push('lost-before');
    await failure(desk.place(bidsOn([1])));
    const placed = await desk.place(bidsOn([1]));
    expect(
      lines.some((l) =>
        /batch \S+ never reached the marketplace: no order for it 120 s after it was sent \(the settle window\); its bids are free to send/.test(
          l,
        ),
      ),
    ).toBe(true);
    expect(journal.list.find((e) => e.t === 'reconciled')).toMatchObject({ order_id: null });
    expect(placed.orderIds).toEqual(['o1']);
  });

  it('tells a planner which listings it holds, and shows the journal', async () => {
    const { api, desk } = setup();
    api.next.push('ok', 'lose');
    await desk.place(bidsOn([1]));
    await failure(desk.place(bidsOn([2])));
    expect([...desk.holds().values()].map((h) => [h.listingId, h.state])).toEqual([
      [1, 'PENDING'],
      [2, 'unknown'],
    ]);
    expect(desk.journalEntries().map((e) => e.t)).toEqual(['intent', 'accepted', 'outcome', 'intent', 'lost']);
  });
});

describe('the order desk asks the marketplace before placing', () => {
  /** An order placed behind the journal's back (another machine, a journal deleted since). */
  const placedElsewhere = async (api: FakeMarket, ids: number[]) => api.submit(ids.map((listing_id) => ({ listing_id, bid_amount: 25 })));

  it("refuses a listing the account's orders show PENDING, though the journal is empty (exit 2)", async () => {
    const { api, desk, journal } = setup();
    await placedElsewhere(api, [2]);
    const err = await failure(desk.place(bidsOn([1, 2]), { source: 'bids.csv' }));
    expect(err.exitCode).toBe(EXIT.USAGE);
    expect(err.message).toBe(
      'refusing 1 bid that could place money twice; nothing was sent:\n  bids.csv line 3: listing 2: the marketplace shows a PENDING bid in order o1',
    );
    expect(err.hint).toMatch(/--skip-held/);
    expect(api.orders).toHaveLength(1);
    expect(journal.list).toHaveLength(0);
  });

  it('refuses a listing the account already has money in (amount_participation), asking once for every listing of the file', async () => {
    const { api, desk } = setup();
    api.participation.set(3, 50);
    const err = await failure(desk.place(bidsOn([1, 3])));
    expect(err.message).toMatch(/\n {2}listing 3: the marketplace shows 50\.00 of yours already in it$/);
    expect(api.investedAsked).toEqual([[1, 3]]);
  });

  it('with skipHeld leaves out the held listings, confirms and places the rest', async () => {
    const { api, desk, lines } = setup();
    await placedElsewhere(api, [2]);
    api.participation.set(3, 25);
    let asked: number[] = [];
    const placed = await desk.place(bidsOn([1, 2, 3, 4]), {
      skipHeld: true,
      confirm: async (bids) => ((asked = bids.map((b) => b.listing_id)), true),
    });
    expect(asked).toEqual([1, 4]);
    expect(api.orders.at(-1)!.bid_requests.map((b) => b.listing_id)).toEqual([1, 4]);
    expect(placed.orderIds).toEqual(['o2']);
    expect(lines).toContain(
      'leaving out 2 bids on listings already held:\n  listing 2: the marketplace shows a PENDING bid in order o1\n  listing 3: the marketplace shows 25.00 of yours already in it',
    );
  });

  it('with skipHeld and every listing held sends nothing and ends placed', async () => {
    const { api, desk, lines } = setup();
    await placedElsewhere(api, [1]);
    const placed = await desk.place(bidsOn([1]), { skipHeld: true, confirm: async () => expect.fail('nothing to confirm') });
    expect(placed).toMatchObject({ verdict: 'placed', exitCode: EXIT.OK, orderIds: [] });
    expect(lines).toContain('every listing is already held: nothing was sent');
    expect(api.orders).toHaveLength(1);
  });

  it('frees a listing whose bid the marketplace EXPIRED, and with allowDuplicate asks only whether the listing takes bids', async () => {
    const { api, desk } = setup();
    await placedElsewhere(api, [1]);
    api.settle = { bid_status: 'EXPIRED' };
    await desk.place(bidsOn([1]));
    expect(api.orders).toHaveLength(2);
    api.settle = undefined;
    await desk.place(bidsOn([1]), { allowDuplicate: true });
    expect(api.orders).toHaveLength(3);
    // The second look-up is the biddability one: a listing held is placed again all the same.
    expect(api.investedAsked).toHaveLength(2);
  });

  it('records, after a repair, the orders with PENDING bids the journal no longer has', async () => {
    const { api, desk, journal, lines } = setup();
    await desk.place(bidsOn([1]));
    await placedElsewhere(api, [2, 3]);
    const written = journal.list.length;
    expect(await desk.session(() => desk.adoptOpenOrders())).toBe(1);
    expect(journal.list.slice(written).map((e) => e.t)).toEqual(['intent', 'reconciled', 'outcome']);
    expect([...desk.holds().keys()].sort()).toEqual([1, 2, 3]);
    expect(lines).toContain('  order o2 (2 bids, some PENDING) was not in the journal: recorded');
    expect(await desk.session(() => desk.adoptOpenOrders())).toBe(0);
  });

  it('refuses a listing id the marketplace cannot take before taking the lock or writing a line', async () => {
    const { desk, journal, lock } = setup();
    const err = await failure(desk.place([{ listing_id: 2 ** 53, bid_amount: 25 }]));
    expect(err.exitCode).toBe(EXIT.USAGE);
    expect(lock.taken).toBe(0);
    expect(journal.list).toHaveLength(0);
  });
});

describe('the order desk on a rejection', () => {
  it('stops at the rejected order (exit 4), names the orders already placed, and explains the funds', async () => {
    const { api, journal, desk } = setup();
    api.cash = 40;
    api.next.push(
      'ok',
      new RejectedError('order submit failed (HTTP 400): ORD0021: insufficient funds', EXIT.REJECTED, 400, 'ORD0021', null),
    );
    const err = await failure(desk.place(bidsOn(range(150))));
    expect(err.exitCode).toBe(EXIT.REJECTED);
    expect(err.message).toBe(
      'order 2/2 rejected: order submit failed (HTTP 400): ORD0021: insufficient funds (insufficient funds: available 40.00, order total 1,250.00). Orders already placed: o1.',
    );
    expect(err.hint).toMatch(/mkt account/);
    expect(journal.list.at(-1)).toMatchObject({ t: 'rejected', status: 400, code: 'ORD0021' });
    expect(desk.holds().size).toBe(100);
  });
});

describe('the order desk following its orders', () => {
  it('records each outcome and ends placed when every bid succeeded', async () => {
    const { api, journal, desk } = setup();
    api.settle = { bid_result: 'BID_SUCCEEDED', bid_status: 'INVESTED' };
    const placed = await desk.place(bidsOn([1, 2]), { wait: { until: 'processed', timeoutMs: 60_000 } });
    expect(placed).toMatchObject({ verdict: 'placed', exitCode: EXIT.OK });
    expect(placed.rows.map((r) => r.bid_result)).toEqual(['BID_SUCCEEDED', 'BID_SUCCEEDED']);
    expect(journal.list.at(-1)).toMatchObject({
      t: 'outcome',
      bids: [
        { listing_id: 1, bid_status: 'INVESTED' },
        { listing_id: 2, bid_status: 'INVESTED' },
      ],
    });
    expect(desk.holds().get(1)?.state).toBe('INVESTED');
  });

  it('ends incomplete (exit 6) when a bid was not placed', async () => {
    const { api, desk, lines } = setup();
    api.settle = { bid_result: 'LENDER_NOT_ELIGIBLE_TO_BID', bid_status: 'EXPIRED' };
    const placed = await desk.place(bidsOn([1]), { wait: { until: 'processed', timeoutMs: 60_000 } });
    expect(placed).toMatchObject({ verdict: 'incomplete', exitCode: EXIT.INCOMPLETE });
    expect(lines.at(-1)).toBe('some bids were not placed or not invested (exit 6)');
  });

  it('gives up at the timeout on its clock, without real waiting, and ends incomplete', async () => {
    const { desk, clock, lines } = setup();
    const changes: string[] = [];
    let settled = 0;
    const placed = await desk.place(bidsOn([1]), {
      wait: { until: 'completed', timeoutMs: 3000, progress: { change: (l) => changes.push(l), settled: () => settled++ } },
    });
    expect(placed.verdict).toBe('incomplete');
    expect(clock.now() - T0).toBe(3000);
    expect(changes).toEqual(['order o1 IN_PROGRESS: 1 NONE; 1 PENDING']);
    expect(settled).toBe(1);
    expect(lines).toContain('order o1: gave up after 3 s with 1 bid placed and still pending (not yet completed)');
    expect(lines).not.toContain('some bids were not placed or not invested (exit 6)');
  });
});
