/** Orders: submit (never retried), get, list (one page or all), and the listings of one order. */
import { decodeEnvelope, decodeOrder, decodeOrderListing } from '../contract/decode.js';
import { PAGINATION } from '../contract/enums.js';
import type { BidRequest, ListEnvelope, Order, OrderListing } from '../contract/resources.js';
import { seg, type ApiClient } from './client.js';
import { paginate } from './pagination.js';

export type { Bid, BidRequest, Order, OrderListing } from '../contract/resources.js';

const decodeOrderPage = decodeEnvelope(decodeOrder);
const decodeListingPage = decodeEnvelope(decodeOrderListing);

/** Submits one order of at most 100 bids. A POST moves money: it is sent exactly once. */
export function submit(client: ApiClient, bids: BidRequest[]): Promise<Order> {
  return client.call({ method: 'POST', base: 'base', path: '/orders/', json: { bid_requests: bids }, what: 'order submit', decode: decodeOrder });
}

/** One order by id. */
export function get(client: ApiClient, orderId: string): Promise<Order> {
  return client.call({ method: 'GET', base: 'base', path: `/orders/${seg(orderId)}`, what: `order ${orderId}`, decode: decodeOrder });
}

/** One page of the caller's orders. */
export function list(client: ApiClient, offset = 0, limit: number = PAGINATION.orders.default): Promise<ListEnvelope<Order>> {
  const query = new URLSearchParams({ offset: String(offset), limit: String(limit) });
  return client.call({ method: 'GET', base: 'base', path: '/orders/', query, what: 'order list', decode: decodeOrderPage });
}

/** Every order, page by page. */
export function listAll(client: ApiClient): AsyncGenerator<Order> {
  return paginate((offset, limit) => list(client, offset, limit), PAGINATION.orders.max);
}

/** One page of the listings in an order. */
export function listings(client: ApiClient, orderId: string, query: URLSearchParams): Promise<ListEnvelope<OrderListing>> {
  return client.call({ method: 'GET', base: 'base', path: `/orders/${seg(orderId)}/listings`, query, what: `listings of order ${orderId}`, decode: decodeListingPage });
}
