/**
 * What the marketplace itself says already holds a listing: a PENDING or INVESTED bid in one of the
 * account's orders, or the account's money already in the listing (`invested`,
 * `amount_participation`). The desk asks before placing anything, so that a journal lost, emptied,
 * deleted or cut by a repair never leads to a second bid on the same listing.
 */
import type { ApiClient } from '../api/client.js';
import * as listings from '../api/listings.js';
import type { Order } from '../api/orders.js';
import { bidsOf, toNumber } from '../contract/decode.js';
import { chunk } from './bids-file.js';

/** Listing numbers per listings request: a URL of a hundred numbers stays well under any server's limit. */
const NUMBERS_PER_REQUEST = 100;

/** A listing id as the marketplace sent it, or null when it is not a positive whole number. */
export function listingIdOf(v: unknown): number | null {
  const n = toNumber(v);
  return n !== undefined && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * Why the account's orders hold each of `ids`: a bid PENDING (placed or waiting to be processed) or
 * INVESTED, or a bid whose status is not shown in an order not yet COMPLETED (it may still be pending).
 */
export function heldByOrders(orders: readonly Order[], ids: ReadonlySet<number>): Map<number, string> {
  const out = new Map<number, string>();
  for (const o of orders) {
    const order = typeof o.order_id === 'string' ? `order ${o.order_id}` : 'an order without an id';
    for (const b of bidsOf(o)) {
      const id = listingIdOf(b.listing_id);
      if (id === null || !ids.has(id) || out.has(id)) continue;
      const status = b.bid_status;
      if (status === 'PENDING' || status === 'INVESTED') out.set(id, `the marketplace shows a ${status} bid in ${order}`);
      else if (status !== 'EXPIRED' && o.order_status !== 'COMPLETED')
        out.set(id, `the marketplace shows a bid (status ${status ?? 'not shown'}) in ${order}, not yet completed`);
    }
  }
  return out;
}

/**
 * The active listings among `ids` the account already has money in, with its amount_participation.
 * One request per hundred numbers for fractional listings; whole-loan listings (a separate search)
 * only for the numbers the first did not find.
 */
export async function investedIn(client: ApiClient, ids: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const ask = async (numbers: readonly number[], wholeLoan: boolean): Promise<Set<number>> => {
    const q = new URLSearchParams({
      listing_number: numbers.join(','),
      biddable: 'true',
      whole_loan: String(wholeLoan),
      offset: '0',
      limit: String(numbers.length),
    });
    const found = new Set<number>();
    for (const l of (await listings.search(client, q)).result) {
      const id = listingIdOf(l.listing_number);
      if (id === null) continue;
      found.add(id);
      const amount = toNumber(l.amount_participation) ?? 0;
      if (l.invested === true || amount > 0) out.set(id, amount);
    }
    return found;
  };
  for (const group of chunk([...new Set(ids)], NUMBERS_PER_REQUEST)) {
    const found = await ask(group, false);
    const rest = group.filter((id) => !found.has(id));
    if (rest.length > 0) await ask(rest, true);
  }
  return out;
}
