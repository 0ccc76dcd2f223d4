import { describe, expect, it } from 'vitest';
import type { Bid, BidRequest, PlacedOrder } from '../src/api/orders.js';

/** An order of the fake marketplace: always with its id and bids. */
type Order = PlacedOrder & { bid_requests: Bid[] };
import { CliError, EXIT } from '../src/errors.js';
import { investRun, type ListingPage, type MarketReads, type RunDesk, type SeenOrder } from '../src/invest/run.js';
import type { Strategy } from '../src/invest/strategy.js';
import { NOT_ACTIVE, whyNotBiddable } from '../src/orders/biddable.js';
import { OrderDesk } from '../src/orders/desk.js';
import { type OrdersApi } from '../src/orders/desk-api.js';
import { MemoryJournal } from './helpers/memory-journal.js';
import { marketplaceKey } from '../src/orders/marketplace.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const BASE = 'http://127.0.0.1:4010/v1';

const listing = (n: number, rating = 'A', extra: Record<string, unknown> = {}) => ({
  listing_number: n,
  platform_rating: rating,
  listing_amount: 10_000,
  amount_remaining: 5_000,
  partial_funding_indicator: false,
  listing_creation_date: '2026-05-20 10:00:00 +0000',
  investment_typeid: 1,
  invested: false,
  ...extra,
});

/** A marketplace in memory: its listings, its orders, and every listings query it was asked. */
function fakeMarket(listings: Record<string, unknown>[], cash = 1_000) {
  const orders: Order[] = [];
  const queries: URLSearchParams[] = [];
  const reads: MarketReads = {
    account: async () => ({ available_cash_balance: cash, external_user_id: 'acct-1' }),
    listingsPage: async (q): Promise<ListingPage> => {
      queries.push(q);
      const ids = q.get('listing_number')?.split(',').map(Number);
      // Bids stay unprocessed here, so a listing bid on is still `invested: false`, as before processing.
      const all = ids ? listings.filter((l) => ids.includes(l.listing_number as number)) : listings;
      const offset = Number(q.get('offset') ?? 0);
      const page = all.slice(offset, offset + Number(q.get('limit') ?? 25));
      return { result: page, result_count: page.length, total_count: all.length };
    },
    async *orders(): AsyncIterable<SeenOrder> {
      yield* orders.map((o) => structuredClone(o));
    },
  };
  const api: OrdersApi = {
    async submit(bids: BidRequest[]) {
      const o: Order = {
        order_id: `o${orders.length + 1}`,
        order_date: '2026-06-01 11:00:00 +0000',
        order_status: 'IN_PROGRESS',
        bid_requests: bids.map((b) => ({ ...b, bid_status: 'PENDING' as const, bid_result: 'NONE' })),
      };
      orders.push(o);
      return structuredClone(o);
    },
    get: async (id) => structuredClone(orders.find((o) => o.order_id === id)!),
    async *list() {
      yield* orders.map((o) => structuredClone(o));
    },
    availableCash: async () => cash,
    // As market-holds.ts lookUp: money in the listings found, and which cannot take a bid (not found: not active).
    lookUp: async (ids) => {
      const found = listings.filter((l) => ids.includes(l.listing_number as number));
      const notBiddable = new Map<number, string>();
      for (const id of ids) {
        const l = found.find((x) => x.listing_number === id);
        const why = l ? whyNotBiddable(l, NOW) : NOT_ACTIVE;
        if (why !== null) notBiddable.set(id, why);
      }
      return {
        invested: new Map(found.filter((l) => l.invested === true).map((l) => [l.listing_number as number, 25])),
        notBiddable,
      };
    },
  };
  return { reads, api, orders, queries };
}

/** A real OrderDesk over the fake marketplace, a journal in memory and a lock that refuses a second holder. */
function deskOver(api: OrdersApi, journal = new MemoryJournal(), info: (line: string) => void = () => undefined) {
  const lock = { held: false, log: [] as string[] };
  const desk = new OrderDesk({
    api,
    journal,
    clock: { now: () => NOW, sleep: async () => undefined },
    market: { baseUrl: BASE, account: 'acct-1', key: marketplaceKey(BASE, 'acct-1') },
    info,
    lock: async (fn) => {
      if (lock.held) throw new CliError('another mkt invest run or order submit is running', EXIT.USAGE);
      lock.held = true;
      lock.log.push('take');
      try {
        return await fn();
      } finally {
        lock.held = false;
      }
    },
  });
  return { desk, journal, lock };
}

const strategy = (over: Partial<Strategy> = {}): Strategy => ({
  rules: [{ name: 'r', filters: { platform_rating: 'A,B' }, amount: 25 }],
  ...over,
});
const deps = (reads: MarketReads, desk: RunDesk) => ({ reads, desk, now: () => NOW, info: () => undefined });

describe('an invest run', () => {
  it('plans every candidate, places the bids through the desk in one locked session, and reports them', async () => {
    const m = fakeMarket([listing(1), listing(2, 'B'), listing(3)]);
    const { desk, lock } = deskOver(m.api);
    const out = await investRun(strategy({ max_per_run: 50 }), deps(m.reads, desk), { dryRun: false });
    expect(out.decisions.map((d) => [d.listing_id, d.action, d.reason])).toEqual([
      [1, 'bid', 'ok'],
      [2, 'bid', 'ok'],
      [3, 'skip', 'max_per_run'],
    ]);
    expect(m.orders.map((o) => o.bid_requests.map((b) => b.listing_id))).toEqual([[1, 2]]);
    expect(out).toMatchObject({ orders: ['o1'], total_bid: 50, dry_run: false, exitCode: EXIT.OK });
    expect(lock.log).toEqual(['take']);
    // The rule's query: its filters, biddable, not invested, started by now, one page of the maximum.
    const q = m.queries.find((x) => x.has('platform_rating'))!;
    expect(Object.fromEntries(q)).toEqual({
      platform_rating: 'A,B',
      biddable: 'true',
      invested: 'false',
      listing_start_date_max: '2026-06-01 12:00:00',
      offset: '0',
      limit: '500',
    });
  });

  it('leaves out listings that cannot take bids: those the search shows so, and one funded since the search', async () => {
    const gone = listing(4);
    const m = fakeMarket([
      listing(1),
      listing(2, 'A', { listing_start_date: '2026-06-01 12:50:00 +0000' }),
      listing(3, 'A', { investment_typeid: null }),
      gone,
      listing(5),
    ]);
    // Between the run's search and its order, listing 4 fills up: the desk's look-up sees it pending completion.
    const api: OrdersApi = {
      ...m.api,
      lookUp: (ids) => (Object.assign(gone, { listing_status: 8, listing_status_reason: 'Pending' }), m.api.lookUp(ids)),
    };
    const lines: string[] = [];
    const { desk } = deskOver(api, new MemoryJournal(), (l) => lines.push(l));
    const out = await investRun(strategy(), { ...deps(m.reads, desk), info: (l: string) => lines.push(l) }, { dryRun: false });
    expect(m.orders.map((o) => o.bid_requests.map((b) => b.listing_id))).toEqual([[1, 5]]);
    expect(out.exitCode).toBe(EXIT.OK);
    expect(lines).toEqual([
      "rule r: listing 2: it has not started: listing_start_date 2026-06-01 12:50:00 +0000 is after the marketplace's time 2026-06-01T12:00:00.000Z (ORD0020); not bid on",
      'rule r: listing 3: it has no investment type (ORD0037); not bid on',
      'leaving out 1 bid on listings that cannot take bids now:\n  listing 4: its status is Pending (8), not Active: it cannot take bids (ORD0019)',
      'order 1/1 accepted: o1 (2 bids)',
    ]);
  });

  it('on a dry run plans from the live market and sends nothing, without the lock', async () => {
    const m = fakeMarket([listing(1), listing(2)]);
    const { desk, lock, journal } = deskOver(m.api);
    const out = await investRun(strategy(), deps(m.reads, desk), { dryRun: true });
    expect(out).toMatchObject({ orders: [], total_bid: 50, dry_run: true, exitCode: EXIT.OK });
    expect(m.orders).toHaveLength(0);
    expect(journal.list).toHaveLength(0);
    expect(lock.log).toEqual([]);
  });

  it('run again, skips what it bid (pending in the orders), and places nothing', async () => {
    const m = fakeMarket([listing(1), listing(2)]);
    const { desk } = deskOver(m.api);
    await investRun(strategy(), deps(m.reads, desk), { dryRun: false });
    const again = await investRun(strategy(), deps(m.reads, desk), { dryRun: false });
    expect(again.decisions.map((d) => d.reason)).toEqual(['pending', 'pending']);
    expect(again.orders).toEqual([]);
    expect(m.orders).toHaveLength(1);
  });

  it('skips what the journal holds even when the marketplace does not show it, and what the listing says is held', async () => {
    const m = fakeMarket([listing(1), listing(2, 'A', { invested: true }), listing(3)]);
    const journal = new MemoryJournal();
    journal.append({
      t: 'intent',
      batch: 'b1',
      at: '2026-06-01T11:00:00.000Z',
      base_url: BASE,
      market: marketplaceKey(BASE, 'acct-1'),
      bids: [{ listing_id: 1, bid_amount: 25 }],
    });
    journal.append({ t: 'reconciled', batch: 'b1', at: '2026-06-01T11:00:01.000Z', order_id: 'elsewhere' });
    const { desk } = deskOver(m.api, journal);
    const out = await investRun(strategy(), deps(m.reads, desk), { dryRun: false });
    expect(out.decisions.map((d) => [d.listing_id, d.reason])).toEqual([
      [1, 'journal'],
      [2, 'held'],
      [3, 'ok'],
    ]);
    expect(m.orders.flatMap((o) => o.bid_requests.map((b) => b.listing_id))).toEqual([3]);
  });

  it("counts max_per_day from the marketplace's orders of today", async () => {
    const m = fakeMarket([listing(1), listing(2), listing(3), listing(4)]);
    const { desk } = deskOver(m.api);
    await investRun(strategy({ max_per_day: 75, max_per_run: 50 }), deps(m.reads, desk), { dryRun: false });
    const second = await investRun(strategy({ max_per_day: 75, max_per_run: 50 }), deps(m.reads, desk), { dryRun: false });
    expect(second.decisions.filter((d) => d.action === 'bid').map((d) => d.listing_id)).toEqual([3]);
    expect(second.decisions.find((d) => d.listing_id === 4)?.reason).toBe('max_per_day');
  });

  it('holds rating_share against the principal by rating: pending bids rated by their listings', async () => {
    const m = fakeMarket([listing(1, 'A'), listing(2, 'A'), listing(3, 'B'), listing(4, 'B')]);
    const { desk } = deskOver(m.api);
    const s = strategy({ rating_share: { A: 0.5 } });
    await investRun(strategy({ rules: [{ name: 'first', filters: {}, amount: 25, max_listings: 1 }] }), deps(m.reads, desk), {
      dryRun: false,
    });
    // A holds 25 of 25 pending; one more A (50 of 75) is above half, B brings it back.
    const out = await investRun(s, deps(m.reads, desk), { dryRun: true });
    expect(out.decisions.map((d) => [d.listing_id, d.reason])).toEqual([
      [1, 'pending'],
      [2, 'rating_share'],
      [3, 'ok'],
      [4, 'ok'],
    ]);
  });

  it('stops paging a rule once its caps can use no more bids', async () => {
    const many = Array.from({ length: 1_200 }, (_, i) => listing(i + 1));
    const m = fakeMarket(many);
    const { desk } = deskOver(m.api);
    await investRun(strategy({ rules: [{ name: 'r', filters: {}, amount: 25, max_listings: 3 }] }), deps(m.reads, desk), { dryRun: true });
    expect(m.queries.filter((q) => q.get('invested') === 'false').map((q) => q.get('offset'))).toEqual(['0']);
  });

  it('a second run while one holds the lock exits 2 and places nothing', async () => {
    const m = fakeMarket([listing(1)]);
    const { desk } = deskOver(m.api);
    let inner: Promise<unknown> | undefined;
    await desk.session(async () => {
      inner = investRun(strategy(), deps(m.reads, desk), { dryRun: false }).catch((e: unknown) => e);
      await inner;
    });
    expect(await inner).toMatchObject({ exitCode: EXIT.USAGE });
    expect(m.orders).toHaveLength(0);
  });

  it('a no at the prompt sends nothing (exit 2) and bids nothing', async () => {
    const m = fakeMarket([listing(1)]);
    const { desk } = deskOver(m.api);
    const out = await investRun(strategy(), deps(m.reads, desk), { dryRun: false, confirm: async () => false });
    expect(out).toMatchObject({ exitCode: EXIT.USAGE, orders: [], total_bid: 0 });
    expect(m.orders).toHaveLength(0);
  });
});
