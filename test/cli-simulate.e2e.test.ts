import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMkt, tempHome } from './helpers/cli.js';

const home = tempHome();
const strategy = join(home, 'strategy.yaml');
writeFileSync(
  strategy,
  'max_per_day: 400\nrules:\n  - name: spread\n    filters:\n      platform_rating: [A, B, C, D, E]\n    sort_by: lender_yield desc\n    amount: 25\n    max_listings: 16\n',
);
const simulate = (args: string[]) => runMkt(['invest', 'simulate', strategy, ...args], { home, timeoutMs: 120_000 });
const near = (a: number, b: number, within: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(within);

describe('mkt invest simulate', () => {
  it('runs two months: the month rows add up, and the report agrees with the mock account', async () => {
    const r = await simulate(['--months', '2', '--listings', '300', '--cash', '4000', '--seed', '3', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { months, portfolio } = JSON.parse(r.stdout);
    expect(months.map((m: { month: number }) => m.month)).toEqual([1, 2]);
    let value = 4000;
    let received = 0;
    for (const m of months) {
      // The account's value is its cash, what is pending and the principal outstanding on its notes.
      near(m.account_value, m.cash + m.pending + m.invested, 0.011);
      // Value moves only by what the notes earned (interest and late fees less fees) and what was written off:
      // principal coming back and bids going out move money within it. Each note's share is rounded to the cent.
      near(m.account_value - value, m.earned - m.written_off, 0.01 * m.notes + 0.01);
      expect(m.received).toBeGreaterThanOrEqual(m.earned);
      expect(m.bid).toBeGreaterThan(0);
      value = m.account_value;
      received += m.received;
    }
    const last = months.at(-1);
    expect(portfolio).toMatchObject({ account_value: last.account_value, available_cash_balance: last.cash, notes: last.notes });
    near(portfolio.net_received, received, 0.011);
    near(portfolio.account_value, portfolio.available_cash_balance + portfolio.pending_bids + portfolio.outstanding_principal, 0.011);
    expect(portfolio.notes).toBeGreaterThan(50);
    expect(typeof portfolio.annualized_return).toBe('number');
    expect(last.return_to_date).toBe(portfolio.annualized_return);
  }, 180_000);

  it('prints the report and the month table off a terminal, no chart', async () => {
    const r = await simulate(['--months', '1', '--listings', '200', '--cash', '1000', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^realised return +/m);
    expect(r.stdout).toMatch(/account_value/);
    expect(r.stdout).not.toMatch(/account value, month 0/);
  }, 180_000);

  it('refuses bad flags with exit 2 before anything runs', async () => {
    for (const [args, message] of [
      [['--months', '0'], /--months must be a whole number of at least 1, got '0'/],
      [['--months', '121'], /--months must be at most 120/],
      [['--months', '2', '--cash', '-5'], /--cash -5 is negative: the starting cash is an amount above 0/],
      [['--months', '2', '--cash', '10.001'], /--cash must be an amount/],
      [['--months', '2', '--listings', 'many'], /--listings must be a whole number/],
      [[], /required option '--months <n>' not specified/],
    ] as const) {
      const r = await simulate([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const bad = join(home, 'bad.yaml');
    writeFileSync(bad, 'rules:\n  - name: a\n    amount: 10\n');
    const r = await runMkt(['invest', 'simulate', bad, '--months', '1'], { home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/problem in the strategy/);
  }, 180_000);
});
