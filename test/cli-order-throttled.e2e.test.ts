/**
 * An order POST answered 429 (issue 41 item 2): the throttle refused it unread, so `order submit` sends it
 * again after the wait asked and it is placed once; past mkt's bound it fails with exit 5, nothing placed,
 * and a rerun places it (the two faults together: a throttled order, then the same command again).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockAdminUrl } from '../src/contract/mock-admin.js';
import { runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';
import { bidsFile, ordersIn } from './helpers/one-bid.js';

let mock: TestMock;
beforeEach(async () => {
  mock = await startMock({ listings: 400, frozen: false });
});
afterEach(async () => {
  await mock.close();
});

/** The next order POST is answered 429 with `Retry-After: retryAfter` by the mock's fault injection, before its handler. */
async function throttleNextOrder(retryAfter: number): Promise<void> {
  const res = await fetch(mockAdminUrl(mock.origin, 'faults'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rate_limit_rate: 1, retry_after: retryAfter, path: '/v1/orders', method: 'POST', count: 1 }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status).toBe(200);
}

describe('an order POST answered 429', () => {
  it('is sent again after the wait asked and placed once', async () => {
    const home = tempHome();
    const file = bidsFile(mock, home);
    await throttleNextOrder(1);
    const r = await runMkt(['order', 'submit', file, '--yes', '--verbose'], { env: mock.env, home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('throttled (HTTP 429, orders): sending again in 1000 ms');
    expect(r.stderr.match(/> POST \S+\/v1\/orders\//g)).toHaveLength(2);
    expect(r.stderr).toMatch(/order 1\/1 accepted: \S+ \(1 bids\)/);
    expect(ordersIn(mock)).toHaveLength(1);
  });

  it('past the bound fails with exit 5 naming the group and the wait, places nothing, and a rerun places it', async () => {
    const home = tempHome();
    const file = bidsFile(mock, home);
    await throttleNextOrder(120);
    const r = await runMkt(['order', 'submit', file, '--yes'], { env: mock.env, home });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(
      "order 1/1 rejected: POST /v1/orders/ failed (HTTP 429): SYS0429: Too many requests; retry after 120 s; the marketplace asked to wait 120 s, past mkt's bound of 60 s of waiting for one request (orders group: 10 requests a second).",
    );
    expect(ordersIn(mock)).toHaveLength(0);
    // The 429 placed nothing: the journal freed the bids, and the same command places them.
    const again = await runMkt(['order', 'submit', file, '--yes'], { env: mock.env, home });
    expect(again.code, again.stderr).toBe(0);
    expect(ordersIn(mock)).toHaveLength(1);
  });
});
