import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOWHERE, runMkt } from './helpers/cli.js';
import { issueTestToken, startMock, type TestMock } from './helpers/mock.js';

const DAY = 86_400_000;
const MONEY = ['invested', 'received', 'outstanding', 'expected_loss', 'defaulted_principal', 'charged_off_principal'];
const cents = (x: number): number => Math.round(x * 100);
type Row = Record<string, number | string | null>;

let mock: TestMock;
/** Moves the marketplace's clock (servicing runs: payments, late payments, defaults) and renews the token. */
function advance(days: number): void {
  mock.app.ctx.clock.advance(days * DAY);
  mock.env.MKT_ACCESS_TOKEN = issueTestToken(mock.app);
}
const json = async (...args: string[]) => {
  const r = await runMkt(['portfolio', '-o', 'json', ...args], { env: mock.env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

beforeAll(async () => {
  mock = await startMock({ listings: 300 });
  advance(61);
});
afterAll(() => mock.close());

describe('mkt portfolio --by', () => {
  it('--by vintage: every note in one month, the cohorts adding up to the portfolio to the cent, and moving with the clock', async () => {
    const [p, v] = await Promise.all([json(), json('--by', 'vintage')]);
    expect(v.by).toBe('vintage');
    expect(v.period).toBe('month');
    expect(v.as_of).toBe(p.as_of);
    const names = v.cohorts.map((c: Row) => c.cohort);
    expect(names.every((n: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(n))).toBe(true);
    expect(names).toEqual([...names].sort());
    expect(v.cohorts.reduce((s: number, c: Row) => s + (c.notes as number), 0)).toBe(p.notes);
    for (const k of MONEY) expect(v.cohorts.reduce((s: number, c: Row) => s + cents(c[k] as number), 0)).toBe(cents(v.total[k]));
    expect(v.total.invested).toBe(p.invested);
    expect(v.total.outstanding).toBe(p.outstanding_principal);
    expect(v.total.realised_return).toBeCloseTo(p.annualized_return, 5);

    advance(31);
    const later = await json('--by', 'vintage');
    expect(Date.parse(later.as_of) - Date.parse(v.as_of)).toBe(31 * DAY);
    expect(later.total.notes).toBe(v.total.notes);
    expect(later.total.received).toBeGreaterThan(v.total.received);
  });

  it('--by rating: ratings best first, defaults and charge-offs counted and rated by count and by principal', async () => {
    const r = await json('--by', 'rating');
    const order = ['AA', 'A', 'B', 'C', 'D', 'E', 'HR', 'N/A'];
    const names: string[] = r.cohorts.map((c: Row) => c.cohort);
    expect(names.map((n) => order.indexOf(n))).toEqual(names.map((n) => order.indexOf(n)).sort((a, b) => a - b));
    // The seeded history has charged-off and defaulted loans.
    expect(r.total.charged_off_notes + r.total.defaulted_notes).toBeGreaterThan(0);
    for (const c of [...r.cohorts, r.total]) {
      expect(c.default_rate_by_count).toBeCloseTo((c.defaulted_notes + c.charged_off_notes) / (c.notes - c.cancelled_notes), 4);
      expect(c.charge_off_rate_by_count).toBeCloseTo(c.charged_off_notes / (c.notes - c.cancelled_notes), 4);
      expect(c.default_rate_by_principal).toBeCloseTo((c.defaulted_principal + c.charged_off_principal) / c.invested, 4);
      expect(c.charge_off_rate_by_principal).toBeLessThanOrEqual(c.default_rate_by_principal);
    }
  });

  it('-o csv is one row per quarter with the documented columns; the table has a total row and a legend, no chart off a terminal', async () => {
    const csv = await runMkt(['portfolio', '--by', 'vintage', '--period', 'quarter', '-o', 'csv'], { env: mock.env });
    expect(csv.code).toBe(0);
    const [header, ...rows] = csv.stdout.trimEnd().split('\n');
    expect(header).toBe(
      'cohort,notes,cancelled_notes,invested,received,outstanding,expected_loss,defaulted_notes,charged_off_notes,defaulted_principal,charged_off_principal,default_rate_by_count,default_rate_by_principal,charge_off_rate_by_count,charge_off_rate_by_principal,realised_return',
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/^\d{4}-Q[1-4],\d+,/);
    const ndjson = await runMkt(['portfolio', '--by', 'vintage', '--period', 'quarter', '-o', 'ndjson'], { env: mock.env });
    expect(
      ndjson.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).cohort),
    ).toEqual(rows.map((r) => r.split(',')[0]));
    const table = await runMkt(['portfolio', '--by', 'rating', '-o', 'table'], { env: mock.env });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^cohort +notes +invested +received/m);
    expect(table.stdout).toMatch(/^total +\d+ /m);
    expect(table.stdout).toMatch(/^cohort: rating\. invested: what the notes cost/m);
    expect(table.stdout).not.toMatch(/█|┤/);
  });

  it('--as-of with --by cuts the flows at that day', async () => {
    const r = await json('--by', 'vintage', '--period', 'year', '--as-of', '2024-01-01');
    expect(r.as_of).toBe('2024-01-01');
    expect(r.cohorts.every((c: Row) => /^\d{4}$/.test(c.cohort as string) && (c.cohort as string) <= '2024')).toBe(true);
    const today = await json('--by', 'vintage', '--period', 'year');
    expect(r.total.notes + r.left_out).toBe(today.total.notes);
  });

  it('a wrong --by or --period is exit 2 before anything is sent; the shapes are in --help', async () => {
    for (const [args, message] of [
      [['--by', 'month'], /--by must be vintage or rating, got 'month'/],
      [['--by', 'vintage', '--period', 'week'], /--period must be month, quarter or year, got 'week'/],
      [['--period', 'quarter'], /--period goes with --by vintage/],
      [['--by', 'rating', '--period', 'year'], /--period goes with --by vintage, not --by rating/],
    ] as const) {
      const r = await runMkt(['portfolio', ...args], { env: NOWHERE });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const help = await runMkt(['portfolio', '--help'], { env: NOWHERE });
    expect(help.stdout).toMatch(/--by vintage splits the notes by their loan's origination date/);
    expect(help.stdout).toMatch(/_by_count over the notes not cancelled, _by_principal/);
  });
});
