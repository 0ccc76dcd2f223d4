/** Orders: submit (never retried), get, list (one page or all), and the listings of one order. */
import {
  decodeEnvelope,
  decodeOrder,
  decodeOrderListing,
  decodePlacedOrder,
  type Order,
  type OrderListing,
  type Page,
  type PlacedOrder,
} from '../contract/decode.js';
import { PAGINATION } from '../contract/enums.js';
import type { BidRequest } from '../contract/resources.js';
import { seg, type ApiClient } from './client.js';
import { paginate } from './pagination.js';

export type { BidRequest } from '../contract/resources.js';
export type { Bid, Order, OrderListing, PlacedOrder } from '../contract/decode.js';

const decodeOrderPage = decodeEnvelope(decodeOrder);
const decodeListingPage = decodeEnvelope(decodeOrderListing);

/** Submits one order of at most 100 bids. A POST moves money: it is sent exactly once. */
export function submit(client: ApiClient, bids: BidRequest[]): Promise<PlacedOrder> {
  return client.call({
    method: 'POST',
    base: 'base',
    path: '/orders/',
    json: { bid_requests: bids },
    what: 'order submit',
    decode: decodePlacedOrder,
  });
}

/** One order by id. */
export function get(client: ApiClient, orderId: string): Promise<Order> {
  return client.call({ method: 'GET', base: 'base', path: `/orders/${seg(orderId)}`, what: `order ${orderId}`, decode: decodeOrder });
}

/** One page of the caller's orders. */
export function list(client: ApiClient, offset = 0, limit: number = PAGINATION.orders.default): Promise<Page<Order>> {
  const query = new URLSearchParams({ offset: String(offset), limit: String(limit) });
  return client.call({ method: 'GET', base: 'base', path: '/orders/', query, what: 'order list', decode: decodeOrderPage });
}

/** Every order, page by page. */
export function listAll(client: ApiClient): AsyncGenerator<Order> {
  return paginate((offset, limit) => list(client, offset, limit), PAGINATION.orders.max);
}

/** One page of the listings in an order. */
export function listings(client: ApiClient, orderId: string, query: URLSearchParams): Promise<Page<OrderListing>> {
  return client.call({
    method: 'GET',
    base: 'base',
    path: `/orders/${seg(orderId)}/listings`,
    query,
    what: `listings of order ${orderId}`,
    decode: decodeListingPage,
  });
}
