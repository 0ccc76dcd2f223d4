/**
 * The page of test/mock-browser.e2e.test.ts, bundled at test time with the page's own msw: it builds a world
 * of 2,000 listings from the browser build of the mock (the test resolves `../../mock-server/app.js` to
 * dist/browser/mock.js; the import here gives the types), forwards every request to https://api.example.test
 * through msw's service worker to the app, and then walks as a client would: signs in, searches listings,
 * places an order, moves the clock an hour and reads the order again, then moves it three days. What it saw goes to `window.walk`.
 */
import { http } from 'msw';
import { setupWorker } from 'msw/browser';
import { createMockApp } from '../../mock-server/app.js';

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
  /** A move of days, stepped a day at a time with turns of the event loop between (no setImmediate in a page). */
  movedDays: unknown;
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
  const app = createMockApp({ seed: 1, listings: 2000, allowPasswordGrant: true });
  const startMs = performance.now() - began;
  const worker = setupWorker(http.all(`${API}/*`, ({ request }) => app.handle(request)));
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } });

  // alice's password, as the admin state shows it; then the password grant (an extension the app was made with).
  const state = await call('GET', '/__mock/state');
  const alice = state.users.find((u: { user: string }) => u.user === 'alice');
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
  // An hour on, the access token has expired: refreshed, as a client does.
  const refreshed = await call('POST', '/v1/security/oauth/token', {
    form: { grant_type: 'refresh_token', ...CLIENT, refresh_token: signIn.refresh_token },
  });
  const after = await call('GET', `/v1/orders/${order.order_id}`, { token: refreshed.access_token });
  const movedDays = await call('POST', '/__mock/clock', { json: { advance: '3d' } });
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
