/**
 * The order desk: the one way bids become orders. Under the account's lock it settles every order
 * whose answer was lost (reconcile.ts: one the marketplace does not show yet is in doubt, not sent
 * again until its settle window has passed), refuses (or leaves out) listings the journal, a batch in
 * doubt under another address of the account (other-addresses.ts) or the marketplace itself holds —
 * the account's orders and the listings' participation are read first, so a journal lost or
 * emptied cannot lead to a second bid — leaves out, with a line each, the listings of the whole file
 * that cannot take bids now (one would sink its whole order), asks for confirmation, journals each order before it is sent
 * and its result after, splits into orders of at most 100, and follows them if asked; it returns the
 * bids' rows and a verdict from the exit-code table. Its collaborators (marketplace calls, journal,
 * lock, clock) are passed in, so `order submit` and a planner such as `invest run` hand it bids and
 * nothing else.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, ConnectionError, nothingSent } from '../api/errors.js';
import type { BidRequest, Order, PlacedOrder } from '../api/orders.js';
import { bidsOf, toNumber } from '../contract/decode.js';
import { isoNow } from '../clock.js';
import { DEFAULT_HTTP_TIMEOUT_MS } from '../config/timeouts.js';
import { MAX_BIDS_PER_ORDER } from '../contract/enums.js';
import { CliError, EXIT, InterruptedError, UsageError } from '../errors.js';
import { chunk } from './bids-file.js';
import {
  DEFAULT_SETTLE_MS,
  VERDICT_EXIT,
  type DeskBid,
  type DeskDeps,
  type PlaceOptions,
  type Placement,
  type Verdict,
} from './desk-api.js';
import type { JournalEntry, ListingHold } from './journal.js';
import { leaveOutUnbiddable } from './biddable.js';
import { heldByOrders, heldRefusal, listingIdOf, type LookedUp } from './market-holds.js';
import { OverlayJournal } from './memory-journal.js';
import { otherDoubtReason, otherDoubts, type OtherDoubt } from './other-addresses.js';
import { doubtEnds, OrdersView, Reconciler, rerunHint, stamp, type Doubt, type Windows } from './reconcile.js';
import { rejectionHint } from './rejections.js';
import { resumeCommands } from './resume.js';
import { bidRows, followOrders, stopListener, type BidRow, type FollowPlan, type Progress } from './wait.js';
import { redactUserInfo } from '../redact-url.js';
import { money } from '../output/columns.js';

const plural = (n: number): string => (n > 1 ? 's' : '');

/** The order desk of one marketplace account. */
export class OrderDesk {
  /** True while session() holds the lock: place() inside it must not take the (not re-entrant) lock again. */
  private inSession = false;
  /** This run's settle window and answer timeout: written with each order, and read for orders that do not say theirs. */
  private readonly windows: Windows;
  private readonly reconciler: Reconciler;

  constructor(private readonly deps: DeskDeps) {
    this.windows = { settleMs: deps.settleMs ?? DEFAULT_SETTLE_MS, timeoutMs: deps.httpTimeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS };
    this.reconciler = new Reconciler({ ...deps, windows: this.windows });
  }

  /**
   * Runs `fn` holding the account's lock, after settling lost answers, so that a planner reads the
   * marketplace, plans and places (through place()) with no other run in between: two runs started
   * together cannot both plan from the same state and bid twice.
   */
  async session<T>(fn: () => Promise<T>): Promise<T> {
    return this.deps.lock(async () => {
      this.inSession = true;
      try {
        await this.reconciler.run(this.ordersView(), 'wait');
        return await fn();
      } finally {
        this.inSession = false;
      }
    });
  }

  /** Places `bids` with every safety; see the module comment for the order of the steps. */
  async place(bids: readonly DeskBid[], opts: PlaceOptions = {}): Promise<Placement> {
    const locked = <T>(fn: () => Promise<T>): Promise<T> => (this.inSession ? fn() : this.deps.lock(fn));
    const bad = bids.find((b) => !Number.isSafeInteger(b.listing_id) || b.listing_id <= 0);
    if (bad) throw new UsageError(`listing id ${bad.listing_id} is not a positive whole number the marketplace takes; nothing was sent`);
    return locked(async (): Promise<Placement> => {
      const orders = this.ordersView();
      // --allow-duplicate sends whatever is in doubt: it does not wait for it either.
      await this.reconciler.run(orders, opts.allowDuplicate ? 'send' : 'wait');
      const { toSend, unbiddable } = await this.screen(bids, orders, opts);
      if (toSend.length === 0) {
        if (unbiddable > 0) this.deps.info('no bid left on a listing that can take bids: nothing was sent');
        else this.progress('every listing is already held: nothing was sent');
        return this.verdict('placed', [], []);
      }
      if (opts.confirm && !(await opts.confirm(toSend))) {
        this.deps.info('cancelled: nothing was sent');
        return this.verdict('cancelled', [], []);
      }
      const sent = await this.send(toSend);
      if (!opts.wait) return this.verdict('placed', sent.flatMap(bidRows), sent);
      const { rows, incomplete } = await this.follow(
        sent.map((o) => o.order_id),
        opts.wait,
        opts.wait.progress,
      );
      return this.verdict(incomplete ? 'incomplete' : 'placed', rows, sent);
    });
  }

  /** Listings the journal holds (outcome unknown, PENDING or INVESTED), or a batch in doubt under another address, for a planner to leave out. */
  holds(): Map<number, ListingHold> {
    const holds = this.deps.journal.holds(this.deps.market);
    for (const [id, d] of this.otherDoubts())
      if (!holds.has(id)) holds.set(id, { listingId: id, state: 'unknown', orderId: null, batch: d.batch });
    return holds;
  }

  /** Listings that batches of this account sent through another address hold while in doubt. */
  private otherDoubts(): Map<number, OtherDoubt> {
    const { otherJournals, market, clock, info } = this.deps;
    return otherDoubts(otherJournals?.() ?? [], market, this.windows, clock.now(), info);
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
    const stop = stopListener(this.deps.stopSignal);
    try {
      const followed = await followOrders(orderIds, plan, {
        get: (id) => api.get(id),
        clock,
        info,
        record: (order) => this.record(order),
        stop: stop.signal,
        ...(api.clockWatch ? { watch: api.clockWatch } : {}),
        progress: progress ?? { change: info, settled: () => undefined },
      });
      if (!stop.signal.aborted) return followed;
      const ids = orderIds.join(', ');
      throw new InterruptedError(
        `interrupted (${stop.name()}) while waiting: order${plural(orderIds.length)} ${ids} ${orderIds.length > 1 ? 'are' : 'is'} placed and go${orderIds.length > 1 ? '' : 'es'} on at the marketplace`,
        `resume following with ${resumeCommands(orderIds, plan)}`,
      );
    } finally {
      stop.end();
    }
  }

  /** What went as asked (an order accepted, held bids left out with --skip-held): only where progress is shown. */
  private progress(line: string): void {
    (this.deps.progress ?? this.deps.info)(line);
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
      t: 'outcome',
      at: isoNow(this.deps.clock),
      order_id: order.order_id,
      // A bid without a status is recorded as '' and held like a PENDING one.
      // A bid whose listing id is not a whole number cannot hold a listing, and would make the line unreadable.
      bids: bidsOf(order).flatMap((b) => {
        const id = listingIdOf(b.listing_id);
        return id === null
          ? []
          : [{ listing_id: id, bid_status: b.bid_status ?? '', ...(b.bid_result ? { bid_result: b.bid_result } : {}) }];
      }),
    });
  }

  /** The account's orders, read from the marketplace at most once per placement unless a wait reads them again. */
  private ordersView(): OrdersView {
    return new OrdersView(() => this.deps.api.list(), this.deps.clock);
  }

  /**
   * What a placement of `bids` would refuse now, by listing, in the words of its refusal; nothing is
   * written or waited for (`--dry-run`): settling and the PENDING re-check run on a copy of the
   * journal in memory, and a batch in doubt is reported as the run that did not wait for it would.
   */
  async review(bids: readonly DeskBid[]): Promise<Map<number, string>> {
    const shadow = new OrderDesk({
      ...this.deps,
      journal: new OverlayJournal(this.deps.journal),
      lock: (fn) => fn(),
      info: () => undefined,
    });
    const orders = shadow.ordersView();
    await shadow.reconciler.run(orders, 'look');
    const held = await shadow.heldBids(bids, orders, async () => (await this.deps.api.lookUp(numbersOf(bids))).invested);
    return new Map(held.map((h) => [h.bid.listing_id, h.reason]));
  }

  /**
   * The bids on listings the journal holds or the marketplace shows a bid or money in, each with why.
   * A journal PENDING hold is first brought up to date from the orders, since the bid may have expired since.
   */
  private async heldBids(
    bids: readonly DeskBid[],
    orders: OrdersView,
    investedIn: () => Promise<ReadonlyMap<number, number>>,
  ): Promise<Array<{ bid: DeskBid; reason: string; doubt?: Doubt }>> {
    const all = (await orders.read()).orders;
    const ids = new Set(bids.map((b) => b.listing_id));
    const { journal, market } = this.deps;
    const before = journal.holds(market);
    const stale = new Set(
      bids.flatMap((b) => {
        const h = before.get(b.listing_id);
        return h?.state === 'PENDING' && h.orderId ? [h.orderId] : [];
      }),
    );
    for (const id of stale) this.record(all.find((o) => o.order_id === id) ?? (await this.deps.api.get(id)));
    const holds = stale.size > 0 ? journal.holds(market) : before;
    const byOrders = heldByOrders(all, ids);
    const others = this.otherDoubts();
    // Asked after the orders (and any stale bid), as always: the listings are the last look before the POST.
    const invested = await investedIn();
    return bids.flatMap((bid) => {
      const h = holds.get(bid.listing_id);
      const doubt = h?.state === 'unknown' ? this.reconciler.doubts.get(h.batch) : undefined;
      if (doubt) {
        return [
          {
            bid,
            doubt,
            reason: `in doubt: sent in batch ${doubt.batch} at ${stamp(doubt.sentAt)} without an answer, and the marketplace does not show that order yet; not sent again before ${stamp(doubt.until)}`,
          },
        ];
      }
      if (h)
        return [
          {
            bid,
            reason: h.state === 'unknown' ? 'an earlier order with it has no known outcome' : `already ${h.state} in order ${h.orderId}`,
          },
        ];
      // A bid the marketplace shows already says why, and no waiting frees it.
      const other = byOrders.has(bid.listing_id) ? undefined : others.get(bid.listing_id);
      if (other) return [{ bid, doubt: other, reason: otherDoubtReason(other) }];
      const amount = invested.get(bid.listing_id);
      const reason =
        byOrders.get(bid.listing_id)
        ?? (amount === undefined ? undefined : `the marketplace shows ${money(amount)} of yours already in it`);
      return reason === undefined ? [] : [{ bid, reason }];
    });
  }

  /**
   * Looks every listing of the file up at once, before its first order is sent: refuses the held bids (see
   * heldBids; none with `allowDuplicate`), or, with `skipHeld`, leaves them out; and leaves out, always, the
   * bids on listings that cannot take bids now (biddable.ts), one of which would sink its whole order.
   */
  private async screen(
    bids: readonly DeskBid[],
    orders: OrdersView,
    opts: PlaceOptions,
  ): Promise<{ toSend: DeskBid[]; unbiddable: number }> {
    let asked: Promise<LookedUp> | undefined;
    const lookUp = (): Promise<LookedUp> => (asked ??= this.deps.api.lookUp(numbersOf(bids)));
    const held = opts.allowDuplicate ? [] : await this.heldBids(bids, orders, async () => (await lookUp()).invested);
    const { notBiddable } = await lookUp();
    const where = (b: DeskBid): string => (opts.source !== undefined && b.line !== undefined ? `${opts.source} line ${b.line}: ` : '');
    const heldOut = new Set(held.map((h) => h.bid));
    if (held.length > 0) {
      const lines = held.map((h) => `${where(h.bid)}listing ${h.bid.listing_id}: ${h.reason}`).join('\n  ');
      if (!opts.skipHeld) throw heldRefusal(held, lines);
      this.progress(`leaving out ${held.length} bid${plural(held.length)} on listings already held:\n  ${lines}`);
    }
    const toSend = leaveOutUnbiddable(
      bids.filter((b) => !heldOut.has(b)),
      notBiddable,
      where,
      this.deps.info,
    );
    return { toSend, unbiddable: bids.length - heldOut.size - toSend.length };
  }

  /**
   * Records in the journal every order of the account with a PENDING bid that no batch of the journal
   * claims — what a repair cut away — so that the journal holds those listings again. Returns how many.
   */
  async adoptOpenOrders(): Promise<number> {
    const { market, clock, info } = this.deps;
    const orders = this.ordersView();
    const { orders: all } = await orders.read();
    // A repair does not wait: a batch in doubt stays unknown, its listings held.
    await this.reconciler.run(orders, 'look');
    const claimed = new Set(this.deps.journal.batches(market).flatMap((b) => (b.orderId ? [b.orderId] : [])));
    let adopted = 0;
    for (const o of all) {
      if (typeof o.order_id !== 'string' || claimed.has(o.order_id) || !bidsOf(o).some((b) => b.bid_status === 'PENDING')) continue;
      const bids = bidsOf(o).flatMap((b) => {
        const id = listingIdOf(b.listing_id);
        return id === null ? [] : [{ listing_id: id, bid_amount: toNumber(b.bid_amount) ?? 0 }];
      });
      const batch = randomUUID();
      this.journal({ t: 'intent', batch, at: isoNow(clock), base_url: redactUserInfo(market.baseUrl), market: market.key, bids });
      this.journal({ t: 'reconciled', batch, at: isoNow(clock), order_id: o.order_id });
      this.record(o);
      info(`  order ${o.order_id} (${bids.length} bid${plural(bids.length)}, some PENDING) was not in the journal: recorded`);
      adopted++;
    }
    return adopted;
  }

  /** Sends the bids as orders of at most 100, journalling each before and after. Stops at the first failure. */
  private async send(bids: readonly DeskBid[]): Promise<PlacedOrder[]> {
    const { api, market, clock } = this.deps;
    const sent: PlacedOrder[] = [];
    const groups = chunk(
      bids.map(({ listing_id, bid_amount }) => ({ listing_id, bid_amount })),
      MAX_BIDS_PER_ORDER,
    );
    for (const [i, group] of groups.entries()) {
      const batch = randomUUID();
      const which = `order ${i + 1}/${groups.length}`;
      const placed = (): string => (sent.length ? ` Orders already placed: ${sent.map((o) => o.order_id).join(', ')}.` : '');
      try {
        // The token first (it may wait for the credentials' lock, a refresh): the intent's time is when the POST leaves.
        await api.prepare?.();
      } catch (err) {
        if (!(err instanceof CliError)) throw err;
        throw new CliError(`${which} not placed: ${err.message}; nothing was sent.${placed()}`, err.exitCode, err.hint);
      }
      const at = isoNow(clock);
      const { settleMs: settle_ms, timeoutMs: timeout_ms } = this.windows;
      this.journal({
        t: 'intent',
        batch,
        at,
        base_url: redactUserInfo(market.baseUrl),
        market: market.key,
        bids: group,
        settle_ms,
        timeout_ms,
      });
      try {
        const order = await api.submit(group);
        this.journal({ t: 'accepted', batch, at: isoNow(clock), order_id: order.order_id });
        this.record(order);
        sent.push(order);
        this.progress(`${which} accepted: ${order.order_id} (${group.length} bids)`);
      } catch (err) {
        if (err instanceof ApiError && err.status < 500) {
          this.journal({ t: 'rejected', batch, at: isoNow(clock), status: err.status, code: err.code, message: err.message });
          const detail = err.code === 'ORD0021' ? await this.fundsDetail(group) : '';
          throw new CliError(`${which} rejected: ${err.message}${detail}.${placed()}`, err.exitCode, err.hint ?? rejectionHint(err.code));
        }
        const reason = err instanceof Error ? err.message : String(err);
        if (nothingSent(err)) {
          // Refused before it was acted on (a token refused) or never sent (connection refused): the
          // journal frees its bids, and the message says so rather than "may or may not".
          this.journal({ t: 'unsent', batch, at: isoNow(clock), error: reason });
          const what = err instanceof ConnectionError ? 'nothing was sent' : 'nothing was placed';
          throw new CliError(`${which} not placed: ${reason}; ${what}.${placed()}`, err.exitCode, err.hint);
        }
        const lostAt = isoNow(clock);
        this.journal({ t: 'lost', batch, at: lostAt, error: reason });
        const until = doubtEnds({ at, lostAt }, this.windows);
        throw new CliError(
          `${which}: no answer from the marketplace (${reason}); it may or may not have been placed: batch ${batch} is in doubt until ${stamp(until)}.${placed()}`,
          err instanceof ConnectionError || err instanceof ApiError ? EXIT.UNREACHABLE : EXIT.BUG,
          rerunHint(Date.parse(at), until, clock.now()),
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
      return ` (insufficient funds: available ${money(cash)}, order total ${money(total)})`;
    } catch {
      return ` (order total ${money(total)})`;
    }
  }
}

/** The listing numbers of `bids`, each once. */
const numbersOf = (bids: readonly DeskBid[]): number[] => [...new Set(bids.map((b) => b.listing_id))];
