/**
 * Settling the batches whose answer was never seen (a timeout, a dropped connection, a run killed
 * mid-send). Such a batch is **in doubt**: a server that read the POST may act on it seconds after the
 * client gave up. It is found among the account's orders (same bids, not claimed by another batch),
 * or, once its doubt has ended (doubtEnds: the settle window in force when it was sent, counted from
 * its intent, and the window's margin past the answer timeout, counted from when the client gave up)
 * and an order list read after that still does not show it, recorded as never placed. Until one of the
 * two, it stays unknown in the journal, so its listings stay held and its bids are not sent again; a
 * run may wait for it to show, bounded, saying so on stderr.
 */
import type { Order, PlacedOrder } from '../api/orders.js';
import { isoNow, type Clock } from '../clock.js';
import { bidsOf } from '../contract/decode.js';
import type { Bid, BidRequest } from '../api/orders.js';
import { InterruptedError } from '../errors.js';
import type { BatchState, JournalBase } from './journal.js';
import type { Marketplace } from './marketplace.js';
import { stopListener } from './wait.js';

/** Longest a run waits, in all, for batches in doubt to show; past it their listings are refused (exit 2), naming when they may be sent. */
export const DOUBT_WAIT_MAX_MS = 120_000;

/** First pause between two looks at the account's orders while waiting; it doubles up to DOUBT_POLL_MAX_MS. */
const DOUBT_POLL_MS = 1000;
const DOUBT_POLL_MAX_MS = 5000;
/** A progress line at most this often while waiting (one per look would fill a cron mail). */
const DOUBT_TELL_MS = 15_000;

const plural = (n: number): string => (n > 1 ? 's' : '');

/** A time for messages: ISO 8601 UTC to the second, rounded up, so that "not before T" is never early. */
export function stamp(ms: number): string {
  return new Date(Math.ceil(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * When a batch sent at `at` (its intent's time) leaves doubt. Entries are written by isoNow, always
 * readable; a time that is not (no version wrote one) is taken as long past rather than as a doubt no
 * order could ever end.
 */
export function settlesAt(at: string, settleMs: number): number {
  const sent = Date.parse(at);
  return Number.isFinite(sent) ? sent + settleMs : Number.NEGATIVE_INFINITY;
}

/** The settle window and the client's answer timeout: this run's, or those a batch was sent under. */
export interface Windows {
  settleMs: number;
  timeoutMs: number;
}

/**
 * When a batch leaves doubt: its settle window after its intent, and no earlier than the window's
 * margin past the answer timeout after the client gave up (its `lost` entry) — a client may give up
 * well after the intent (a 401 answered, a fresh token, the POST sent again), and a server or a proxy
 * in front of it may act on the request that long after that. Both from the windows in force when it was
 * sent; a batch written by an older version, without them, is read under `now` (this run's).
 */
export function doubtEnds(b: Pick<BatchState, 'at' | 'lostAt' | 'settleMs' | 'timeoutMs'>, now: Windows): number {
  const settleMs = b.settleMs ?? now.settleMs;
  const margin = Math.max(0, settleMs - (b.timeoutMs ?? now.timeoutMs));
  const fromIntent = settlesAt(b.at, settleMs);
  return b.lostAt === undefined ? fromIntent : Math.max(fromIntent, settlesAt(b.lostAt, margin));
}

/** What a rerun does about a batch sent at `sentAt`, in doubt `until`, whose answer was lost `now`: the hint after it. */
export function rerunHint(sentAt: number, until: number, now: number): string {
  const window = `${stamp(until)} (${Math.round((until - sentAt) / 1000)} s after it was sent)`;
  // A rerun at once waits at most DOUBT_WAIT_MAX_MS: a longer window ends in a refusal instead.
  const waits =
    until - now <= DOUBT_WAIT_MAX_MS
      ? `waits for it to show until ${window}`
      : `waits up to ${DOUBT_WAIT_MAX_MS / 1000} s for it to show, and refuses these bids (exit 2) until ${window}`;
  return `run the same command again: it first looks for this order at the marketplace. If the order shows, it is recorded as placed and these bids are not sent again; while it does not, the run ${waits}; an order still not shown after that is taken as never received and the bids are sent. --allow-duplicate sends them at once`;
}

/** The account's orders as last read, and when that read began. */
export interface OrdersSeen {
  orders: Order[];
  /** The clock when the read began: only a list asked for after a batch's window ended can say it never arrived. */
  readAt: number;
}

/** The account's orders, read at most once per placement unless asked again (every page). */
export class OrdersView {
  private last?: Promise<OrdersSeen>;

  constructor(
    private readonly list: () => AsyncIterable<Order>,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /** The orders, read on first use. */
  read(): Promise<OrdersSeen> {
    return (this.last ??= this.load());
  }

  /** The orders read again; later read() calls return these. */
  fresh(): Promise<OrdersSeen> {
    return (this.last = this.load());
  }

  private async load(): Promise<OrdersSeen> {
    const readAt = this.clock.now();
    const orders: Order[] = [];
    for await (const o of this.list()) orders.push(o);
    return { orders, readAt };
  }
}

/** What settling needs. */
export interface ReconcileDeps {
  journal: JournalBase;
  market: Marketplace;
  clock: Clock;
  info(line: string): void;
  /** This run's settle window and answer timeout, for batches whose intent does not say theirs. */
  windows: Windows;
  stopSignal?(until: AbortSignal): Promise<string>;
}

/** A batch still in doubt after settling: held until `until` unless its order shows first. */
export interface Doubt {
  batch: string;
  sentAt: number;
  until: number;
}

const sameBids = (a: BidRequest[], b: Bid[]): boolean =>
  a.length === b.length && a.every((x) => b.some((y) => Number(y.listing_id) === x.listing_id && Number(y.bid_amount) === x.bid_amount));

/**
 * What a settling does about a batch the marketplace does not show yet: `wait` for it (a placement),
 * only `look` (a repair, a dry run: it stays held), or `send` its bids anyway (`--allow-duplicate`).
 */
export type DoubtMode = 'wait' | 'look' | 'send';

/** Settles lost answers for one desk; the bound on waiting is shared by every settling of its run. */
export class Reconciler {
  /** The batches left in doubt by the last settling, by batch id: the refusal names them and when they may be sent. */
  readonly doubts = new Map<string, Doubt>();
  /** When this run stops waiting for batches in doubt (set when it first waits). */
  private waitEnds?: number;

  constructor(private readonly deps: ReconcileDeps) {}

  /**
   * Settles every batch of the account whose answer was never seen. With 'wait', a batch in doubt is
   * waited for: the orders are read again, with a growing pause, until it shows, its window has
   * passed, or the run's wait bound is reached. Ctrl-C while waiting ends the run (exit 130), nothing sent.
   */
  async run(view: OrdersView, mode: DoubtMode): Promise<void> {
    const { journal, market, info } = this.deps;
    this.doubts.clear();
    const batches = journal.batches(market);
    let open = batches.filter((b) => b.status === 'unknown');
    if (open.length === 0) return;
    info(`reconciling ${open.length} order${plural(open.length)} whose answer was lost…`);
    const claimed = new Set(batches.flatMap((b) => (b.orderId ? [b.orderId] : [])));
    open = this.settle(open, await view.read(), claimed);
    if (open.length > 0 && mode === 'wait') open = await this.waitFor(open, view, claimed);
    for (const b of open) {
      const doubt = { batch: b.batch, sentAt: settlesAt(b.at, 0), until: this.ends(b) };
      this.doubts.set(b.batch, doubt);
      info(
        mode === 'send'
          ? `  batch ${b.batch} is still in doubt (until ${stamp(doubt.until)}): --allow-duplicate sends bids on its listings anyway; if that order arrives too, they are bid twice`
          : `  batch ${b.batch} is still in doubt: its listings stay held until the marketplace shows its order or ${stamp(doubt.until)} passes`,
      );
    }
  }

  /** When `b` leaves doubt. */
  private ends(b: BatchState): number {
    return doubtEnds(b, this.deps.windows);
  }

  /** Records what `seen` settles of `open`: an order found, or never placed once the window had passed when the list was asked for. Returns the rest. */
  private settle(open: BatchState[], seen: OrdersSeen, claimed: Set<string>): BatchState[] {
    const { journal, clock, info } = this.deps;
    const readable = seen.orders.filter((o): o is PlacedOrder => typeof o.order_id === 'string' && Array.isArray(o.bid_requests));
    // An order the list shows without its id or bids might be the batch's: nothing can say it was never placed.
    const unreadable = seen.orders.length - readable.length;
    const left: BatchState[] = [];
    for (const b of open) {
      const match = readable.find((o) => !claimed.has(o.order_id) && sameBids(b.bids, bidsOf(o)));
      if (match) {
        journal.append({ t: 'reconciled', batch: b.batch, at: isoNow(clock), order_id: match.order_id });
        claimed.add(match.order_id);
        info(`  order ${match.order_id} was placed (the answer had been lost); it will not be sent again`);
      } else if (unreadable > 0) {
        info(
          `  batch ${b.batch}: ${unreadable} order${plural(unreadable)} in the list show no id or bids, so it cannot be told whether it was placed; its listings stay held`,
        );
      } else if (seen.readAt >= this.ends(b)) {
        journal.append({ t: 'reconciled', batch: b.batch, at: isoNow(clock), order_id: null });
        const ends = this.ends(b);
        // Said when the client gave up late enough that the window counts from then.
        const gaveUp =
          b.lostAt !== undefined && ends > settlesAt(b.at, b.settleMs ?? this.deps.windows.settleMs)
            ? `, ${Math.round((ends - settlesAt(b.lostAt, 0)) / 1000)} s after the client gave up`
            : '';
        info(
          `  batch ${b.batch} never reached the marketplace: no order for it ${Math.round((ends - settlesAt(b.at, 0)) / 1000)} s after it was sent${gaveUp} (the settle window); its bids are free to send`,
        );
      } else {
        left.push(b);
      }
    }
    return left;
  }

  /** Looks at the orders again until `open` is settled or the run's wait bound is reached; returns what is still in doubt. */
  private async waitFor(open: BatchState[], view: OrdersView, claimed: Set<string>): Promise<BatchState[]> {
    const { clock, info } = this.deps;
    const started = clock.now();
    const ends = (this.waitEnds ??= started + DOUBT_WAIT_MAX_MS);
    if (started >= ends) return open;
    const last = Math.max(...open.map((b) => this.ends(b)));
    for (const b of open) {
      info(
        `  batch ${b.batch} (${b.bids.length} bid${plural(b.bids.length)}, sent ${stamp(settlesAt(b.at, 0))} without an answer) is not shown by the marketplace yet: it may still arrive, so it is not sent again before ${stamp(this.ends(b))}`,
      );
    }
    const until = Math.min(ends, last);
    info(
      `  waiting up to ${Math.ceil((until - started) / 1000)} s for the marketplace to show ${open.length > 1 ? 'them' : 'it'} (Ctrl-C stops, sending nothing)…`,
    );
    const stop = stopListener(this.deps.stopSignal);
    try {
      let pause = DOUBT_POLL_MS;
      let told = started;
      while (open.length > 0) {
        const now = clock.now();
        if (now >= ends) break;
        // Wake at the first window's end too: the list read then is the one that may free its batch.
        const next = Math.min(ends, ...open.map((b) => this.ends(b)));
        await clock.sleep(Math.max(0, Math.min(pause, next - now)), stop.signal);
        if (stop.signal.aborted) {
          const names = open.map((b) => `${b.batch} (not sent again before ${stamp(this.ends(b))})`).join(', ');
          throw new InterruptedError(
            `interrupted (${stop.name()}) while waiting for the marketplace to show batch${plural(open.length)} ${names}: nothing was sent`,
            'run the same command again: it looks for the order again first, and sends these bids only once the marketplace still shows no order for them after that time',
          );
        }
        pause = Math.min(pause * 2, DOUBT_POLL_MAX_MS);
        open = this.settle(open, await view.fresh(), claimed);
        if (open.length > 0 && clock.now() - told >= DOUBT_TELL_MS) {
          told = clock.now();
          const left = Math.min(ends, Math.max(...open.map((b) => this.ends(b)))) - told;
          info(
            `  still not shown after ${Math.round((told - started) / 1000)} s; waiting up to ${Math.max(0, Math.ceil(left / 1000))} s more…`,
          );
        }
      }
    } finally {
      stop.end();
    }
    return open;
  }
}
