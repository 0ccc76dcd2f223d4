/**
 * The page of test/mock-browser.e2e.test.ts, bundled at test time with the page's own msw: it builds a world
 * of 2,000 listings from the browser build of `mkt/mock` (the test resolves `../../mock-server/library/index.js`
 * to the build's mock.js; the import here gives the types), serves https://api.example.test through msw's
 * service worker with the marketplace's handlers, and then walks as a client would: signs in (the password
 * grant, over the worker), searches listings, places an order, moves the clock and reads the order again, then
 * moves it three days. What it saw goes to `window.walk`.
 */
import { setupWorker } from 'msw/browser';
import { createMarketplace } from '../../mock-server/library/index.js';

const API = 'https://api.example.test';
const CLIENT = { client_id: 'mkt-demo', client_secret: 'mkt-demo-secret' };

/** What the page saw, read by the test. */
export interface Walk {
  startMs: number;
  listingsTotal: number;
  orderStatusBefore: string;
  bidResultBefore: string;
  moved: unknown;
  orderStatusAfter: string;
  bidResultAfter: string;
  bidAmountPlaced: number;
  /** A move of days, stepped a day at a time with turns of the event loop between (no setImmediate in a page): the clock after it. */
  movedDays: string;
}

/** One call to the API through the page's fetch (the worker answers it); throws on a status other than 200. */
async function call(method: string, path: string, o: { token?: string; json?: unknown; form?: Record<string, string> } = {}): Promise<any> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  let body: BodyInit | undefined;
  if (o.form) body = new URLSearchParams(o.form);
  else if (o.json !== undefined) {
    body = JSON.stringify(o.json);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${API}${path}`, { method, headers, ...(body ? { body } : {}) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function walk(): Promise<Walk> {
  const began = performance.now();
  const market = createMarketplace({ seed: 1, listings: 2000, allowPasswordGrant: true });
  const startMs = performance.now() - began;
  const worker = setupWorker(...market.handlers(API));
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } });

  // alice's password, as the marketplace lists it; then the password grant (an extension it was made with), over the worker.
  const alice = (await market.accounts()).find((u) => u.user === 'alice')!;
  const signIn = await call('POST', '/v1/security/oauth/token', {
    form: { grant_type: 'password', ...CLIENT, username: 'alice', password: alice.password },
  });
  const search = await call('GET', '/listingsvc/v2/listings/?limit=100', { token: signIn.access_token });
  const listing = search.result.find(
    (l: { biddable: boolean; investment_typeid: number; amount_remaining: number }) =>
      l.biddable && l.investment_typeid === 1 && l.amount_remaining >= 25,
  );
  if (!listing) throw new Error('no listing alice may bid on among the first 100');
  const order = await call('POST', '/v1/orders/', {
    token: signIn.access_token,
    json: { bid_requests: [{ listing_id: listing.listing_number, bid_amount: 25 }] },
  });
  const before = await call('GET', `/v1/orders/${order.order_id}`, { token: signIn.access_token });
  const moved = await call('POST', '/__mock/clock', { json: { advance: '1h' } });
  if (market.clock.now().getTime() - Date.parse('2026-01-05T14:00:00Z') !== 3_600_000)
    throw new Error('the admin route and clock.now() disagree');
  // An hour on, the access token has expired: refreshed, as a client does.
  const refreshed = await call('POST', '/v1/security/oauth/token', {
    form: { grant_type: 'refresh_token', ...CLIENT, refresh_token: signIn.refresh_token },
  });
  const after = await call('GET', `/v1/orders/${order.order_id}`, { token: refreshed.access_token });
  const movedDays = (await market.clock.advance('3d')).toISOString();
  return {
    startMs,
    listingsTotal: search.total_count,
    orderStatusBefore: before.order_status,
    bidResultBefore: before.bid_requests[0].bid_result,
    moved,
    orderStatusAfter: after.order_status,
    bidResultAfter: after.bid_requests[0].bid_result,
    bidAmountPlaced: after.bid_requests[0].bid_amount_placed,
    movedDays,
  };
}

walk().then(
  (seen) => {
    (window as unknown as { walk: Walk }).walk = seen;
    document.documentElement.dataset.done = 'yes';
  },
  (err: unknown) => {
    document.documentElement.dataset.error = err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err);
  },
);
