/** The order desk's collaborators as fakes in memory: a marketplace, a clock that moves only when slept on, a lock. */
import { expect } from 'vitest';
import { ConnectionError, RejectedError } from '../../src/api/errors.js';
import type { Bid, BidRequest, PlacedOrder } from '../../src/api/orders.js';
import type { Clock } from '../../src/clock.js';
import { CliError, EXIT } from '../../src/errors.js';
import { OrderDesk } from '../../src/orders/desk.js';
import { type DeskBid, type DeskDeps, type OrdersApi } from '../../src/orders/desk-api.js';
import { MemoryJournal } from './memory-journal.js';
import type { LookedUp } from '../../src/orders/market-holds.js';
import { marketplaceKey, type Marketplace } from '../../src/orders/marketplace.js';

/** An order of the fake marketplace: always with its id and bids. */
export type Order = PlacedOrder & { bid_requests: Bid[] };

export const BASE = 'http://127.0.0.1:4010/v1';
export const MARKET: Marketplace = { baseUrl: BASE, account: 'acct-1', key: marketplaceKey(BASE, 'acct-1') };
export const T0 = Date.parse('2026-06-01T12:00:00Z');

/** A clock that only moves when slept on (or moved by hand); `sleeps` lists every pause asked for. */
export function fakeClock(): Clock & { set(ms: number): void; sleeps: number[] } {
  let now = T0;
  const sleeps: number[] = [];
  return { now: () => now, sleep: async (ms) => void (sleeps.push(ms), (now += ms)), set: (ms) => void (now = ms), sleeps };
}

/**
 * What the next submit does: place and answer; place and lose the answer; refuse the connection
 * (nothing placed); reject; or `late`: the server read it and places it `late` ms after it was sent,
 * while the client hears nothing, and gives up `after` ms after sending (at once when absent).
 */
export type NextSubmit = 'ok' | 'lose' | 'lost-before' | RejectedError | { late: number; after?: number };

/** A marketplace in memory: orders placed, what the next submits do, and how a get answers. */
export class FakeMarket implements OrdersApi {
  readonly orders: Order[] = [];
  /** Orders a slow server has read and not placed yet: placed at `at` on the clock. */
  private readonly landing: Array<{ at: number; bids: BidRequest[] }> = [];
  readonly next: NextSubmit[] = [];
  cash = 1000;
  /** The status a get shows for every bid (bids start PENDING, without a result). */
  settle?: Partial<Bid>;
  /** Clock times at which the account's orders were listed. */
  readonly listedAt: number[] = [];
  /** How long getting an access token takes (the credentials' lock, a refresh): before each submit, unless prepared. */
  tokenMs = 0;
  private prepared = false;
  /** Clock times at which each submit's POST left. */
  readonly postedAt: number[] = [];

  constructor(private readonly clock: Clock) {}

  private place(bids: BidRequest[]): Order {
    const order: Order = {
      order_id: `o${this.orders.length + 1}`,
      order_date: '2026-06-01',
      order_status: 'IN_PROGRESS',
      bid_requests: bids.map((b): Bid => ({ ...b, bid_status: 'PENDING' })),
    };
    this.orders.push(order);
    return order;
  }

  /** Places what a slow server has read by now. */
  private land(): void {
    for (const l of this.landing.filter((x) => x.at <= this.clock.now())) {
      this.landing.splice(this.landing.indexOf(l), 1);
      this.place(l.bids);
    }
  }

  /** Gets the token the next submit sends, as ApiClient.prepare does. */
  async prepare(): Promise<void> {
    if (this.tokenMs > 0) await this.clock.sleep(this.tokenMs);
    this.prepared = true;
  }

  async submit(bids: BidRequest[]): Promise<Order> {
    // As ApiClient.call: a token first, unless one was got ahead.
    if (!this.prepared) await this.prepare();
    this.prepared = false;
    this.land();
    this.postedAt.push(this.clock.now());
    const how = this.next.shift() ?? 'ok';
    if (how instanceof RejectedError) throw how;
    if (how === 'lost-before') throw new ConnectionError('connect ECONNREFUSED 127.0.0.1:4010');
    if (typeof how === 'object') {
      this.landing.push({ at: this.clock.now() + how.late, bids });
      if (how.after) await this.clock.sleep(how.after);
      throw new ConnectionError('Headers Timeout Error');
    }
    const order = this.place(bids);
    if (how === 'lose') throw new ConnectionError('socket hang up');
    return structuredClone(order);
  }

  async get(orderId: string): Promise<Order> {
    this.land();
    const o = this.orders.find((x) => x.order_id === orderId);
    if (!o) throw new RejectedError(`order ${orderId} failed (HTTP 404)`, EXIT.REJECTED, 404, undefined, null);
    return { ...o, bid_requests: o.bid_requests.map((b) => ({ ...b, ...this.settle })) };
  }

  async *list(): AsyncIterable<Order> {
    this.land();
    this.listedAt.push(this.clock.now());
    for (const o of this.orders) yield { ...structuredClone(o), bid_requests: o.bid_requests.map((b) => ({ ...b, ...this.settle })) };
  }

  /** Money of the account in listings, as the listings search shows it (amount_participation). */
  readonly participation = new Map<number, number>();
  /** Listings that cannot take a bid now, each with why, as the look-up reports them. */
  readonly unbiddable = new Map<number, string>();
  /** The numbers of each look-up, in order. */
  readonly investedAsked: number[][] = [];
  async lookUp(ids: readonly number[]): Promise<LookedUp> {
    this.investedAsked.push([...ids]);
    return {
      invested: new Map([...this.participation].filter(([id]) => ids.includes(id))),
      notBiddable: new Map([...this.unbiddable].filter(([id]) => ids.includes(id))),
    };
  }

  async availableCash(): Promise<number> {
    return this.cash;
  }
}

/**
 * A desk over fakes; `lock` records that it was held and may refuse; `deps` replaces any collaborator;
 * `on` shares the clock and marketplace of another setup (another run, another address).
 */
export function setup(
  opts: { busy?: boolean; deps?: Partial<DeskDeps>; on?: { clock: ReturnType<typeof fakeClock>; api: FakeMarket } } = {},
) {
  const clock = opts.on?.clock ?? fakeClock();
  const api = opts.on?.api ?? new FakeMarket(clock);
  const journal = new MemoryJournal();
  const lines: string[] = [];
  const lock = { held: false, taken: 0 };
  const desk = new OrderDesk({
    api,
    journal,
    clock,
    market: MARKET,
    info: (l) => lines.push(l),
    lock: async (fn) => {
      if (opts.busy) throw new CliError('another mkt order submit is running', EXIT.USAGE);
      lock.taken++;
      lock.held = true;
      try {
        return await fn();
      } finally {
        lock.held = false;
      }
    },
    ...opts.deps,
  });
  return { api, journal, clock, lines, lock, desk };
}

export const bidsOn = (ids: number[], amount = 25): DeskBid[] =>
  ids.map((listing_id, i) => ({ listing_id, bid_amount: amount, line: i + 2 }));
export const range = (n: number, from = 1000): number[] => Array.from({ length: n }, (_, i) => from + i);
export const failure = (p: Promise<unknown>): Promise<CliError> =>
  p.then(
    () => expect.fail('expected a failure'),
    (e: unknown) => {
      expect(e).toBeInstanceOf(CliError);
      return e as CliError;
    },
  );
