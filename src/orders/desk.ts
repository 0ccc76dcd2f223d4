/**
 * The order desk: the one way bids become orders. Under the account's lock it settles every order
 * whose answer was lost, refuses listings the journal holds, asks for confirmation, journals each
 * order before it is sent and its result after, splits into orders of at most 100, and follows them
 * if asked; it returns the bids' rows and a verdict from the exit-code table. Its collaborators
 * (marketplace calls, journal, lock, clock) are passed in, so `order submit` and a planner such as
 * `invest run` hand it bids and nothing else.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, ConnectionError, nothingSent } from '../api/errors.js';
import type { Bid, BidRequest, Order, PlacedOrder } from '../api/orders.js';
import { bidsOf } from '../contract/decode.js';
import { isoNow, type Clock } from '../clock.js';
import { MAX_BIDS_PER_ORDER } from '../contract/enums.js';
import { CliError, EXIT, InterruptedError, UsageError } from '../errors.js';
import { chunk } from './bids-file.js';
import type { JournalBase, JournalEntry, ListingHold } from './journal.js';
import type { Marketplace } from './marketplace.js';
import { rejectionHint } from './rejections.js';
import { bidRows, followOrders, type BidRow, type FollowPlan, type Progress } from './wait.js';

/** The marketplace calls the desk makes. */
export interface OrdersApi {
  /** Places one order of at most 100 bids (a POST: never retried). */
  submit(bids: BidRequest[]): Promise<PlacedOrder>;
  get(orderId: string): Promise<Order>;
  /** Every order of the account, for reconciling lost answers. */
  list(): AsyncIterable<Order>;
  /** The account's available cash, for the insufficient-funds message. */
  availableCash(): Promise<number>;
}

/** Runs `fn` holding the account's submit lock (or throws the error that says who holds it). */
export type SubmitLock = <T>(fn: () => Promise<T>) => Promise<T>;

/** The desk's collaborators. */
export interface DeskDeps {
  api: OrdersApi;
  journal: JournalBase;
  lock: SubmitLock;
  clock: Clock;
  /** The account the credentials act for: the journal's key. */
  market: Marketplace;
  /** Messages for the person (stderr). */
  info(line: string): void;
  /** Resolves when the person asks to stop (Ctrl-C); stops listening once `until` aborts. Following ends with exit 130. */
  stopSignal?(until: AbortSignal): Promise<string>;
}

/** A bid to place; `line` is where it came from in `PlaceOptions.source`, for messages. */
export interface DeskBid extends BidRequest {
  line?: number;
}

/** How to place. */
export interface PlaceOptions {
  /** Asked once every check has passed and before anything is sent; false sends nothing. */
  confirm?: () => Promise<boolean>;
  /** Bid even on listings the journal holds. */
  allowDuplicate?: boolean;
  /** Follow the orders until every bid has a result; progress goes to `progress`, else to `info`. */
  wait?: FollowPlan & { progress?: Progress };
  /** Where the bids came from (a file name), named in refusals as `SOURCE line N`. */
  source?: string;
}

/** How a placement ended. Failures are thrown instead, as a CliError with their exit code. */
export type Verdict = 'placed' | 'cancelled' | 'incomplete';

/** The exit code of each verdict, from the one table. */
export const VERDICT_EXIT = { placed: EXIT.OK, cancelled: EXIT.USAGE, incomplete: EXIT.INCOMPLETE } as const satisfies Record<Verdict, number>;

/** What a placement did. */
export interface Placement {
  verdict: Verdict;
  exitCode: (typeof VERDICT_EXIT)[Verdict];
  /** Each bid of each order placed, as last seen. */
  rows: BidRow[];
  orderIds: string[];
}

const plural = (n: number): string => (n > 1 ? 's' : '');

const sameBids = (a: BidRequest[], b: Bid[]): boolean =>
  a.length === b.length && a.every((x) => b.some((y) => Number(y.listing_id) === x.listing_id && Number(y.bid_amount) === x.bid_amount));

/** The order desk of one marketplace account. */
export class OrderDesk {
  /** True while session() holds the lock: place() inside it must not take the (not re-entrant) lock again. */
  private inSession = false;

  constructor(private readonly deps: DeskDeps) {}

  /**
   * Runs `fn` holding the account's lock, after settling lost answers, so that a planner reads the
   * marketplace, plans and places (through place()) with no other run in between: two runs started
   * together cannot both plan from the same state and bid twice.
   */
  async session<T>(fn: () => Promise<T>): Promise<T> {
    return this.deps.lock(async () => {
      this.inSession = true;
      try {
        await this.reconcile();
        return await fn();
      } finally {
        this.inSession = false;
      }
    });
  }

  /** Places `bids` with every safety; see the module comment for the order of the steps. */
  async place(bids: readonly DeskBid[], opts: PlaceOptions = {}): Promise<Placement> {
    const locked = <T>(fn: () => Promise<T>): Promise<T> => (this.inSession ? fn() : this.deps.lock(fn));
    return locked(async (): Promise<Placement> => {
      await this.reconcile();
      if (!opts.allowDuplicate) await this.refuseHeld(bids, opts.source);
      if (opts.confirm && !(await opts.confirm())) {
        this.deps.info('cancelled: nothing was sent');
        return this.verdict('cancelled', [], []);
      }
      const sent = await this.send(bids);
      if (!opts.wait) return this.verdict('placed', sent.flatMap(bidRows), sent);
      const { rows, incomplete } = await this.follow(sent.map((o) => o.order_id), opts.wait, opts.wait.progress);
      return this.verdict(incomplete ? 'incomplete' : 'placed', rows, sent);
    });
  }

  /** Listings the journal holds (outcome unknown, PENDING or INVESTED), for a planner to leave out. */
  holds(): Map<number, ListingHold> {
    return this.deps.journal.holds(this.deps.market);
  }

  /** Every entry of this account's journal, oldest first. */
  journalEntries(): JournalEntry[] {
    return this.deps.journal.entries();
  }

  /**
   * Follows orders until `plan` is met, recording each outcome in the journal. Ctrl-C stops it: the
   * orders stay placed at the marketplace, and the InterruptedError (exit 130) names them and how to
   * resume. Every command that waits through the desk (`order submit`, `invest run`) gets this here.
   */
  async follow(orderIds: readonly string[], plan: FollowPlan, progress?: Progress): Promise<{ rows: BidRow[]; incomplete: boolean }> {
    const { api, clock, info } = this.deps;
    const done = new AbortController();
    const stop = new AbortController();
    let signal = '';
    void this.deps.stopSignal?.(done.signal).then((name) => {
      signal = name;
      stop.abort();
    });
    try {
      const followed = await followOrders(orderIds, plan, {
        get: (id) => api.get(id), clock, info, record: (order) => this.record(order), stop: stop.signal,
        progress: progress ?? { change: info, settled: () => undefined },
      });
      if (!stop.signal.aborted) return followed;
      const ids = orderIds.join(', ');
      throw new InterruptedError(
        `interrupted (${signal}) while waiting: order${plural(orderIds.length)} ${ids} ${orderIds.length > 1 ? 'are' : 'is'} placed and go${orderIds.length > 1 ? '' : 'es'} on at the marketplace`,
        `resume following with ${orderIds.map((id) => `\`mkt order get ${id} --wait\``).join(', ')}`,
      );
    } finally {
      done.abort();
    }
  }

  private verdict(verdict: Verdict, rows: BidRow[], sent: PlacedOrder[]): Placement {
    return { verdict, exitCode: VERDICT_EXIT[verdict], rows, orderIds: sent.map((o) => o.order_id) };
  }

  private journal(entry: JournalEntry): void {
    this.deps.journal.append(entry);
  }

  /** Records the bid statuses an order shows, so that the journal's holds follow the marketplace. */
  private record(order: Order): void {
    // An answer without the order's id cannot be tied to a batch: the holds stay as they were.
    if (typeof order.order_id !== 'string') return;
    this.journal({
      t: 'outcome', at: isoNow(this.deps.clock), order_id: order.order_id,
      // A bid without a status is recorded as '' and held like a PENDING one.
      bids: bidsOf(order).map((b) => ({ listing_id: Number(b.listing_id), bid_status: b.bid_status ?? '', ...(b.bid_result ? { bid_result: b.bid_result } : {}) })),
    });
  }

  /**
   * Settles every batch whose answer was never seen: finds the order it created among the account's
   * orders (same bids, not claimed by another batch), or records that nothing was placed.
   */
  private async reconcile(): Promise<void> {
    const { api, market, info, clock } = this.deps;
    const batches = this.deps.journal.batches(market);
    const unknown = batches.filter((b) => b.status === 'unknown');
    if (unknown.length === 0) return;
    info(`reconciling ${unknown.length} order${plural(unknown.length)} whose answer was lost…`);
    const claimed = new Set(batches.flatMap((b) => (b.orderId ? [b.orderId] : [])));
    const all: Order[] = [];
    for await (const o of api.list()) all.push(o);
    const readable = all.filter((o): o is PlacedOrder => typeof o.order_id === 'string' && Array.isArray(o.bid_requests));
    // An order the list shows without its id or bids might be the batch's: nothing can say it was never placed.
    const unreadable = all.length - readable.length;
    for (const b of unknown) {
      const match = readable.find((o) => !claimed.has(o.order_id) && sameBids(b.bids, bidsOf(o)));
      if (!match && unreadable > 0) {
        info(`  batch ${b.batch}: ${unreadable} order${plural(unreadable)} in the list show no id or bids, so it cannot be told whether it was placed; its listings stay held`);
        continue;
      }
      this.journal({ t: 'reconciled', batch: b.batch, at: isoNow(clock), order_id: match?.order_id ?? null });
      if (match) {
        claimed.add(match.order_id);
        info(`  order ${match.order_id} was placed (the answer had been lost); it will not be sent again`);
      } else {
        info(`  batch ${b.batch} never reached the marketplace; its bids are free to send`);
      }
    }
  }

  /**
   * Refuses bids on listings the journal holds. A PENDING hold is first checked against the
   * marketplace, since the bid may have expired since.
   */
  private async refuseHeld(bids: readonly DeskBid[], source: string | undefined): Promise<void> {
    let holds = this.holds();
    const pending = new Set(bids.flatMap((b) => {
      const h = holds.get(b.listing_id);
      return h?.state === 'PENDING' && h.orderId ? [h.orderId] : [];
    }));
    for (const id of pending) this.record(await this.deps.api.get(id));
    if (pending.size > 0) holds = this.holds();
    const refused = bids.flatMap((b) => {
      const h = holds.get(b.listing_id);
      if (!h) return [];
      const why = h.state === 'unknown' ? 'an earlier order with it has no known outcome' : `already ${h.state} in order ${h.orderId}`;
      const where = source !== undefined && b.line !== undefined ? `${source} line ${b.line}: ` : '';
      return [`${where}listing ${b.listing_id}: ${why}`];
    });
    if (refused.length === 0) return;
    throw new UsageError(
      `refusing ${refused.length} bid${plural(refused.length)} that could place money twice; nothing was sent:\n  ${refused.join('\n  ')}`,
      'use --allow-duplicate if you really mean to bid again on these listings',
    );
  }

  /** Sends the bids as orders of at most 100, journalling each before and after. Stops at the first failure. */
  private async send(bids: readonly DeskBid[]): Promise<PlacedOrder[]> {
    const { api, market, info, clock } = this.deps;
    const sent: PlacedOrder[] = [];
    const groups = chunk(bids.map(({ listing_id, bid_amount }) => ({ listing_id, bid_amount })), MAX_BIDS_PER_ORDER);
    for (const [i, group] of groups.entries()) {
      const batch = randomUUID();
      const which = `order ${i + 1}/${groups.length}`;
      this.journal({ t: 'intent', batch, at: isoNow(clock), base_url: market.baseUrl, market: market.key, bids: group });
      try {
        const order = await api.submit(group);
        this.journal({ t: 'accepted', batch, at: isoNow(clock), order_id: order.order_id });
        this.record(order);
        sent.push(order);
        info(`${which} accepted: ${order.order_id} (${group.length} bids)`);
      } catch (err) {
        const placed = sent.length ? ` Orders already placed: ${sent.map((o) => o.order_id).join(', ')}.` : '';
        if (err instanceof ApiError && err.status < 500) {
          this.journal({ t: 'rejected', batch, at: isoNow(clock), status: err.status, code: err.code, message: err.message });
          const detail = err.code === 'ORD0021' ? await this.fundsDetail(group) : '';
          throw new CliError(`${which} rejected: ${err.message}${detail}.${placed}`, err.exitCode, err.hint ?? rejectionHint(err.code));
        }
        const reason = err instanceof Error ? err.message : String(err);
        if (nothingSent(err)) {
          // Refused before it was acted on (a token refused) or never sent (connection refused): the
          // journal frees its bids, and the message says so rather than "may or may not".
          this.journal({ t: 'unsent', batch, at: isoNow(clock), error: reason });
          const what = err instanceof ConnectionError ? 'nothing was sent' : 'nothing was placed';
          throw new CliError(`${which} not placed: ${reason}; ${what}.${placed}`, err.exitCode, err.hint);
        }
        this.journal({ t: 'lost', batch, at: isoNow(clock), error: reason });
        throw new CliError(
          `${which}: no answer from the marketplace (${reason}); it may or may not have been placed.${placed}`,
          err instanceof ConnectionError || err instanceof ApiError ? EXIT.UNREACHABLE : EXIT.BUG,
          'run the same command again: it first checks the marketplace for this order and never sends it twice',
        );
      }
    }
    return sent;
  }

  /** For ORD0021: what is available against what the order needed. */
  private async fundsDetail(group: BidRequest[]): Promise<string> {
    const total = group.reduce((sum, b) => sum + b.bid_amount, 0);
    try {
      const cash = await this.deps.api.availableCash();
      return ` (insufficient funds: available ${cash.toFixed(2)}, order total ${total.toFixed(2)})`;
    } catch {
      return ` (order total ${total.toFixed(2)})`;
    }
  }
}
