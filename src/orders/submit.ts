/**
 * Submitting bids safely: reconcile any order whose answer was lost, refuse listings the journal
 * holds, journal each order before it is sent and its result after, and split into orders of 100.
 */
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../api/client.js';
import { ApiError, ConnectionError } from '../api/errors.js';
import * as orders from '../api/orders.js';
import { MAX_BIDS_PER_ORDER } from '../contract/enums.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { chunk, type PlannedBid } from './bids-file.js';
import type { Journal } from './journal.js';
import type { Marketplace } from './marketplace.js';

const nowIso = (): string => new Date().toISOString();

/** One order as it went. */
export interface SentOrder {
  batch: string;
  order: orders.Order;
}

/** Records the bid statuses an order shows, so that the journal's holds follow the marketplace. */
export function recordOutcome(journal: Journal, order: orders.Order): void {
  journal.append({
    t: 'outcome', at: nowIso(), order_id: order.order_id,
    bids: order.bid_requests.map((b) => ({ listing_id: Number(b.listing_id), bid_status: b.bid_status, bid_result: b.bid_result })),
  });
}

const sameBids = (a: orders.BidRequest[], b: orders.Bid[]): boolean =>
  a.length === b.length && a.every((x) => b.some((y) => Number(y.listing_id) === x.listing_id && Number(y.bid_amount) === x.bid_amount));

/**
 * Settles every batch whose answer was never seen: finds the order it created among the caller's
 * orders (same bids, not claimed by another batch), or records that nothing was placed.
 * Returns how many were settled each way.
 */
export async function reconcile(client: ApiClient, journal: Journal, market: Marketplace, info: (line: string) => void): Promise<{ found: number; absent: number }> {
  const batches = journal.batches(market);
  const unknown = batches.filter((b) => b.status === 'unknown');
  if (unknown.length === 0) return { found: 0, absent: 0 };
  info(`reconciling ${unknown.length} order${unknown.length > 1 ? 's' : ''} whose answer was lost…`);
  const claimed = new Set(batches.filter((b) => b.orderId).map((b) => b.orderId!));
  const all: orders.Order[] = [];
  for await (const o of orders.listAll(client)) all.push(o);
  let found = 0;
  let absent = 0;
  for (const b of unknown) {
    const match = all.find((o) => !claimed.has(o.order_id) && sameBids(b.bids, o.bid_requests));
    journal.append({ t: 'reconciled', batch: b.batch, at: nowIso(), order_id: match?.order_id ?? null });
    if (match) {
      claimed.add(match.order_id);
      found++;
      info(`  order ${match.order_id} was placed (the answer had been lost); it will not be sent again`);
    } else {
      absent++;
      info(`  batch ${b.batch} never reached the marketplace; its bids are free to send`);
    }
  }
  return { found, absent };
}

/**
 * Refuses bids on listings the journal holds (outcome unknown, PENDING or INVESTED). A PENDING hold
 * is first checked against the marketplace, since the bid may have expired since.
 */
export async function checkDuplicates(client: ApiClient, journal: Journal, market: Marketplace, bids: PlannedBid[], source: string): Promise<void> {
  let holds = journal.holds(market);
  const pendingOrders = new Set(bids.map((b) => holds.get(b.listing_id)).filter((h) => h?.state === 'PENDING').map((h) => h!.orderId!));
  for (const id of pendingOrders) recordOutcome(journal, await orders.get(client, id));
  if (pendingOrders.size > 0) holds = journal.holds(market);
  const refused = bids.filter((b) => holds.has(b.listing_id));
  if (refused.length === 0) return;
  const lines = refused.map((b) => {
    const h = holds.get(b.listing_id)!;
    const why = h.state === 'unknown' ? 'an earlier order with it has no known outcome' : `already ${h.state} in order ${h.orderId}`;
    return `${source} line ${b.line}: listing ${b.listing_id}: ${why}`;
  });
  throw new UsageError(
    `refusing ${refused.length} bid${refused.length > 1 ? 's' : ''} that could place money twice; nothing was sent:\n  ${lines.join('\n  ')}`,
    'use --allow-duplicate if you really mean to bid again on these listings',
  );
}

/** Sends the bids as orders of at most 100, journalling each before and after. Stops at the first failure. */
export async function sendOrders(client: ApiClient, journal: Journal, market: Marketplace, bids: PlannedBid[], info: (line: string) => void): Promise<SentOrder[]> {
  const sent: SentOrder[] = [];
  const groups = chunk(bids.map(({ listing_id, bid_amount }) => ({ listing_id, bid_amount })), MAX_BIDS_PER_ORDER);
  for (const [i, group] of groups.entries()) {
    const batch = randomUUID();
    journal.append({ t: 'intent', batch, at: nowIso(), base_url: market.baseUrl, market: market.key, bids: group });
    try {
      const order = await orders.submit(client, group);
      journal.append({ t: 'accepted', batch, at: nowIso(), order_id: order.order_id });
      recordOutcome(journal, order);
      sent.push({ batch, order });
      info(`order ${i + 1}/${groups.length} accepted: ${order.order_id} (${group.length} bids)`);
    } catch (err) {
      const placed = sent.length ? ` Orders already placed: ${sent.map((s) => s.order.order_id).join(', ')}.` : '';
      if (err instanceof ApiError && err.status < 500) {
        journal.append({ t: 'rejected', batch, at: nowIso(), status: err.status, code: err.code, message: err.message });
        const detail = err.code === 'ORD0021' ? await fundsDetail(client, group) : '';
        throw new CliError(`order ${i + 1}/${groups.length} rejected: ${err.message}${detail}.${placed}`, err.exitCode, err.hint ?? rejectionHint(err.code));
      }
      const reason = err instanceof Error ? err.message : String(err);
      journal.append({ t: 'lost', batch, at: nowIso(), error: reason });
      throw new CliError(
        `order ${i + 1}/${groups.length}: no answer from the marketplace (${reason}); it may or may not have been placed.${placed}`,
        err instanceof ConnectionError || err instanceof ApiError ? EXIT.UNREACHABLE : EXIT.BUG,
        'run the same command again: it first checks the marketplace for this order and never sends it twice',
      );
    }
  }
  return sent;
}

/** For ORD0021: what is available against what the order needed. */
async function fundsDetail(client: ApiClient, group: orders.BidRequest[]): Promise<string> {
  const total = group.reduce((sum, b) => sum + b.bid_amount, 0);
  try {
    const { platform } = await import('../api/accounts.js');
    const account = await platform(client);
    return ` (insufficient funds: available ${account.available_cash_balance.toFixed(2)}, order total ${total.toFixed(2)})`;
  } catch {
    return ` (order total ${total.toFixed(2)})`;
  }
}

/** What the user can do about an order rejection. */
export function rejectionHint(code: string | undefined): string | undefined {
  switch (code) {
    case 'ORD0021': return 'insufficient funds: check `mkt account` and lower the amounts or the number of bids';
    case 'ORD0005': return 'amounts must be at least 25.00 with at most 2 decimals';
    case 'ORD0003': return 'the listing does not exist; check the number with `mkt listings get`';
    case 'ORD0013': case 'ORD0019': return 'the listing no longer takes bids; search for active ones with `mkt listings search`';
    case 'ORD0015': return 'the amount is above the whole listing amount';
    case 'ORD0030': return 'a listing may appear only once in an order';
    case 'ORD0012': case 'ORD0036': return 'your account may not bid on this kind of listing (whole-loan vs fractional)';
    case 'ORD0040': case 'ORD0022': return "your state or financial suitability does not allow this investment";
    default: return undefined;
  }
}
