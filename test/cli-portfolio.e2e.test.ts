import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOWHERE, runMkt } from './helpers/cli.js';
import { issueTestToken, startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 300 });
  // Two months of servicing on the seeded history: payments, some late, some defaults.
  mock.app.ctx.clock.advance(61 * 86_400_000);
  mock.env.MKT_ACCESS_TOKEN = issueTestToken(mock.app);
});
afterAll(() => mock.close());

describe('mkt portfolio', () => {
  it('-o json gives every figure, consistent with the account and the notes', async () => {
    const r = await runMkt(['portfolio', '-o', 'json'], { env: mock.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const p = JSON.parse(r.stdout);
    const account = JSON.parse((await runMkt(['account', '-o', 'json'], { env: mock.env })).stdout);
    expect(p.available_cash_balance).toBe(account.available_cash_balance);
    expect(p.account_value).toBe(account.total_account_value);
    expect(p.outstanding_principal).toBeCloseTo(account.outstanding_principal_on_active_notes, 1);
    expect(p.pending_bids).toBe(account.pending_investments_primary_market);
    expect(p.notes).toBeGreaterThan(10);
    const sum = (m: Record<string, { notes: number; invested: number; share: number }>, k: 'notes' | 'invested' | 'share') =>
      Object.values(m).reduce((s, b) => s + b[k], 0);
    for (const split of [p.by_status, p.by_rating]) {
      expect(sum(split, 'notes')).toBe(p.notes);
      expect(sum(split, 'invested')).toBeCloseTo(p.invested, 1);
      expect(sum(split, 'share')).toBeCloseTo(1, 2);
    }
    expect(Object.keys(p.by_status)).toEqual([
      'current',
      'late_1_15',
      'late_16_30',
      'late_31_120',
      'late_over_120',
      'charged_off',
      'defaulted',
      'paid_in_full',
      'pending',
      'cancelled',
    ]);
    expect(typeof p.annualized_return).toBe('number');
    expect(p.annualized_return).toBeGreaterThan(-1);
    expect(p.annualized_return).toBeLessThan(0.4);
    expect(p.annualized_return_reason).toBeNull();
  });

  it('--as-of a past date cuts the flows; a future one or a bad one is exit 2, nothing sent', async () => {
    const now = JSON.parse((await runMkt(['portfolio', '-o', 'json'], { env: mock.env })).stdout);
    const past = JSON.parse((await runMkt(['portfolio', '-o', 'json', '--as-of', '2024-01-01'], { env: mock.env })).stdout);
    expect(past.as_of).toBe('2024-01-01');
    expect(past.annualized_return).not.toBe(now.annualized_return);
    const ahead = await runMkt(['portfolio', '--as-of', '2099-01-01'], { env: mock.env });
    expect(ahead.code).toBe(2);
    expect(ahead.stderr).toMatch(/after the marketplace's today/);
    const bad = await runMkt(['portfolio', '--as-of', '2024-02-30'], { env: NOWHERE });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--as-of must be a date as yyyy-MM-dd, got '2024-02-30'/);
  });

  it('prints the figures and the splits as plain rows off a terminal, the method in --help', async () => {
    const r = await runMkt(['portfolio', '-o', 'table'], { env: mock.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^realised return +-?\d+\.\d\d% a year, effective \(net, XIRR\); -?\d+\.\d\d% nominal \(12 × monthly\)$/m);
    expect(r.stdout).toMatch(/^by rating/m);
    expect(r.stdout).not.toMatch(/█/);
    const help = await runMkt(['portfolio', '--help'], { env: NOWHERE });
    expect(help.stdout).toMatch(/internal rate of return/);
    expect(help.stdout).toMatch(/--as-of/);
  });
});
