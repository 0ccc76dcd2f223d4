/**
 * The spec's email notifications, kept as an outbox in the world: when an order's validation fails,
 * when an order is processed, and when it completes, the investor who owns the account gets one
 * message if registered (every seeded investor is). Each is appended in the same change of the world
 * as the transition it reports, so the state file holds both or neither: a crash can neither lose a
 * message nor, on the replay after a restart, send it twice.
 */
import { formatDateTime } from '../../src/contract/dates.js';
import type { NotificationKind } from '../../src/contract/mock-inspect-schemas.js';
import type { ApiError } from '../kit/api-error.js';
import { cents } from '../kit/money.js';
import type { Order, World } from '../world/world.js';

/** The domain of the seeded investors' addresses (reserved for examples, RFC 2606). */
const INVESTOR_EMAIL_DOMAIN = 'investors.example';

/** The address a seeded investor registered for notifications. */
export function investorEmail(userId: string): string {
  return `${userId}@${INVESTOR_EMAIL_DOMAIN}`;
}

/** `1234.5` as `$1,234.50`. */
function dollars(amount: number): string {
  const [whole, frac] = cents(amount).toFixed(2).split('.');
  return `$${whole!.replace(/\B(?=(\d{3})+$)/g, ',')}.${frac}`;
}

/** `{ A: 2, B: 0, C: 1 }` as `2 a, 1 c` (zero counts left out; `none` when all are). */
function counts(byName: Record<string, number>): string {
  const parts = Object.entries(byName)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${n} ${name.toLowerCase().replaceAll('_', ' ')}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

function tally<T extends string>(values: readonly T[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

/** Appends one message for the owner of `accountId`, when registered. */
function send(
  world: World,
  accountId: string,
  kind: NotificationKind,
  orderId: string | null,
  subject: string,
  lines: string[],
  at: number,
): void {
  const user = world.users.get(world.accounts.get(accountId)?.userId ?? '');
  if (!user?.email) return;
  const text = [
    `Hello ${user.name},`,
    '',
    ...lines,
    '',
    `Account ${accountId}. This is an automated message from the marketplace (mkt mock).`,
  ].join('\n');
  world.outbox.messages.push({ id: world.outbox.next++, to: user.email, kind, order_id: orderId, subject, text, sent_at: at });
}

function orderTotals(order: Order) {
  const ordered = cents(order.bids.reduce((s, b) => s + b.bid_amount, 0));
  const placed = cents(order.bids.reduce((s, b) => s + (b.bid_status === 'EXPIRED' ? 0 : b.bid_amount_placed), 0));
  return { ordered, placed, returned: cents(ordered - placed) };
}

/** The order has been processed: every bid has its bid_result. */
export function notifyProcessed(world: World, order: Order, at: number): void {
  const { ordered, placed, returned } = orderTotals(order);
  send(
    world,
    order.accountId,
    'order_processed',
    order.order_id,
    `Your order ${order.order_id} has been processed`,
    [
      `Your order ${order.order_id} of ${formatDateTime(order.order_date)} was processed on ${formatDateTime(at)}.`,
      `Bids: ${order.bids.length} (results: ${counts(tally(order.bids.map((b) => b.bid_result)))}).`,
      `Bid status: ${counts(tally(order.bids.map((b) => b.bid_status)))}.`,
      `Amount ordered: ${dollars(ordered)}; placed: ${dollars(placed)}; returned to your cash balance: ${dollars(returned)}.`,
      order.bids.every((b) => b.bid_status !== 'PENDING')
        ? 'No bid is left pending: the order is complete.'
        : 'Pending bids are invested when their listings originate; you will get another email when the order completes.',
    ],
    at,
  );
}

/** The order is COMPLETED: every bid INVESTED or EXPIRED. */
export function notifyCompleted(world: World, order: Order, at: number): void {
  const { ordered, placed, returned } = orderTotals(order);
  const notes = order.bids.filter((b) => b.bid_status === 'INVESTED').length;
  send(
    world,
    order.accountId,
    'order_completed',
    order.order_id,
    `Your order ${order.order_id} is complete`,
    [
      `Your order ${order.order_id} of ${formatDateTime(order.order_date)} completed on ${formatDateTime(at)}.`,
      `Bids: ${order.bids.length} (status: ${counts(tally(order.bids.map((b) => b.bid_status)))}).`,
      `Amount ordered: ${dollars(ordered)}; invested: ${dollars(placed)} in ${notes} note${notes === 1 ? '' : 's'}; returned to your cash balance: ${dollars(returned)}.`,
    ],
    at,
  );
}

/** POST /orders failed validation with `error` (an ORD code): no order was created and no money moved. */
export function notifyRejected(world: World, accountId: string, body: unknown, error: ApiError, at: number): void {
  const entries = body !== null && typeof body === 'object' ? (body as { bid_requests?: unknown }).bid_requests : undefined;
  const bids = Array.isArray(entries) ? entries : [];
  const total = cents(
    bids.reduce<number>((s, b) => {
      const amount = b !== null && typeof b === 'object' ? (b as { bid_amount?: unknown }).bid_amount : undefined;
      return s + (typeof amount === 'number' && amount > 0 && amount < 1e12 ? amount : 0);
    }, 0),
  );
  const code = String(error.body.code);
  send(
    world,
    accountId,
    'order_validation_error',
    null,
    `Your order could not be placed (${code})`,
    [
      `Your order of ${formatDateTime(at)} could not be placed: ${code}: ${String(error.body.message ?? '')}`,
      `Bid requests: ${bids.length}, totalling ${dollars(total)}.`,
      'No order was created and no money was moved. Correct the order and submit it again.',
    ],
    at,
  );
}
