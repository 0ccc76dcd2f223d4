/**
 * `mkt statement` and `mkt portfolio` from the payments, in-process (main with its own Io) against the
 * real mock over 127.0.0.1 and against the fixture server of real answers: a statement's totals are the
 * payment rows the mock answers (random worlds and months), `--as-of` a past day is the portfolio that
 * day computed when the mock's clock stood there, the formats and the refusals.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { STATEMENT_COLUMNS } from '../src/flows/statement.js';
import { startFixtureServer } from './helpers/marketplace-fixtures.js';
import { issueTestToken, startMock, TEST_START, type TestMock } from './helpers/mock.js';
import { captureIo } from './helpers/capture-io.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
type Json = Record<string, any>;

/** Runs `mkt args…` in-process, off a terminal, with its own config dir. */
async function mkt(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = mkdtempSync(join(tmpdir(), 'mkt-statement-'));
  const run = captureIo(
    { MKT_CONFIG_DIR: home, MKT_STATE_DIR: home, MKT_CREDENTIAL_STORE: 'file', ...env },
    { stdoutColumns: 100, now: () => TEST_START },
  );
  const code = await main(args, run.io);
  return { code, stdout: run.out(), stderr: run.err() };
}

const cents = (x: unknown): number => Math.round(Number(x) * 100);

/** Every payment row of alice's loans, straight from the mock's route (page by page), as sent. */
async function paymentRows(mock: TestMock): Promise<Json[]> {
  const loans = [...new Set([...mock.app.ctx.world.notes.values()].filter((n) => n.accountId === 'alice-1').map((n) => n.loanNumber))];
  const out: Json[] = [];
  for (const loan of loans) {
    for (let offset = 0; ; offset += 100) {
      const res = await fetch(`${mock.origin}/v1/loans/payments?loan_number=${loan}&offset=${offset}&limit=100`, {
        headers: { authorization: `Bearer ${mock.env.MKT_ACCESS_TOKEN}` },
      });
      const body = (await res.json()) as Json;
      out.push(...body.result);
      if (offset + 100 >= body.total_count) break;
    }
  }
  return out;
}

describe('mkt statement against the mock', () => {
  it('totals each figure to the payment rows the mock answers for the period, to the cent (random worlds and months)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 20, max: 400 }),
        fc.integer({ min: 0, max: 3 }),
        async (seed, days, back) => {
          const mock = await startMock({ seed, listings: 40 });
          try {
            mock.app.ctx.clock.advance(days * DAY);
            mock.env.MKT_ACCESS_TOKEN = issueTestToken(mock.app);
            const year = new Date(mock.app.ctx.clock.now()).getUTCFullYear() - back;
            const r = await mkt(['statement', '--year', String(year), '-o', 'json'], mock.env);
            expect(r.code, r.stderr).toBe(0);
            const s = JSON.parse(r.stdout);
            const rows = (await paymentRows(mock)).filter((p) => String(p.transaction_effective_date).startsWith(String(year)));
            const sum = (field: string): number => rows.reduce((t, p) => t + cents(p[field]), 0);
            expect(cents(s.total.interest_received)).toBe(sum('interest_amount'));
            expect(cents(s.total.principal_received)).toBe(sum('principal_amount'));
            expect(cents(s.total.late_fees_received)).toBe(sum('late_fee_amount'));
            expect(cents(s.total.service_fees_paid)).toBe(sum('service_fee_amount'));
            expect(cents(s.total.collection_fees_paid)).toBe(sum('collection_fee_amount'));
            expect(s.total.payments).toBe(rows.length);
            expect(s.notes_without_payments).toEqual([]);
          } finally {
            await mock.close();
          }
        },
      ),
      { numRuns: 4 },
    );
  }, 240_000);

  it('--as-of a past day gives the returns and receipts of the portfolio computed that day on a mock whose clock stood there', async () => {
    const mock = await startMock({ listings: 60 });
    try {
      // To 23:30 of a day, after the day's last servicing tick: no row of that day is made later.
      mock.app.ctx.clock.advance(75 * DAY + 11.5 * HOUR);
      mock.env.MKT_ACCESS_TOKEN = issueTestToken(mock.app);
      const then = await mkt(['portfolio', '-o', 'json'], mock.env);
      expect(then.code, then.stderr).toBe(0);
      const before = JSON.parse(then.stdout);
      mock.app.ctx.clock.advance(70 * DAY);
      mock.env.MKT_ACCESS_TOKEN = issueTestToken(mock.app);
      const later = JSON.parse((await mkt(['portfolio', '-o', 'json', '--as-of', before.as_of], mock.env)).stdout);
      const now = JSON.parse((await mkt(['portfolio', '-o', 'json'], mock.env)).stdout);
      const historical = [
        'as_of',
        'realised_return',
        'expected_return',
        'annualized_return',
        'principal_received',
        'interest_received',
        'late_fees_received',
        'fees_paid',
        'net_received',
        'expected_loss',
        'notes_from_payments',
        'notes_rebuilt',
      ];
      const pick = (p: Json) => Object.fromEntries(historical.map((k) => [k, p[k]]));
      expect(pick(later)).toEqual(pick(before));
      expect(before.notes_from_payments).toBeGreaterThan(5);
      // The world went on: today's figures are not that day's.
      expect(now.interest_received).toBeGreaterThan(before.interest_received);
      expect(typeof before.expected_return).toBe('number');
      expect(before.expected_return).toBeLessThanOrEqual(before.realised_return);
    } finally {
      await mock.close();
    }
  }, 120_000);

  it('prints CSV with the documented columns and a TOTAL line, the notice on stderr; refuses a bad period before sending anything', async () => {
    const mock = await startMock({ listings: 40 });
    try {
      mock.app.ctx.clock.advance(120 * DAY);
      mock.env.MKT_ACCESS_TOKEN = issueTestToken(mock.app);
      const r = await mkt(['statement', '--year', '2026', '-o', 'csv'], mock.env);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toBe(STATEMENT_COLUMNS.join(','));
      expect(lines.at(-1)).toMatch(/^TOTAL,,\d+,/);
      expect(lines.length).toBeGreaterThan(2);
      expect(r.stderr).toMatch(/not tax advice/);
      const table = await mkt(['statement', '--from', '2026-06-01', '-o', 'table'], mock.env);
      expect(table.stdout).toMatch(/interest_received|interest/);
      expect(table.stdout).toMatch(/^TOTAL/m);
    } finally {
      await mock.close();
    }
    const nowhere = { MKT_ROOT_URL: 'http://127.0.0.1:9', MKT_ACCESS_TOKEN: 'x' };
    for (const [args, message] of [
      [['statement'], /say which period/],
      [['statement', '--year', '26'], /--year must be a year as yyyy, got '26'/],
      [['statement', '--year', '2026', '--from', '2026-01-01'], /not both/],
      [['statement', '--from', '2026-02-30'], /--from must be a date as yyyy-MM-dd/],
      [['statement', '--from', '2026-03-01', '--to', '2026-02-01'], /is before --from/],
    ] as const) {
      const bad = await mkt([...args], nowhere);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toMatch(message);
    }
  }, 120_000);
});

describe('mkt statement and portfolio on the real answers', () => {
  it('name a note the payments resource has nothing for, and the portfolio rebuilds it from its schedule, saying so', async () => {
    const server = await startFixtureServer();
    try {
      const s = await mkt(['statement', '--year', '2025', '-o', 'json'], server.env);
      expect(s.code, s.stderr).toBe(0);
      const statement = JSON.parse(s.stdout);
      expect(statement.notes_without_payments).toEqual(['35659-26']);
      expect(statement.total.payments).toBe(0);
      expect(server.requests.some((q) => q.path === '/v1/loans/payments' && q.query.get('loan_number') === '11111')).toBe(true);
      const p = JSON.parse((await mkt(['portfolio', '-o', 'json'], server.env)).stdout);
      expect([p.notes_from_payments, p.notes_rebuilt]).toEqual([0, 1]);
      const table = await mkt(['portfolio', '-o', 'table'], server.env);
      // On a 100-column terminal the line goes on under its value rather than past the edge.
      expect(table.stdout.replace(/\s+/g, ' ')).toContain(
        "flows 0 note(s) from their payments; 1 without payment rows rebuilt from their loan's schedule",
      );
    } finally {
      await server.close();
    }
  }, 60_000);
});
