/**
 * Orders in the engine: validating and accepting an order (debit the whole total, every bid PENDING/NONE,
 * queue it) and processing it (each bid's bid_result per the spec, crediting what was not placed).
 */
import { youngPartialCap } from '../../src/contract/bid-rules.js';
import { LISTING_STATUS } from '../../src/contract/enums.js';
import { ApiError } from '../kit/api-error.js';
import { cents } from '../kit/money.js';
import type { Account, Bid, Order, Store } from '../world/store.js';
import { addOrder } from '../world/store-index.js';
import { LEDGER_KINDS, post } from './ledger.js';
import { canOriginate, completeIfDone, fund, makePending } from './lifecycle.js';
import { notifyProcessed, notifyRejected } from './notifications.js';
import { rngFor } from './rng-for.js';
import { settleListing } from './settle.js';
import { biddableUntil, listingChanged } from './timeline.js';
import { parseOrderBody, validateOrder, type BidRequest } from './validate-order.js';

/** Source recorded on orders placed through the API. */
export const ORDER_SOURCE = 'API';

/**
 * Where a mock's order numbers stand. An order's id is drawn from the seed, its number and the time;
 * its number is the world's order count plus `before`, the numbers drawn in the worlds it replaced (a
 * snapshot loaded, a reset: a frozen clock gave a loaded world's next order the id the world before
 * had given, at the same time, to another order). Kept by the engine, not in the world (a snapshot
 * loads byte for byte as saved), and in each base record of a --state log (durability/operation-log.ts).
 */
export interface OrderNumbering {
  before: number;
}

/** After a world replaced `previous` (numbered by `numbering`) with `next`: its next order number is past every one drawn so far. */
export function carryNumbering(numbering: OrderNumbering, previous: Store, next: Store): void {
  numbering.before = Math.max(0, previous.orders.size + numbering.before - next.orders.size);
}

/**
 * Validates and accepts the order in body `text` for `account` at `now`, to be processed at `processAt`. The first ORD error is
 * thrown, after the investor is emailed about it (the other failures, such as a login that has lapsed, are no order validation).
 */
export function submitOrder(
  store: Store,
  account: Account,
  text: string,
  now: number,
  processAt: number,
  numbering: OrderNumbering,
): Order {
  let body: unknown;
  let bids;
  try {
    const parsed = parseOrderBody(text);
    body = parsed.value;
    bids = validateOrder(store, account, parsed, now);
  } catch (err) {
    if (err instanceof ApiError && /^ORD\d+$/.test(String(err.body.code))) notifyRejected(store, account.id, body, err, now);
    throw err;
  }
  return acceptOrder(store, account, bids, now, processAt, numbering);
}

/** Accepts an order: debits its total at once and queues it for processing at `processAt`. */
export function acceptOrder(
  store: Store,
  account: Account,
  bids: BidRequest[],
  now: number,
  processAt: number,
  numbering: OrderNumbering = { before: 0 },
): Order {
  let seq = store.orders.size + 1 + numbering.before;
  let order_id = rngFor(store.seed, seq, now, 0x0dde).uuid();
  // A number stepped over stays drawn: the next order, and a world that replaces this one, start after it.
  while (store.orders.has(order_id)) {
    numbering.before++;
    order_id = rngFor(store.seed, ++seq, now, 0x0dde).uuid();
  }
  const order: Order = {
    order_id,
    accountId: account.id,
    order_date: now,
    order_status: 'IN_PROGRESS',
    source: ORDER_SOURCE,
    bids: bids.map((b) => ({
      listing_id: b.listing.listing_number,
      bid_amount: b.amount,
      bid_amount_placed: 0,
      bid_status: 'PENDING',
      bid_result: 'NONE',
      note_number: null,
    })),
    processAt,
    processed: false,
  };
  const total = cents(bids.reduce((s, b) => s + b.amount, 0));
  post(store, account.id, -total, LEDGER_KINDS.ORDER_DEBIT, order_id, now);
  addOrder(store, order);
  store.engine.queue.push(order_id);
  return order;
}

/** Processes one queued order at `at`: every bid gets its bid_result; the investor is emailed (and again if that completes it). */
export function processOrder(store: Store, order: Order, at: number): void {
  if (order.processed) return;
  for (const bid of order.bids) processBid(store, order, bid, at);
  order.processed = true;
  store.engine.queue = store.engine.queue.filter((id) => id !== order.order_id);
  notifyProcessed(store, order, at);
  completeIfDone(store, order, at);
}

/** Processes every queued order at `now`, whatever its time (POST /__mock/process); returns how many there were. */
export function processQueued(store: Store, now: number): number {
  const ids = [...store.engine.queue];
  for (const id of ids) {
    const order = store.orders.get(id);
    if (order) processOrder(store, order, now);
  }
  store.engine.queue = [];
  return ids.length;
}

function refund(store: Store, order: Order, bid: Bid, amount: number, at: number): void {
  post(store, order.accountId, amount, LEDGER_KINDS.BID_REFUND, `${order.order_id}:${bid.listing_id}`, at);
}

/** Ends a bid at processing: EXPIRED with `result` and the whole amount credited. */
function fail(store: Store, order: Order, bid: Bid, result: Bid['bid_result'], at: number): void {
  bid.bid_result = result;
  bid.bid_status = 'EXPIRED';
  bid.bid_amount_placed = 0;
  refund(store, order, bid, bid.bid_amount, at);
}

function processBid(store: Store, order: Order, bid: Bid, at: number): void {
  if (bid.bid_result !== 'NONE' || bid.bid_status !== 'PENDING') return;
  const l = store.listingByNumber.get(bid.listing_id);
  // The market's own steps on it since the last tick come first (the timeline applies them when it is read).
  if (l) settleListing(store, l);
  if (!l || l.listing_status !== LISTING_STATUS.ACTIVE || at >= biddableUntil(l) || at < l.listing_start_date) {
    return fail(store, order, bid, 'LISTING_NOT_BIDDABLE', at);
  }
  const user = store.users.get(store.accounts.get(order.accountId)?.userId ?? '');
  if (user && l.borrowerUserId === user.id) return fail(store, order, bid, 'CANNOT_BID_ON_OWN_LISTING', at);
  if (l.investment_typeid === 2) {
    // A whole loan is taken whole or not at all.
    if (l.amount_funded > 0 || bid.bid_amount !== l.listing_amount) return fail(store, order, bid, 'BID_FAILED', at);
  } else {
    if (user?.fractionalEligible === false) return fail(store, order, bid, 'CANNOT_BID_ON_FRACTIONAL_LOANS', at);
    const cap = youngPartialCap(l, l.listing_creation_date, at);
    if (cap !== null && bid.bid_amount > cap) {
      return fail(store, order, bid, 'LENDER_NOT_ELIGIBLE_TO_BID', at);
    }
  }
  const remaining = cents(l.listing_amount - l.amount_funded);
  if (remaining <= 0) return fail(store, order, bid, 'LISTING_NOT_BIDDABLE', at);
  if (bid.bid_amount <= remaining) {
    bid.bid_result = 'BID_SUCCEEDED';
    bid.bid_amount_placed = bid.bid_amount;
  } else {
    bid.bid_result = 'PARTIAL_BID_SUCCEEDED';
    bid.bid_amount_placed = remaining;
    refund(store, order, bid, cents(bid.bid_amount - remaining), at);
  }
  fund(store, l, bid.bid_amount_placed, at);
  if (canOriginate(l, false)) makePending(store, l, at);
  else listingChanged(store, l);
}
