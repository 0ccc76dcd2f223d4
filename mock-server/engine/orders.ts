/**
 * Orders in the engine: validating and accepting an order (debit the whole total, every bid PENDING/NONE,
 * queue it) and processing it (each bid's bid_result per the spec, crediting what was not placed).
 */
import { youngPartialCap } from '../../src/contract/bid-rules.js';
import { LISTING_STATUS } from '../../src/contract/enums.js';
import { ApiError } from '../kit/api-error.js';
import { cents } from '../kit/money.js';
import type { Account, Bid, Order, World } from '../world/world.js';
import { addOrder } from '../world/world-index.js';
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
export function carryNumbering(numbering: OrderNumbering, previous: World, next: World): void {
  numbering.before = Math.max(0, previous.orders.size + numbering.before - next.orders.size);
}

/**
 * Validates and accepts the order in body `text` for `account` at `now`, to be processed at `processAt`. The first ORD error is
 * thrown, after the investor is emailed about it (the other failures, such as a login that has lapsed, are no order validation).
 */
export function submitOrder(
  world: World,
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
    bids = validateOrder(world, account, parsed, now);
  } catch (err) {
    if (err instanceof ApiError && /^ORD\d+$/.test(String(err.body.code))) notifyRejected(world, account.id, body, err, now);
    throw err;
  }
  return acceptOrder(world, account, bids, now, processAt, numbering);
}

/** Accepts an order: debits its total at once and queues it for processing at `processAt`. */
export function acceptOrder(
  world: World,
  account: Account,
  bids: BidRequest[],
  now: number,
  processAt: number,
  numbering: OrderNumbering = { before: 0 },
): Order {
  let seq = world.orders.size + 1 + numbering.before;
  let order_id = rngFor(world.seed, seq, now, 0x0dde).uuid();
  // A number stepped over stays drawn: the next order, and a world that replaces this one, start after it.
  while (world.orders.has(order_id)) {
    numbering.before++;
    order_id = rngFor(world.seed, ++seq, now, 0x0dde).uuid();
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
  post(world, account.id, -total, LEDGER_KINDS.ORDER_DEBIT, order_id, now);
  addOrder(world, order);
  world.engine.queue.push(order_id);
  return order;
}

/** Processes one queued order at `at`: every bid gets its bid_result; the investor is emailed (and again if that completes it). */
export function processOrder(world: World, order: Order, at: number): void {
  if (order.processed) return;
  for (const bid of order.bids) processBid(world, order, bid, at);
  order.processed = true;
  world.engine.queue = world.engine.queue.filter((id) => id !== order.order_id);
  notifyProcessed(world, order, at);
  completeIfDone(world, order, at);
}

/** Processes every queued order at `now`, whatever its time (POST /__mock/process); returns how many there were. */
export function processQueued(world: World, now: number): number {
  const ids = [...world.engine.queue];
  for (const id of ids) {
    const order = world.orders.get(id);
    if (order) processOrder(world, order, now);
  }
  world.engine.queue = [];
  return ids.length;
}

function refund(world: World, order: Order, bid: Bid, amount: number, at: number): void {
  post(world, order.accountId, amount, LEDGER_KINDS.BID_REFUND, `${order.order_id}:${bid.listing_id}`, at);
}

/** Ends a bid at processing: EXPIRED with `result` and the whole amount credited. */
function fail(world: World, order: Order, bid: Bid, result: Bid['bid_result'], at: number): void {
  bid.bid_result = result;
  bid.bid_status = 'EXPIRED';
  bid.bid_amount_placed = 0;
  refund(world, order, bid, bid.bid_amount, at);
}

function processBid(world: World, order: Order, bid: Bid, at: number): void {
  if (bid.bid_result !== 'NONE' || bid.bid_status !== 'PENDING') return;
  const l = world.listingByNumber.get(bid.listing_id);
  // The market's own steps on it since the last tick come first (the timeline applies them when it is read).
  if (l) settleListing(world, l);
  if (!l || l.listing_status !== LISTING_STATUS.ACTIVE || at >= biddableUntil(l) || at < l.listing_start_date) {
    return fail(world, order, bid, 'LISTING_NOT_BIDDABLE', at);
  }
  const user = world.users.get(world.accounts.get(order.accountId)?.userId ?? '');
  if (user && l.borrowerUserId === user.id) return fail(world, order, bid, 'CANNOT_BID_ON_OWN_LISTING', at);
  if (l.investment_typeid === 2) {
    // A whole loan is taken whole or not at all.
    if (l.amount_funded > 0 || bid.bid_amount !== l.listing_amount) return fail(world, order, bid, 'BID_FAILED', at);
  } else {
    if (user?.fractionalEligible === false) return fail(world, order, bid, 'CANNOT_BID_ON_FRACTIONAL_LOANS', at);
    const cap = youngPartialCap(l, l.listing_creation_date, at);
    if (cap !== null && bid.bid_amount > cap) {
      return fail(world, order, bid, 'LENDER_NOT_ELIGIBLE_TO_BID', at);
    }
  }
  const remaining = cents(l.listing_amount - l.amount_funded);
  if (remaining <= 0) return fail(world, order, bid, 'LISTING_NOT_BIDDABLE', at);
  if (bid.bid_amount <= remaining) {
    bid.bid_result = 'BID_SUCCEEDED';
    bid.bid_amount_placed = bid.bid_amount;
  } else {
    bid.bid_result = 'PARTIAL_BID_SUCCEEDED';
    bid.bid_amount_placed = remaining;
    refund(world, order, bid, cents(bid.bid_amount - remaining), at);
  }
  fund(world, l, bid.bid_amount_placed, at);
  if (canOriginate(l, false)) makePending(world, l, at);
  else listingChanged(world, l);
}
