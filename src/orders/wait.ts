/**
 * Following orders until every bid has a result (`processed`) or the order is COMPLETED
 * (`completed`), with capped backoff and an overall timeout; reports each change as it happens.
 */
import type { Bid, Order } from '../api/orders.js';
import { bidsOf } from '../contract/decode.js';
import type { Clock } from '../clock.js';
import { EXIT } from '../errors.js';
import { resumeCommands, type FollowPlan, type Until } from './resume.js';
import { FROZEN_GRACE_MS, StillClock, type ClockWatch } from './still-clock.js';

export type { FollowPlan, Until } from './resume.js';

/** Where progress goes: each change of an order's state, then the end of following that order. */
export interface Progress {
  change(line: string): void;
  settled(): void;
}

/** One bid of an order, as the reports show it (mapped, so that it is a plain record for the renderer). */
export type BidRow = { order_id: string | null | undefined } & { [K in keyof Bid]: Bid[K] };

/** What following needs, injected. */
export interface FollowDeps {
  /** Reads one order from the marketplace. */
  get(orderId: string): Promise<Order>;
  clock: Clock;
  progress: Progress;
  /** Messages for the person. */
  info(line: string): void;
  /** Called with each order as last seen (the desk records its outcome in the journal). */
  record?(order: Order): void;
  /** Stops following (Ctrl-C): no further poll, no sleep left running. */
  stop?: AbortSignal;
  /** Tells a marketplace whose clock stands still (a mock started with --frozen), so the wait says so and gives up early. */
  watch?: ClockWatch;
}

/** The person's stop (Ctrl-C) while something waits: `signal` aborts on it, `name` says which signal; `end` stops listening. */
export function stopListener(stopSignal?: (until: AbortSignal) => Promise<string>): { signal: AbortSignal; name(): string; end(): void } {
  const done = new AbortController();
  const stop = new AbortController();
  let name = '';
  void stopSignal?.(done.signal).then((signal) => {
    name = signal;
    stop.abort();
  });
  return { signal: stop.signal, name: () => name, end: () => done.abort() };
}

/** True when the order has reached what we wait for. */
export function isDone(order: Order, until: Until): boolean {
  if (until === 'completed') return order.order_status === 'COMPLETED';
  return bidsOf(order).every((b) => b.bid_result !== undefined && b.bid_result !== 'NONE');
}

/** A short summary of an order's bids: "3 bids: 2 BID_SUCCEEDED, 1 LISTING_NOT_BIDDABLE; 1 EXPIRED". */
export function summarize(order: Order): string {
  const count = (key: 'bid_result' | 'bid_status') => {
    const m = new Map<string, number>();
    for (const b of bidsOf(order)) m.set(String(b[key] ?? 'NONE'), (m.get(String(b[key] ?? 'NONE')) ?? 0) + 1);
    return [...m].map(([k, n]) => `${n} ${k}`).join(', ');
  };
  return `order ${order.order_id} ${order.order_status}: ${count('bid_result')}; ${count('bid_status')}`;
}

/** True when some bid ended unplaced or EXPIRED (or, waiting for completion, not INVESTED). */
export function hasShortfall(order: Order, until: Until): boolean {
  return bidsOf(order).some((b) => {
    if (b.bid_status === 'EXPIRED') return true;
    if (until === 'completed') return b.bid_status !== 'INVESTED';
    return b.bid_result !== 'BID_SUCCEEDED' && b.bid_result !== 'PARTIAL_BID_SUCCEEDED';
  });
}

/** Every bid of `order` as a report row. */
export function bidRows(order: Order): BidRow[] {
  return bidsOf(order).map((b) => ({ order_id: order.order_id, ...b }));
}

/**
 * Polls one order until done or timed out; returns the last order seen and whether it timed out. With
 * `still`, a clock found frozen is said (`onFrozen`, once) and, still frozen FROZEN_GRACE_MS later, ends
 * the wait as a timeout.
 */
export async function waitForOrder(
  get: FollowDeps['get'],
  orderId: string,
  plan: FollowPlan,
  clock: Clock,
  onChange: (line: string) => void,
  stop?: AbortSignal,
  still?: { clock: StillClock; onFrozen: () => void },
): Promise<{ order: Order; timedOut: boolean }> {
  const deadline = clock.now() + plan.timeoutMs;
  let delay = 500;
  let last = '';
  for (;;) {
    const order = await get(orderId);
    const line = summarize(order);
    if (line !== last) {
      onChange(line);
      last = line;
    }
    if (isDone(order, plan.until) || stop?.aborted) return { order, timedOut: false };
    const left = deadline - clock.now();
    if (left <= 0) return { order, timedOut: true };
    const stillness = await still?.clock.look();
    if (stillness === 'found') still!.onFrozen();
    if (stillness === 'give-up') return { order, timedOut: true };
    await clock.sleep(Math.min(delay, left), stop);
    if (stop?.aborted) return { order, timedOut: false };
    delay = Math.min(delay * 2, 5000);
  }
}

/** True when the bid is still on its way to what we wait for: placed, no final word yet. */
function stillPending(b: Bid, until: Until): boolean {
  if (b.bid_status === 'EXPIRED') return false;
  return until === 'completed' ? b.bid_status === 'PENDING' : b.bid_result === undefined || b.bid_result === 'NONE';
}

/** Follows each order in turn; `incomplete` when one timed out or ended with a shortfall (exit 6). */
export async function followOrders(
  orderIds: readonly string[],
  plan: FollowPlan,
  deps: FollowDeps,
): Promise<{ rows: BidRow[]; incomplete: boolean }> {
  const rows: BidRow[] = [];
  let failed = false;
  const waiting: string[] = [];
  // Bid results: `mkt mock process` processes the queued orders now and leaves the clock where the user froze it. Funding
  // and origination take the market's time: a clock move.
  const nudge = plan.until === 'completed' ? 'mkt mock clock advance 15d' : 'mkt mock process';
  const still = deps.watch && {
    clock: new StillClock(deps.watch, deps.clock),
    onFrozen: () => {
      deps.progress.settled();
      deps.info(
        `mkt: the marketplace's clock stands still: it is a mock started with --frozen, which processes no order until its clock moves or it is told to; run \`${nudge}\` from another terminal (waiting ${FROZEN_GRACE_MS / 1000} s more for it)`,
      );
    },
  };
  for (const id of orderIds) {
    const { order, timedOut } = await waitForOrder(deps.get, id, plan, deps.clock, (line) => deps.progress.change(line), deps.stop, still);
    deps.progress.settled();
    deps.record?.(order);
    if (deps.stop?.aborted) return { rows, incomplete: true };
    const pending = bidsOf(order).filter((b) => stillPending(b, plan.until)).length;
    if (timedOut) {
      waiting.push(id);
      const why = still?.clock.frozen ? "gave up: the mock's clock is frozen," : `gave up after ${plan.timeoutMs / 1000} s`;
      deps.info(`order ${id}: ${why} with ${pending} bid${pending === 1 ? '' : 's'} placed and still pending (not yet ${plan.until})`);
    }
    // After a timeout a pending bid is no shortfall yet: only bids that ended short count as failed.
    const ended = timedOut ? { ...order, bid_requests: bidsOf(order).filter((b) => !stillPending(b, plan.until)) } : order;
    if (hasShortfall(ended, plan.until)) failed = true;
    rows.push(...bidRows(order));
  }
  if (failed) deps.info(`some bids were not placed or not invested (exit ${EXIT.INCOMPLETE})`);
  if (waiting.length > 0 && still?.clock.frozen) {
    deps.info(
      `the mock's clock is frozen (exit ${EXIT.INCOMPLETE}): its orders are processed once it moves or is told to: run \`${nudge}\`, then follow with ${resumeCommands(waiting, plan)}`,
    );
  } else if (waiting.length > 0) {
    deps.info(
      `the wait timed out with bids placed and pending (exit ${EXIT.INCOMPLETE}); they go on at the marketplace: follow with ${resumeCommands(waiting, plan)}`,
    );
  }
  return { rows, incomplete: failed || waiting.length > 0 };
}
