/**
 * One marketplace, however its address is spelt (issue 22, "URL spellings"): the built CLI against the
 * real mock. A bids file placed through `MKT_BASE_URL=…/v1` is not placed again through `…//v1`,
 * `…/v1/` or `…/./v1` (the journal's key, one account directory), nor through `0.0.0.0` (a bind
 * address, refused before anything is sent); `…/V1` is the mock's 404. Two `invest run`s at once, on
 * `/v1` and `//v1`, share the lock: no listing is bid twice.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
let home: string;
let port: string;
beforeEach(async () => {
  // Frozen on the real clock: orders stay pending, and invest run plans on the listings' real ages.
  mock = await startMock({ listings: 300, frozen: true, start: Date.now() });
  home = tempHome();
  port = new URL(mock.origin).port;
});
afterEach(async () => {
  await mock.close();
});

const aliceBids = () => [...mock.app.ctx.world.orders.values()].filter((o) => o.accountId === 'alice-1').flatMap((o) => o.bids);
/** The account directories of the journal and lock (one per marketplace key). */
const accountDirs = () => {
  try {
    return readdirSync(join(home, 'state', 'accounts'));
  } catch {
    return [];
  }
};
const at = (baseUrl: string) => ({ ...mock.env, MKT_BASE_URL: baseUrl });

/** Listings alice may bid on now (older than two days, room left, no special role). */
function biddable(n: number): number[] {
  const now = mock.app.ctx.clock.now();
  return mock.app.ctx.world.listings
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
        && !l.investmentTypeUnset,
    )
    .slice(0, n)
    .map((l) => l.listing_number);
}

describe('mkt order submit under spellings of one base URL', () => {
  it("places a file once: //v1, /v1/ and /./v1 are refused by the journal, 0.0.0.0 as a bind address, /V1 is the mock's 404", async () => {
    const ids = biddable(2);
    const file = join(home, 'bids.csv');
    writeFileSync(file, `listing_id,bid_amount\n${ids.map((i) => `${i},25`).join('\n')}\n`);
    const submit = (baseUrl: string) => runMkt(['order', 'submit', file, '--yes'], { env: at(baseUrl), home });

    const first = await submit(`http://127.0.0.1:${port}/v1`);
    expect(first.code, first.stderr).toBe(0);
    expect(aliceBids()).toHaveLength(2);

    for (const spelling of [
      `http://127.0.0.1:${port}//v1`,
      `http://127.0.0.1:${port}/v1/`,
      `http://127.0.0.1:${port}/./v1`,
      `http://127.0.0.1:${port}/%76%31`,
    ]) {
      const again = await submit(spelling);
      expect(again.code, `${spelling}: ${again.stderr}`).toBe(2);
      expect(again.stderr, spelling).toContain('nothing was sent');
      expect(aliceBids(), spelling).toHaveLength(2);
    }
    // One marketplace, one journal and lock.
    expect(accountDirs()).toHaveLength(1);

    for (const bind of [`http://0.0.0.0:${port}/v1`, `http://[::]:${port}/v1`, `http://0:${port}/v1`]) {
      const before = mock.app.requestLog.list(1).total;
      const refused = await submit(bind);
      expect(refused.code, `${bind}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr).toMatch(
        /names (0\.0\.0\.0|\[::\]), the address a server listens on \(every interface\), not one a client sends to; nothing was sent/,
      );
      expect(refused.stderr).toMatch(/MKT_BASE_URL/);
      // Refused before the account was asked: no request reached the mock.
      expect(mock.app.requestLog.list(1).total, bind).toBe(before);
    }

    const upper = await submit(`http://127.0.0.1:${port}/V1`);
    expect(upper.code).not.toBe(0);
    expect(upper.stderr).toMatch(/404/);
    expect(aliceBids()).toHaveLength(2);
    expect(accountDirs()).toHaveLength(1);
  }, 60_000);
});

describe('mkt invest run under two spellings at once', () => {
  it('shares one lock: the runs on /v1 and //v1 bid no listing twice and no more than one run would', async () => {
    // max_per_day spans runs: together they may bid what one alone would, 10 × 25.
    const strategy = join(home, 'strategy.yaml');
    writeFileSync(
      strategy,
      'rules:\n  - name: abc\n    filters:\n      platform_rating: [A, B, C]\n    sort_by: lender_yield desc\n    amount: 25\nmax_per_run: 250\nmax_per_day: 250\n',
    );
    const run = (baseUrl: string) => runMkt(['invest', 'run', strategy, '--yes'], { env: at(baseUrl), home, timeoutMs: 30_000 });
    const [a, b] = await Promise.all([run(`http://127.0.0.1:${port}/v1`), run(`http://127.0.0.1:${port}//v1`)]);
    // The second waits for the lock, then plans from what the first placed (exit 0), or gives up (exit 2).
    expect([0, 2], a.stderr).toContain(a.code);
    expect([0, 2], b.stderr).toContain(b.code);
    const ids = aliceBids().map((x) => x.listing_id);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
    expect(accountDirs()).toHaveLength(1);
  }, 60_000);
});
