import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMkt, tempHome } from './helpers/cli.js';
import { issueTestToken, startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeEach(async () => {
  // Starts on this machine's clock, so that only the move below sets the two apart.
  mock = await startMock({ listings: 300, frozen: true, start: Date.now() });
});
afterEach(async () => {
  await mock.close();
});

const STRATEGY = 'rules:\n  - name: abc\n    filters:\n      platform_rating: [A, B, C]\n    amount: 25\n    max_listings: 3\n';
const bidsInMock = () => [...mock.app.ctx.world.orders.values()].filter((o) => o.accountId === 'alice-1').flatMap((o) => o.bids);

async function investRun(home: string, env = mock.env) {
  const file = join(home, 'strategy.yaml');
  writeFileSync(file, STRATEGY);
  return runMkt(['invest', 'run', file, '--yes', '-o', 'json'], { env, home, timeoutMs: 30_000 });
}

describe("mkt invest run plans on the marketplace's clock", () => {
  it('after the mock moved 15 days ahead of this machine, it still finds and bids on the listings that have started', async () => {
    const moved = await runMkt(['mock', 'clock', 'advance', '15d'], { env: mock.env });
    expect(moved.code, moved.stderr).toBe(0);
    // The test's token has expired by the mock's clock: a fresh one.
    const r = await investRun(tempHome(), { ...mock.env, MKT_ACCESS_TOKEN: issueTestToken(mock.app) });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { orders: string[]; total_bid: number };
    expect(report.total_bid).toBe(75);
    expect(report.orders).toHaveLength(1);
    // Every listing bid on had started by the mock's time: none is refused as not yet started (ORD0020).
    const now = mock.app.ctx.clock.now();
    for (const b of bidsInMock()) expect(mock.app.ctx.world.listingByNumber.get(b.listing_id)!.listing_start_date).toBeLessThanOrEqual(now);
    expect(bidsInMock()).toHaveLength(3);
  });

  it('after a reset that keeps the moved clock, a run bids again on the new world', async () => {
    await runMkt(['mock', 'clock', 'advance', '15d'], { env: mock.env });
    const reset = await fetch(`${mock.origin}/__mock/reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    // The reset world has its own tokens.
    const r = await investRun(tempHome(), { ...mock.env, MKT_ACCESS_TOKEN: issueTestToken(mock.app) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total_bid: 75 });
  });
});
