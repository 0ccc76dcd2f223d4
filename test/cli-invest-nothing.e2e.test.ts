/**
 * `invest run` that bids nothing exits 0 and says why in the `reason` field of `-o json` (and of the --log
 * line), and in one line on stderr where progress is shown (a terminal, or --progress: cron mails stderr):
 * caps used up, no listing matching, every listing found already bid on, cash below the minimum bid.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { money } from '../src/output/columns.js';
import { runMkt, tempHome } from './helpers/cli.js';
import { startMock, TEST_START, type TestMock } from './helpers/mock.js';

let mock: TestMock;
let home: string;
beforeEach(async () => {
  mock = await startMock({ listings: 300, frozen: true, start: TEST_START });
  home = tempHome();
});
afterEach(async () => {
  await mock.close();
});

const strategyFile = (text: string): string => {
  const f = join(home, `strategy-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(f, text);
  return f;
};
const invest = (args: string[]) => runMkt(['invest', ...args], { env: mock.env, home, timeoutMs: 30_000 });
const bidsInMock = () => [...mock.app.ctx.world.orders.values()].filter((o) => o.accountId === 'alice-1').flatMap((o) => o.bids);
const RULE = 'rules:\n  - name: abc\n    filters:\n      platform_rating: [A, B, C]\n    sort_by: lender_yield desc\n    amount: 25\n';

/** Runs the strategy with -o json --progress, expecting exit 0 and no bid: the one stderr line and the report's reason. */
async function nothingBid(f: string, extra: string[] = []): Promise<{ line: string; reason: string }> {
  const before = bidsInMock().length;
  const r = await invest(['run', f, '--yes', '-o', 'json', '--progress', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  expect(bidsInMock()).toHaveLength(before);
  const report = JSON.parse(r.stdout) as { orders: string[]; total_bid: number; reason: string };
  expect(report).toMatchObject({ orders: [], total_bid: 0 });
  const lines = r.stderr.split('\n').filter((l) => /^(dry run: )?nothing (was|would be) bid: /.test(l));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(report.reason);
  return { line: lines[0]!, reason: report.reason };
}

describe('invest run with nothing to do says why', () => {
  it('caps used up: max_per_day reached by earlier runs today', async () => {
    const f = strategyFile(`${RULE}max_per_day: 50\n`);
    const first = await invest(['run', f, '--yes', '-o', 'json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ total_bid: 50, reason: null });
    expect(first.stderr).not.toMatch(/nothing was bid/);
    const log = join(home, 'runs.jsonl');
    const { reason } = await nothingBid(f, ['--log', log]);
    expect(reason).toBe('max_per_day is used up: 50.00 of 50.00 already requested today leaves 0.00, less than the 25.00 minimum bid');
    expect(JSON.parse(readFileSync(log, 'utf8').trim())).toMatchObject({ exit_code: 0, total_bid: 0, reason });
  });

  it('no listing matches the rule', async () => {
    const f = strategyFile('rules:\n  - name: huge\n    filters:\n      listing_amount_min: 1000000\n    amount: 25\n');
    const { line } = await nothingBid(f);
    expect(line).toBe('nothing was bid: no active listing you have not invested in matches the rule');
    const dry = await invest(['run', f, '--dry-run', '--progress']);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain('dry run: nothing would be bid: no active listing you have not invested in matches the rule');
  });

  it('every listing the rule finds is already bid on', async () => {
    const f = strategyFile(`${RULE}    max_listings: 2\n`);
    expect((await invest(['run', f, '--yes'])).code).toBe(0);
    const ids = bidsInMock().map((b) => b.listing_id);
    expect(ids).toHaveLength(2);
    const only = strategyFile(`rules:\n  - name: mine\n    filters:\n      listing_number: [${ids.join(', ')}]\n    amount: 25\n`);
    const { reason } = await nothingBid(only);
    expect(reason).toBe('every listing the rules found is already held or bid on (2 pending)');
  });

  it('cash below the minimum once the reserve is kept', async () => {
    const cash = mock.app.ctx.world.accounts.get('alice-1')!.cash;
    const f = strategyFile(`${RULE}reserve: ${cash - 10}\n`);
    const { reason } = await nothingBid(f);
    expect(reason).toBe(
      `cash is below the minimum: ${money(cash)} available leaves 10.00 after the ${money(cash - 10)} reserve, less than the 25.00 minimum bid`,
    );
  });

  it('a table run says it in one line instead of "bid 0.00 in 0 bids"', async () => {
    const f = strategyFile(`${RULE}max_per_run: 20\n`);
    const r = await invest(['run', f, '--yes', '-o', 'table', '--progress']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('nothing was bid: max_per_run 20.00 is less than the 25.00 minimum bid');
    expect(r.stderr).not.toMatch(/bid 0\.00 in 0 bids/);
  });
});
