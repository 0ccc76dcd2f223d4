import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN, runMkt, tempHome } from './helpers/cli.js';
import { startMock, TEST_START, type TestMock } from './helpers/mock.js';

let mock: TestMock;
let home: string;
beforeEach(async () => {
  // Months behind this machine's clock: the CLI plans on the marketplace's (listing ages, orders of today).
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
/** The environment runMkt gives a child, for a child spawned by hand. */
const cliEnv = (h: string, env: Record<string, string>): Record<string, string> => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: h,
  MKT_CONFIG_DIR: join(h, 'config'),
  MKT_STATE_DIR: join(h, 'state'),
  MKT_CREDENTIAL_STORE: 'file',
  ...env,
});
const invest = (args: string[]) => runMkt(['invest', ...args], { env: mock.env, home, timeoutMs: 30_000 });
const bidsInMock = () => [...mock.app.ctx.world.orders.values()].filter((o) => o.accountId === 'alice-1').flatMap((o) => o.bids);
/**
 * Starts `invest run STRATEGY --yes --wait` in the background and resolves once its order is accepted: on the
 * frozen mock nothing is processed until asked, so the run then follows its order while holding the lock.
 */
async function startHoldingRun(f: string) {
  const first = spawn(process.execPath, [BIN, 'invest', 'run', f, '--yes', '--wait', '--timeout', '60', '--progress'], {
    env: cliEnv(home, mock.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  first.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const firstDone = new Promise<number | null>((resolve) => first.on('close', resolve));
  for (let i = 0; i < 200 && !/accepted/.test(err); i++) await new Promise((r) => setTimeout(r, 100));
  expect(err).toContain('accepted');
  return { first, firstDone, stderr: () => err };
}
const RULE = 'rules:\n  - name: abc\n    filters:\n      platform_rating: [A, B, C]\n    sort_by: lender_yield desc\n    amount: 25\n';

/** A local webhook and healthcheck catcher: every request's method, path and body. */
async function catcher() {
  const seen: { method: string; path: string; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req
      .setEncoding('utf8')
      .on('data', (d: string) => (body += d))
      .on('end', () => {
        seen.push({ method: req.method ?? '', path: req.url ?? '', body });
        res.end('OK');
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { seen, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('mkt invest check', () => {
  it('exits 2 with every problem as FILE:LINE: key: message, an unknown filter with a suggestion', async () => {
    const f = strategyFile('rules:\n  - name: a\n    filters:\n      fico_scor: 760-779\n    amount: 10\nreserve: -1\n');
    const r = await invest(['check', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${f}:4: rules[0].filters.fico_scor: not a listings filter; did you mean fico_score?`);
    expect(r.stderr).toContain(`${f}:5: rules[0].amount: 10 is below the 25.00 minimum bid`);
    expect(r.stderr).toContain(`${f}:6: reserve: -1 is negative`);
    expect(r.stdout).toBe('');
  });

  it('exits 0 on a good file, and says when the marketplace next releases listings (for timing a cron line)', async () => {
    const r = await invest(['check', strategyFile(RULE)]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /next listings release \d{4}-\d{2}-\d{2} (12|18):00:00 -0[45]00 \(.*\), in .*; releases at 12:00 and 18:00 America\/New_York, Monday to Friday/,
    );
  });
});

describe('mkt invest run', () => {
  it('--dry-run sends nothing, and still logs, notifies (dry_run true) and pings the healthcheck', async () => {
    const hooks = await catcher();
    const log = join(home, 'runs.jsonl');
    const r = await invest([
      'run',
      strategyFile(`${RULE}max_per_run: 100\n`),
      '--dry-run',
      '-o',
      'json',
      '--log',
      log,
      '--notify',
      `${hooks.url}/hook`,
      '--healthcheck',
      `${hooks.url}/ping/abc`,
    ]);
    await hooks.close();
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      decisions: { action: string; reason: string; amount: number }[];
      orders: string[];
      total_bid: number;
      dry_run: boolean;
    };
    expect(report).toMatchObject({ orders: [], total_bid: 100, dry_run: true });
    expect(report.decisions.filter((d) => d.action === 'bid')).toHaveLength(4);
    expect(bidsInMock()).toHaveLength(0);
    expect(hooks.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /ping/abc/start', 'POST /hook', 'POST /ping/abc']);
    expect(JSON.parse(hooks.seen[1]!.body)).toMatchObject({ dry_run: true, total_bid: 100, exit_code: 0 });
    const line = JSON.parse(readFileSync(log, 'utf8').trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ dry_run: true, orders: [], exit_code: 0, total_bid: 100 });
    expect(line.strategy_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(hooks.seen) + readFileSync(log, 'utf8')).not.toContain(mock.env.MKT_ACCESS_TOKEN);
  });

  it('respects reserve, max_per_run and max_listings; a second run places nothing', async () => {
    const cash = mock.app.ctx.world.accounts.get('alice-1')!.cash;
    const f = strategyFile(
      `${RULE}    max_listings: 3\n  - name: any\n    filters: {}\n    amount: 30\nreserve: ${cash - 140}\nmax_per_run: 150\n`,
    );
    const first = await invest(['run', f, '--yes', '-o', 'json']);
    expect(first.code).toBe(0);
    const bids = bidsInMock();
    // 3 × 25 for abc (max_listings), then 30s while the reserve allows: 75 + 2 × 30 = 135 (a third is 165 > 140).
    expect(bids.map((b) => b.bid_amount)).toEqual([25, 25, 25, 30, 30]);
    const second = await invest(['run', f, '--yes', '-o', 'json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ orders: [], total_bid: 0 });
    expect(bidsInMock()).toHaveLength(5);
  });

  it('counts max_per_day and rating_share across runs from the marketplace', async () => {
    const f = strategyFile(`${RULE}max_per_run: 50\nmax_per_day: 75\nrating_share:\n  A: 0.4\n`);
    expect((await invest(['run', f, '--yes'])).code).toBe(0);
    expect((await invest(['run', f, '--yes'])).code).toBe(0);
    expect((await invest(['run', f, '--yes'])).code).toBe(0);
    const bids = bidsInMock();
    expect(bids.reduce((s, b) => s + b.bid_amount, 0)).toBe(75);
    const ratingOf = (n: number) => mock.app.ctx.world.listingByNumber.get(n)!.platform_rating;
    const inA = bids.filter((b) => ratingOf(b.listing_id) === 'A').length;
    expect(inA * 25).toBeLessThanOrEqual(0.4 * 75);
  });

  it('two runs started together never bid more than one would', async () => {
    // max_per_day spans runs: together they may bid what one run alone would, 4 × 25.
    const f = strategyFile(`${RULE}max_per_day: 100\n`);
    const [a, b] = await Promise.all([invest(['run', f, '--yes']), invest(['run', f, '--yes'])]);
    // The second finds the lock taken (exit 2), or starts once the first is done and plans from what it placed (exit 0).
    expect([0, 2]).toContain(a.code);
    expect([0, 2]).toContain(b.code);
    const ids = bidsInMock().map((x) => x.listing_id);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
  });

  it("a second run while one holds the lock (through its --wait) exits 2 at once, bids nothing and names the holder's pid", async () => {
    // max_listings caps one run, not the day: a second run that waited for the lock would bid on 6 more.
    const f = strategyFile(`${RULE}    max_listings: 6\n`);
    const { first, firstDone, stderr } = await startHoldingRun(f);

    const second = await invest(['run', f, '--yes', '-o', 'json', '--wait']);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`another mkt invest run or order submit (pid ${first.pid}) is running for account`);
    expect(second.stderr).toContain('--wait-lock SECONDS');
    expect(bidsInMock()).toHaveLength(6);

    await fetch(`${mock.origin}/__mock/process`, { method: 'POST' });
    expect(await firstDone, stderr()).toBe(0);
    expect(bidsInMock()).toHaveLength(6);
  });

  it('--wait-lock waits for the run holding the lock, then plans from what it placed', async () => {
    const f = strategyFile(`${RULE}max_per_day: 100\n`);
    const { firstDone, stderr } = await startHoldingRun(f);

    const accountReads = () =>
      mock.app.requestLog.list(1000).result.filter((e) => e.method === 'GET' && e.path.endsWith('/accounts/platform')).length;
    const before = accountReads();
    const second = invest(['run', f, '--yes', '-o', 'json', '--wait-lock', '60']);
    // The second asks which account it acts for, then waits for the lock: the first holds it until its order is processed.
    for (let i = 0; i < 200 && accountReads() === before; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    await fetch(`${mock.origin}/__mock/process`, { method: 'POST' });
    expect(await firstDone, stderr()).toBe(0);
    const r = await second;
    expect(r.code, r.stderr).toBe(0);
    // max_per_day counts the first run's 4 × 25: nothing is left for the second.
    expect(JSON.parse(r.stdout)).toMatchObject({ orders: [], total_bid: 0 });
    expect(bidsInMock()).toHaveLength(4);
  });

  it('--wait-lock must be a whole number of seconds (exit 2 before anything is sent)', async () => {
    const r = await invest(['run', strategyFile(RULE), '--yes', '--wait-lock', 'soon']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--wait-lock must be a whole number (0 or more), got 'soon'");
    expect(bidsInMock()).toHaveLength(0);
  });

  it('after an order whose answer was lost, the next run does not bid twice', async () => {
    const f = strategyFile(`${RULE}max_per_day: 75\n`);
    await fetch(`${mock.origin}/__mock/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ drop_response_rate: 1, path: '/v1/orders', method: 'POST', count: 1 }),
    });
    const lost = await invest(['run', f, '--yes']);
    expect(lost.code).toBe(5);
    expect(bidsInMock()).toHaveLength(3);
    const next = await invest(['run', f, '--yes', '-o', 'json']);
    expect(next.stderr).toMatch(/was placed \(the answer had been lost\)/);
    expect(next.code).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ orders: [], total_bid: 0 });
    const ids = bidsInMock().map((x) => x.listing_id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });

  it("off a terminal without --yes exits 2, sends nothing and pings the healthcheck's /fail with why", async () => {
    const hooks = await catcher();
    const r = await invest(['run', strategyFile(RULE), '--healthcheck', `${hooks.url}/p`]);
    await hooks.close();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not on a terminal: nothing was sent/);
    expect(bidsInMock()).toHaveLength(0);
    expect(hooks.seen.map((s) => s.path)).toEqual(['/p/start', '/p/fail']);
    expect(hooks.seen[1]!.body).toContain('not on a terminal');
  });

  it('a webhook that fails is reported and does not change the exit code', async () => {
    const r = await invest(['run', strategyFile(RULE), '--dry-run', '--notify', 'http://127.0.0.1:9/hook']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/notification to http:\/\/127\.0\.0\.1:9 failed/);
  });
});

describe('mkt invest run and the order journal', () => {
  it('a damaged journal stops the run before anything is sent (exit 2, naming file and line)', async () => {
    const f = strategyFile(`${RULE}max_per_run: 50\n`);
    expect((await invest(['run', f, '--yes'])).code).toBe(0);
    const before = bidsInMock().length;
    expect(before).toBe(2);
    const accounts = join(home, 'state', 'accounts');
    const journal = join(accounts, readdirSync(accounts)[0]!, 'journal.jsonl');
    const buf = readFileSync(journal);
    buf[20] = 0;
    writeFileSync(journal, buf);
    const r = await invest(['run', f, '--yes']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`the order journal ${journal} is damaged at line 1`);
    expect(bidsInMock()).toHaveLength(before);
  });
});
