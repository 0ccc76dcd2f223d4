import { describe, expect, it } from 'vitest';
import { ApiClient } from '../src/api/client.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../src/api/http.js';
import * as listings from '../src/api/listings.js';
import * as orders from '../src/api/orders.js';
import type { Settings } from '../src/config/settings.js';
import { DecodeError, decodeLoan, decodeNote, decodeOrder } from '../src/contract/decode.js';
import type { TokenProvider } from '../src/api/client.js';

/** A client whose every call is answered 200 with `data`. */
function clientAnswering(data: unknown): ApiClient {
  const http = { send: async (_req: HttpRequest): Promise<HttpResponse> => ({ status: 200, headers: {}, data }) } as unknown as HttpClient;
  const settings = { baseUrl: 'http://127.0.0.1:9/v1', rootUrl: 'http://127.0.0.1:9', authUrl: 'http://127.0.0.1:9' } as Settings;
  const tokens: TokenProvider = { accessToken: async () => 'token' } as TokenProvider;
  return new ApiClient(http, settings, tokens);
}

const order = {
  order_id: '6c3b1a4e-0000-4000-8000-000000000001',
  order_date: '2024-01-02 03:04:05 +0000',
  order_status: 'IN_PROGRESS',
  source: 'API',
  bid_requests: [{ listing_id: 7, bid_amount: 25, bid_status: 'PENDING' }],
  saved_search: null,
  extra: { kept: true },
};

describe('decoding answers at the boundary', () => {
  it('keeps every field of a good answer as it came, in its order', () => {
    const decoded = decodeOrder(order, 'answer');
    expect(decoded).toEqual(order);
    expect(Object.keys(decoded)).toEqual(Object.keys(order));
  });

  it("hands on a page's listings as parsed, not copies of them (a copy each slowed printing them)", async () => {
    const rows = [
      { listing_number: 1, listing_amount: 2000, amount_remaining: 25, platform_rating: 'A', partial_funding_indicator: true },
      { listing_number: 2, listing_amount: '4000.00', listing_creation_date: '2026-01-05', platform_rating: 'N/A' },
    ];
    const page = { result: rows, result_count: 2, total_count: 2 };
    const decoded = await listings.search(clientAnswering(page), new URLSearchParams());
    expect(decoded.result).toHaveLength(2);
    decoded.result.forEach((l, i) => expect(l).toBe(rows[i]));
    expect(decoded.result).toEqual(rows);
  });

  it('reads what the real marketplace sends: decimal strings, unknown statuses, fields left out or null', () => {
    const odd = {
      ...order,
      order_status: 'CANCELLED_BY_PLATFORM',
      bid_requests: [{ listing_id: '7', bid_amount: '25.00', bid_status: 'NEW' }],
      source: undefined,
    };
    expect(decodeOrder(odd, 'answer')).toEqual(odd);
    expect(decodeLoan({ loan_number: 1, loan_default_reason: 0 }, 'answer')).toEqual({ loan_number: 1, loan_default_reason: 0 });
    expect(decodeNote({ platform_rating: 'N/A', note_ownership_amount: '85.63', ownership_end_date: null }, 'answer')).toEqual({
      platform_rating: 'N/A',
      note_ownership_amount: '85.63',
      ownership_end_date: null,
    });
  });

  it('names a field it reads that holds something else than a number or text', () => {
    expect(() => decodeOrder({ ...order, bid_requests: [{ listing_id: 7, bid_amount: 'lots', bid_status: 'PENDING' }] }, 'answer')).toThrow(
      new DecodeError('answer.bid_requests[0].bid_amount', "is not a number (got 'lots')"),
    );
    expect(() => decodeNote({ note_status: true }, 'answer')).toThrow(/answer\.note_status is not a number \(got boolean\)/);
    expect(() => decodeOrder({ ...order, bid_requests: {} }, 'answer')).toThrow(/answer\.bid_requests is not an array/);
  });

  it('turns a 2xx answer of the wrong shape into exit 5 naming the call and the field', async () => {
    await expect(listings.search(clientAnswering({ result: 'nope', total_count: 1 }), new URLSearchParams())).rejects.toMatchObject({
      exitCode: 5,
      message: "listings search: the marketplace's answer cannot be read: answer.result is not an array (got 'nope')",
    });
    await expect(listings.search(clientAnswering('<html>'), new URLSearchParams())).rejects.toMatchObject({
      exitCode: 5,
      message: expect.stringMatching(/answer is not an object/),
    });
  });

  it('reports an order answer without an order id as unreadable, never as a placed order', async () => {
    await expect(
      orders.submit(clientAnswering({ ...order, order_id: undefined }), [{ listing_id: 7, bid_amount: 25 }]),
    ).rejects.toMatchObject({ exitCode: 5, message: expect.stringMatching(/order submit: .*answer\.order_id is not a string/) });
  });
});
