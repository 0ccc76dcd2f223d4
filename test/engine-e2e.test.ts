/**
 * The "done when", as a script would do it over HTTP against a running mock: bid on suitably
 * chosen listings, see each outcome, move the clock until the order completes, watch the loan pay
 * month by month, and find the account exactly consistent with all of it.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { cancelledAtOrigination } from '../mock-server/engine/market.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { makeApp, tokenFor } from './engine-fixture.js';

let app: MockApp;
let server: RunningServer;
let token: string;
beforeAll(async () => {
  app = makeApp({ listings: 200 });
  server = await startHttpServer(app, '127.0.0.1', 0);
  token = tokenFor(app, 'alice-1');
});
afterAll(async () => {
  await server.close();
});

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.origin}${path}`, {
    method,
    signal: AbortSignal.timeout(10_000),
    headers: { authorization: `bearer ${token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status).toBeLessThan(300);
  return res.json();
}

test('a whole investing cycle against the mock', async () => {
  const state = await api('GET', '/__mock/state');
  const young = app.ctx.world.listingByNumber.get(state.special_listings.young_partial)!;
  // A nearly funded listing, far from its end, found through the listings search as a script would.
  const search = await api(
    'GET',
    `/listingsvc/v2/listings?amount_remaining_max=500&verification_stage_min=3&limit=100&listing_end_date_min=${'2026-03-06'}`,
  );
  const nearly = search.result.find(
    (l: { listing_number: number }) => !cancelledAtOrigination(app.ctx.world, app.ctx.world.listingByNumber.get(l.listing_number)!),
  );
  expect(nearly).toBeDefined();
  const plain = (await api('GET', '/listingsvc/v2/listings?percent_funded_max=0.5&limit=5&sort_by=listing_number')).result.find(
    (l: { listing_number: number }) => l.listing_number !== young.listing_number && l.listing_number !== nearly.listing_number,
  );

  const before = await api('GET', '/v1/accounts/platform');
  // Where the books stood: the seeded history's earnings and write-offs came before.
  const ledgerBefore = app.ctx.world.ledger.length;
  const lostBefore = app.ctx.world.notes.filter((n) => n.accountId === 'alice-1').reduce((s, n) => s + (n.chargedOff ?? 0), 0);
  const created = await api('POST', '/v1/orders/', {
    bid_requests: [
      { listing_id: plain.listing_number, bid_amount: 25 },
      { listing_id: nearly.listing_number, bid_amount: nearly.amount_remaining + 75 },
      { listing_id: young.listing_number, bid_amount: Math.floor(young.listing_amount * 0.1) + 25 },
    ],
  });
  expect(created.bid_requests.map((b: { bid_status: string }) => b.bid_status)).toEqual(['PENDING', 'PENDING', 'PENDING']);
  await api('POST', '/__mock/process');
  const processed = await api('GET', `/v1/orders/${created.order_id}`);
  expect(processed.bid_requests.map((b: { bid_result: string }) => b.bid_result)).toEqual([
    'BID_SUCCEEDED',
    'PARTIAL_BID_SUCCEEDED',
    'LENDER_NOT_ELIGIBLE_TO_BID',
  ]);
  expect(processed.bid_requests[1].bid_amount_placed).toBe(nearly.amount_remaining);

  let o = processed;
  for (let day = 0; day < 20 && o.order_status !== 'COMPLETED'; day++) {
    await api('POST', '/__mock/clock', { advance: '24h' });
    o = await api('GET', `/v1/orders/${created.order_id}`);
  }
  expect(o.order_status).toBe('COMPLETED');
  const statuses = o.bid_requests.map((b: { bid_status: string }) => b.bid_status);
  expect(statuses).toContain('INVESTED');
  expect(statuses).toContain('EXPIRED');

  const loanNumber = app.ctx.world.listingByNumber.get(nearly.listing_number)!.loan_number;
  const loans = await api('GET', '/v1/loans/');
  expect(loans.result.map((l: { loan_number: number }) => l.loan_number)).toContain(loanNumber);
  const paid: number[] = [];
  for (let month = 0; month < 3; month++) {
    await api('POST', '/__mock/clock', { advance: '31d' });
    paid.push((await api('GET', `/v1/loans/${loanNumber}`)).interest_paid);
  }
  expect(paid[2]).toBeGreaterThan(0);
  expect(paid).toEqual([...paid].sort((a, b) => a - b));

  const after = await api('GET', '/v1/accounts/platform');
  const end = await api('GET', '/__mock/state');
  expect(end.invariants).toEqual({ ok: true, violations: [] });
  const mine = end.accounts.find((a: { account_id: string }) => a.account_id === 'alice-1');
  expect(after.available_cash_balance).toBe(mine.cash);
  expect(after.total_account_value).toBe(mine.total);
  // Everything that left the account's value since came back as earnings or is still held: it only grew by earnings, less
  // principal written off since (what a collection agency collected of it comes back: written off no more).
  const earned = app.ctx.world.ledger
    .slice(ledgerBefore)
    .filter((e) => e.accountId === 'alice-1' && ['INTEREST', 'LATE_FEE', 'SERVICE_FEE', 'COLLECTION_FEE'].includes(e.kind))
    .reduce((s, e) => s + e.amount, 0);
  const lost = app.ctx.world.notes.filter((n) => n.accountId === 'alice-1').reduce((s, n) => s + (n.chargedOff ?? 0), 0) - lostBefore;
  expect(after.total_account_value).toBeCloseTo(before.total_account_value + earned - lost, 2);
});
