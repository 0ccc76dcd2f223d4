/**
 * Following an order until every bid has a result (`processed`) or the order is COMPLETED
 * (`completed`), with capped backoff and an overall timeout; reports each change as it happens.
 */
import type { ApiClient } from '../api/client.js';
import { get, type Order } from '../api/orders.js';

/** What to wait for. */
export type Until = 'processed' | 'completed';

/** Knobs and injected pieces. */
export interface WaitOptions {
  until: Until;
  timeoutMs: number;
  sleep(ms: number): Promise<void>;
  now(): number;
  /** Called with a one-line description whenever the order's state changes. */
  onChange(line: string, order: Order): void;
}

/** True when the order has reached what we wait for. */
export function isDone(order: Order, until: Until): boolean {
  if (until === 'completed') return order.order_status === 'COMPLETED';
  return order.bid_requests.every((b) => b.bid_result !== undefined && b.bid_result !== 'NONE');
}

/** A short summary of an order's bids: "3 bids: 2 BID_SUCCEEDED, 1 LISTING_NOT_BIDDABLE; 1 EXPIRED". */
export function summarize(order: Order): string {
  const count = (key: 'bid_result' | 'bid_status') => {
    const m = new Map<string, number>();
    for (const b of order.bid_requests) m.set(String(b[key] ?? 'NONE'), (m.get(String(b[key] ?? 'NONE')) ?? 0) + 1);
    return [...m].map(([k, n]) => `${n} ${k}`).join(', ');
  };
  return `order ${order.order_id} ${order.order_status}: ${count('bid_result')}; ${count('bid_status')}`;
}

/** True when some bid ended unplaced or EXPIRED (or, waiting for completion, not INVESTED). */
export function hasShortfall(order: Order, until: Until): boolean {
  return order.bid_requests.some((b) => {
    if (b.bid_status === 'EXPIRED') return true;
    if (until === 'completed') return b.bid_status !== 'INVESTED';
    return b.bid_result !== 'BID_SUCCEEDED' && b.bid_result !== 'PARTIAL_BID_SUCCEEDED';
  });
}

/** Polls until done or timed out; returns the last order seen and whether it timed out. */
export async function waitForOrder(client: ApiClient, orderId: string, o: WaitOptions): Promise<{ order: Order; timedOut: boolean }> {
  const deadline = o.now() + o.timeoutMs;
  let delay = 500;
  let last = '';
  for (;;) {
    const order = await get(client, orderId);
    const line = summarize(order);
    if (line !== last) {
      o.onChange(line, order);
      last = line;
    }
    if (isDone(order, o.until)) return { order, timedOut: false };
    const left = deadline - o.now();
    if (left <= 0) return { order, timedOut: true };
    await o.sleep(Math.min(delay, left));
    delay = Math.min(delay * 2, 5000);
  }
}
