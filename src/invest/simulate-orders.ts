/**
 * The orders a simulated day's run reads (MarketReads.orders), without reading a year of orders every day. A
 * run counts an order only for its PENDING bids and for the money it asked for today (run.ts `gatherMarket`);
 * an order dated before today whose bids are all past PENDING counts for nothing, today or on any later day
 * (a bid never goes back to PENDING). The simulated account is the only one that orders in its world, and the
 * mock lists an account's orders oldest first, each keeping its place: so the orders before the first that
 * may still count are read once, and every later day reads from that one on. Should the list ever not keep
 * its places (an order id where another was), that day reads every order, as a run against the marketplace does.
 *
 * The order desk's own look before it places (desk.ts `heldBids`: a PENDING or INVESTED bid the marketplace shows)
 * reads the same way: an order left out holds only INVESTED and EXPIRED bids; EXPIRED holds nothing, and a listing
 * with an INVESTED bid is held by the desk's journal (its batch accepted, its outcome INVESTED or not yet seen) and
 * never planned again, so the desk finds for the listings it is given what the whole list would show.
 */
import type { ApiClient } from '../api/client.js';
import * as orders from '../api/orders.js';
import { parseApiDateTime } from '../contract/dates.js';
import { toNumber } from '../contract/decode.js';
import { PAGINATION } from '../contract/enums.js';
import type { SeenOrder } from './run.js';

const DAY = 86_400_000;

/** An order's id for the check of places ('' for none: the marketplace always gives one). */
const idOf = (o: orders.Order): string => o.order_id ?? '';

/** Whether `o` counts for nothing in a run on `now`'s day or any later one. */
export function settledBefore(o: SeenOrder, now: number): boolean {
  if ((o.bid_requests ?? []).some((b) => b.bid_status === 'PENDING')) return false;
  const at = parseApiDateTime(o.order_date ?? '');
  return at === null || at < Math.floor(now / DAY) * DAY;
}

/** MarketReads.orders (and the order desk's list) for the simulation: the account's orders from the first that may still count. */
export function ordersStillCounting(client: ApiClient, now: () => number): () => AsyncIterable<orders.Order> {
  // Order ids by their place in the list as last read, and how many at its head count for nothing.
  let ids: string[] = [];
  let settled = 0;
  /** The orders from `from` on, or null when one is not at the place it had. */
  const readFrom = async (from: number): Promise<orders.Order[] | null> => {
    const read: orders.Order[] = [];
    for (let offset = from; ;) {
      const page = await orders.list(client, offset, PAGINATION.orders.max);
      for (const o of page.result) {
        const known = ids[offset];
        if (known !== undefined && known !== idOf(o)) return null;
        read.push(o);
        offset++;
      }
      if (page.result.length < PAGINATION.orders.max || offset >= (toNumber(page.total_count) ?? Infinity)) return read;
    }
  };
  return async function* () {
    let from = settled;
    let read = await readFrom(from);
    if (read === null) {
      ids = [];
      settled = from = 0;
      read = (await readFrom(0))!;
    }
    ids = [...ids.slice(0, from), ...read.map(idOf)];
    const today = now();
    while (settled < ids.length && settledBefore(read[settled - from]!, today)) settled++;
    yield* read;
  };
}
