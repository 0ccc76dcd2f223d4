/** Orders: submit (never retried), get, list (one page or all), and the listings of one order. */
import { PAGINATION } from '../contract/enums.js';
import { seg, type ApiClient, type ListEnvelope } from './client.js';
import { paginate } from './pagination.js';

/** A bid as sent. */
export interface BidRequest {
  listing_id: number;
  bid_amount: number;
}

/** A bid as read back. */
export interface Bid {
  listing_id: number | string;
  bid_amount: number;
  bid_amount_placed?: number;
  bid_status: 'PENDING' | 'INVESTED' | 'EXPIRED';
  bid_result?: string;
}

/** An order as read back. */
export interface Order {
  order_id: string;
  order_date: string;
  order_status: 'IN_PROGRESS' | 'COMPLETED';
  order_amount?: number;
  order_amount_placed?: number;
  order_amount_invested?: number;
  bid_requests: Bid[];
  source?: string;
  [field: string]: unknown;
}

/** Submits one order of at most 100 bids. A POST moves money: it is sent exactly once. */
export function submit(client: ApiClient, bids: BidRequest[]): Promise<Order> {
  return client.call<Order>({ method: 'POST', base: 'base', path: '/orders/', json: { bid_requests: bids }, what: 'order submit' });
}

/** One order by id. */
export function get(client: ApiClient, orderId: string): Promise<Order> {
  return client.call<Order>({ method: 'GET', base: 'base', path: `/orders/${seg(orderId)}`, what: `order ${orderId}` });
}

/** One page of the caller's orders. */
export function list(client: ApiClient, offset = 0, limit: number = PAGINATION.orders.default): Promise<ListEnvelope<Order>> {
  const query = new URLSearchParams({ offset: String(offset), limit: String(limit) });
  return client.call<ListEnvelope<Order>>({ method: 'GET', base: 'base', path: '/orders/', query, what: 'order list' });
}

/** Every order, page by page. */
export function listAll(client: ApiClient): AsyncGenerator<Order> {
  return paginate((offset, limit) => list(client, offset, limit), PAGINATION.orders.max);
}

/** One page of the listings in an order. */
export function listings(client: ApiClient, orderId: string, query: URLSearchParams): Promise<ListEnvelope> {
  return client.call<ListEnvelope>({ method: 'GET', base: 'base', path: `/orders/${seg(orderId)}/listings`, query, what: `listings of order ${orderId}` });
}
