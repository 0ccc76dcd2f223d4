// The same story with Node's own test runner, in plain JavaScript (Node 20 runs it as it is):
//   node --test examples/marketplace-client/client.node-test.mjs
// fetch is the client here; msw's setupServer answers it with the marketplace of `mkt/mock`.
// node:test runs the tests it is given one after the other and awaits each itself (awaiting them here would
// end the file's run, and run its `after`, after the first).
/* eslint-disable @typescript-eslint/no-floating-promises */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setupServer } from 'msw/node';
import { createMarketplace } from 'mkt/mock';

const BASE = 'https://api.example.test';
const market = createMarketplace({ seed: 42, listings: 200 });
const server = setupServer(...market.handlers(BASE));

before(() => server.listen({ onUnhandledRequest: 'error' }));
after(async () => {
  server.close();
  await market.close();
});

/** One call of the API as alice's application makes it; the parsed answer and its status. */
async function call(token, method, path, body) {
  const headers = { authorization: `bearer ${token}`, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${BASE}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

test('an order is processed when the clock moves, and paid for', async () => {
  const token = await market.tokenFor('alice');
  const search = await call(token, 'GET', '/listingsvc/v2/listings/?limit=1&amount_remaining_min=25&invested=false');
  assert.equal(search.status, 200);
  const [listing] = search.body.result;
  const cash = (await call(token, 'GET', '/v1/accounts/platform')).body.available_cash_balance;

  const placed = await call(token, 'POST', '/v1/orders/', { bid_requests: [{ listing_id: listing.listing_number, bid_amount: 25 }] });
  assert.equal(placed.status, 200);
  await market.clock.advance('10m');
  const order = await call(token, 'GET', `/v1/orders/${placed.body.order_id}`);
  assert.equal(order.body.bid_requests[0].bid_result, 'BID_SUCCEEDED');
  const cashAfter = (await call(token, 'GET', '/v1/accounts/platform')).body.available_cash_balance;
  assert.equal(Math.round((cash - cashAfter) * 100), 2500);
});

test('an injected fault answers the next order 500, once', async () => {
  const token = await market.tokenFor('bob');
  await market.faults.set({ error_rate: 1, path: '/v1/orders', count: 1 });
  const bids = { bid_requests: [{ listing_id: 1, bid_amount: 25 }] };
  const failed = await call(token, 'POST', '/v1/orders/', bids);
  assert.deepEqual([failed.status, failed.body.code], [500, 'SYS0001']);
  const next = await call(token, 'GET', '/v1/orders/');
  assert.equal(next.status, 200);
});
