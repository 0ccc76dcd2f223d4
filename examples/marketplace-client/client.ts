/**
 * A small client of the marketplace: four calls, a bearer token given by whoever builds it (getting one
 * through the authorization-key flow is the application's business, not this example's).
 */

/** A listing as the search returns it (the fields this client reads; the API sends many more). */
export interface Listing {
  listing_number: number;
  platform_rating: string;
  amount_remaining: number;
  [field: string]: unknown;
}

/** One page of a search: its listings and how many match in all. */
export interface SearchPage {
  listings: Listing[];
  total: number;
}

/** A bid as an order reads back: `bid_result` is NONE until the marketplace has processed it. */
export interface Bid {
  listing_id: number | string;
  bid_amount: number;
  bid_status: string;
  bid_result?: string;
}

/** An order, as placed and as read back. */
export interface Order {
  order_id: string;
  order_status: string;
  bid_requests: Bid[];
}

/** An answer other than 2xx: the status and the API's error code (`SYS0001`, `ORD0019`, `invalid_token`, …). */
export class MarketplaceApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = 'MarketplaceApiError';
  }
}

/** A filter value: a number or boolean, or several values of a multivalue field. */
export type FilterValue = string | number | boolean | readonly string[];

/** A client of one investor's account. */
export class MarketplaceClient {
  private readonly root: string;

  /** `rootUrl`: the marketplace without the version segment, e.g. https://api.example.test. */
  constructor(
    private readonly token: string,
    rootUrl: string,
  ) {
    this.root = rootUrl.replace(/\/+$/, '');
  }

  /** Active listings matching `filter` (e.g. `{ platform_rating: ['A', 'B'], amount_remaining_min: 25 }`). */
  async searchListings(filter: Record<string, FilterValue> = {}, limit = 25): Promise<SearchPage> {
    const query = new URLSearchParams({ limit: String(limit) });
    for (const [field, value] of Object.entries(filter)) query.set(field, Array.isArray(value) ? value.join(',') : String(value));
    const page = await this.call<{ result: Listing[]; total_count: number }>('GET', `/listingsvc/v2/listings/?${query}`);
    return { listings: page.result, total: page.total_count };
  }

  /** Places one order of bids; the marketplace accepts it at once and processes it later. */
  placeOrder(bids: readonly { listingId: number; amount: number }[]): Promise<Order> {
    const body = { bid_requests: bids.map((b) => ({ listing_id: b.listingId, bid_amount: b.amount })) };
    return this.call<Order>('POST', '/v1/orders/', body);
  }

  /** An order with each bid's status and result. */
  getOrder(orderId: string): Promise<Order> {
    return this.call<Order>('GET', `/v1/orders/${encodeURIComponent(orderId)}`);
  }

  /** The account's cash available to bid. */
  async availableCash(): Promise<number> {
    return (await this.call<{ available_cash_balance: number }>('GET', '/v1/accounts/platform')).available_cash_balance;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `bearer ${this.token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.root}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    if (!res.ok) {
      const error = parseError(text);
      throw new MarketplaceApiError(res.status, error.code, error.message);
    }
    return JSON.parse(text) as T;
  }
}

/** The code and message of an error answer: `{code, message}` (the API) or `{error, error_description}` (OAuth). */
function parseError(text: string): { code: string; message: string } {
  try {
    const e = JSON.parse(text) as { code?: string; message?: string; error?: string; error_description?: string };
    return { code: e.code ?? e.error ?? 'UNKNOWN', message: e.message ?? e.error_description ?? text };
  } catch {
    return { code: 'UNKNOWN', message: text.slice(0, 200) };
  }
}
