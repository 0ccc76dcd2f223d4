import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS, type RateGroup } from '../src/contract/rate-limits.js';
import { runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';
import { busiestSecond, startThrottleProxy, type ThrottleProxy } from './helpers/throttle-proxy.js';
import { RATE_LIMIT_ON } from '../mock-server/http/rate-limit.js';

// Issue 41 item 2: mkt keeps under the limits it knows. The proxy in front of an unthrottled mock counts what
// passes each second (the contract's limits, a sliding second per token); the last test meets the mock's own throttle.
let mock: TestMock;
let proxy: ThrottleProxy;
let active: number;
beforeAll(async () => {
  mock = await startMock({ listings: 22_000 });
  active = mock.app.ctx.world.listings.filter((l) => l.listing_status === 2 && l.investment_typeid === 1).length;
  proxy = await startThrottleProxy(mock.origin);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

/** The proxy's counts, from zero for each test. */
function resetCounts(): void {
  proxy.passed.clear();
  proxy.throttled.clear();
}

describe('mkt paces itself under the rate limits (spawned binary, throttling proxy)', () => {
  it('follows every page of a search in small pages without one 429, never more than 20 requests in a second', async () => {
    resetCounts();
    // Pages of 25 come back faster than 20 a second: unpaced, this search meets the throttle.
    const r = await runMkt(['listings', 'search', '--all', '-o', 'ndjson', '--limit', '25', '--platform_rating', 'AA'], {
      env: { ...mock.env, MKT_ROOT_URL: proxy.origin },
      timeoutMs: 40_000,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const expected = mock.app.ctx.world.listings.filter(
      (l) => l.listing_status === 2 && l.investment_typeid === 1 && l.platform_rating === 'AA',
    ).length;
    expect(r.stdout.trim().split('\n')).toHaveLength(expected);
    const pages = proxy.passed.get('listings') ?? [];
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(expected / 25));
    expect(pages.length).toBeGreaterThan(RATE_LIMITS.listings * 2);
    expect(proxy.throttled.get('listings') ?? 0).toBe(0);
    expect(busiestSecond(pages)).toBeLessThanOrEqual(RATE_LIMITS.listings);
  }, 45_000);

  it('follows ~20,000 listings in pages of 500 without one 429', async () => {
    resetCounts();
    expect(active).toBeGreaterThanOrEqual(19_000);
    const r = await runMkt(['listings', 'search', '--all', '-o', 'ndjson'], {
      env: { ...mock.env, MKT_ROOT_URL: proxy.origin },
      timeoutMs: 40_000,
    });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(active);
    const pages = proxy.passed.get('listings') ?? [];
    expect(pages).toHaveLength(Math.ceil(active / 500) + (active % 500 === 0 ? 1 : 0));
    expect(proxy.throttled.get('listings') ?? 0).toBe(0);
    expect(busiestSecond(pages)).toBeLessThanOrEqual(RATE_LIMITS.listings);
  }, 45_000);

  it('invests through every group (account, listings, orders) without one 429', async () => {
    resetCounts();
    const home = tempHome();
    const strategy = join(home, 'strategy.yaml');
    // Fifteen orders of 100 bids, after the listings pages and the account's reads: unpaced, the tenth meets the orders limit.
    writeFileSync(
      strategy,
      'max_bids_per_run: 1500\nrules:\n  - name: abc\n    filters:\n      platform_rating: [A, B, C]\n    amount: 25\n',
    );
    const r = await runMkt(['invest', 'run', strategy, '--yes', '--progress'], {
      env: { ...mock.env, MKT_ROOT_URL: proxy.origin },
      home,
      timeoutMs: 40_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/order 15\/15 accepted/);
    for (const group of ['account', 'listings', 'orders'] as RateGroup[]) {
      expect(proxy.passed.get(group)?.length ?? 0, group).toBeGreaterThan(0);
      expect(proxy.throttled.get(group) ?? 0, group).toBe(0);
      expect(busiestSecond(proxy.passed.get(group) ?? []), group).toBeLessThanOrEqual(RATE_LIMITS[group]);
    }
  }, 45_000);

  it('submits a file of 1,500 bids as 15 orders without one 429', async () => {
    resetCounts();
    const home = tempHome();
    const now = mock.app.ctx.clock.now();
    // Listings the invest test above did not bid on: those would be left out as held.
    const bidOn = new Set([...mock.app.ctx.world.orders.values()].flatMap((o) => o.bids.map((b) => b.listing_id)));
    const ids = mock.app.ctx.world.listings
      .filter(
        (l) =>
          l.listing_status === 2
          && l.investment_typeid === 1
          && l.amount_remaining >= 100
          && !l.borrowerUserId
          && now - l.listing_creation_date > 2 * 86_400_000
          && l.listing_start_date < now
          && !l.mockRole
          && !l.authorizedUsers
          && !l.investmentTypeUnset
          && !bidOn.has(l.listing_number),
      )
      .slice(0, 1500)
      .map((l) => l.listing_number);
    expect(ids).toHaveLength(1500);
    const file = join(home, 'bids.csv');
    writeFileSync(file, `listing_id,bid_amount\n${ids.map((id) => `${id},25`).join('\n')}\n`);
    const r = await runMkt(['order', 'submit', file, '--yes', '--progress'], {
      env: { ...mock.env, MKT_ROOT_URL: proxy.origin },
      home,
      timeoutMs: 40_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/order 15\/15 accepted/);
    expect(proxy.throttled.get('orders') ?? 0).toBe(0);
    expect(busiestSecond(proxy.passed.get('orders') ?? [])).toBeLessThanOrEqual(RATE_LIMITS.orders);
  }, 45_000);
});

describe("mkt paces itself under the mock's own throttle (issue 41: the default mock, throttling on)", () => {
  it('follows ~20,000 listings with --all: the request log holds no 429, every page a 200', async () => {
    const throttled = await startMock({ listings: 22_000, rateLimit: RATE_LIMIT_ON, requestLogSize: 5000 });
    try {
      const r = await runMkt(['listings', 'search', '--all', '-o', 'ndjson', '--limit', '100'], { env: throttled.env, timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
      const listed = throttled.app.requestLog.list(5000, undefined, 0).result;
      const searches = listed.filter((e) => e.path.startsWith('/listingsvc/'));
      // Pages of 100: far more than 20 in a second if sent unpaced.
      expect(searches.length).toBeGreaterThan(RATE_LIMITS.listings * 5);
      expect(searches.filter((e) => e.status === 429)).toEqual([]);
      expect(new Set(searches.map((e) => e.status))).toEqual(new Set([200]));
    } finally {
      await throttled.close();
    }
  }, 90_000);
});
