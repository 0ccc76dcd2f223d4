/**
 * The client tested against the marketplace running inside this process: msw's setupServer answers its
 * fetch calls with `mkt/mock`'s handlers, so orders are really taken, processed when the clock moves, and
 * paid for from the account's cash.
 */
import { setupServer } from 'msw/node';
import { createMarketplace } from 'mkt/mock';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { MarketplaceApiError, MarketplaceClient } from './client.js';

const BASE = 'https://api.example.test';
const market = createMarketplace({ seed: 42, listings: 200 });
const server = setupServer(...market.handlers(BASE));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers();
  await market.faults.clear();
});
afterAll(async () => {
  server.close();
  await market.close();
});

describe('MarketplaceClient against mkt/mock', () => {
  test('search, order, the clock moves, the bid is processed and paid for', async () => {
    const client = new MarketplaceClient(await market.tokenFor('alice'), BASE);
    const page = await client.searchListings({ platform_rating: ['A', 'B'], amount_remaining_min: 25, invested: false }, 5);
    expect(page.listings.length).toBeGreaterThan(0);
    expect(page.total).toBeGreaterThanOrEqual(page.listings.length);
    for (const l of page.listings) expect(['A', 'B']).toContain(l.platform_rating);

    const cashBefore = await client.availableCash();
    const listing = page.listings[0]!;
    const placed = await client.placeOrder([{ listingId: listing.listing_number, amount: 25 }]);
    expect(placed.order_status).toBe('IN_PROGRESS');
    // The clock stands still until the test moves it: the order waits.
    expect((await client.getOrder(placed.order_id)).bid_requests[0]?.bid_result).toBe('NONE');

    await market.clock.advance('10m');
    const processed = await client.getOrder(placed.order_id);
    expect(processed.bid_requests[0]?.bid_result).toBe('BID_SUCCEEDED');
    expect(await client.availableCash()).toBeCloseTo(cashBefore - 25, 2);
  });

  test('a failing order call is the client error path; the next call goes through', async () => {
    const client = new MarketplaceClient(await market.tokenFor('bob'), BASE);
    const [listing] = (await client.searchListings({ amount_remaining_min: 25, invested: false }, 1)).listings;
    await market.faults.set({ error_rate: 1, path: '/v1/orders', count: 1 });

    const failed = client.placeOrder([{ listingId: listing!.listing_number, amount: 25 }]);
    await expect(failed).rejects.toBeInstanceOf(MarketplaceApiError);
    await expect(failed).rejects.toMatchObject({ status: 500, code: 'SYS0001' });
    // The fault was for one request: the retry is taken.
    const placed = await client.placeOrder([{ listingId: listing!.listing_number, amount: 25 }]);
    expect(placed.order_status).toBe('IN_PROGRESS');
  });

  test('a token the marketplace does not know is a 401', async () => {
    const client = new MarketplaceClient('not-a-token', BASE);
    await expect(client.availableCash()).rejects.toMatchObject({ status: 401, code: 'invalid_token' });
  });
});
