/**
 * `mkt loans payments` against the real mock over HTTP: the CLI's reader and the mock's payments route
 * together. A note's payment rows, read through the CLI, add up to the figures `mkt notes get` shows
 * for that note, to the cent, in the seeded history and after the clock has moved months of servicing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMkt } from './helpers/cli.js';
import { issueTestToken, startMock, type TestMock } from './helpers/mock.js';

type Json = Record<string, any>;
let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 300 });
});
afterAll(async () => {
  await mock.close();
});

const cents = (x: unknown): number => Math.round(Number(x) * 100);
const sumCents = (rows: Json[], field: string): number => rows.reduce((s, r) => s + cents(r[field]), 0);

/** Every payment row of `loans`, through the CLI. */
async function payments(loans: number[], ...extra: string[]): Promise<Json[]> {
  const r = await runMkt(['loans', 'payments', ...loans.map(String), '--all', '-o', 'json', ...extra], { env: mock.env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** alice's notes, through the CLI. */
async function notes(): Promise<Json[]> {
  const r = await runMkt(['notes', 'list', '--all', '-o', 'json'], { env: mock.env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** Checks that each note's rows add up to its principal, interest, late fees and service fees paid. */
function expectRowsAddUp(held: Json[], rows: Json[]): void {
  for (const note of held) {
    const mine = rows.filter(
      (r) => r.loan_number === note.loan_number && Math.floor(r.transaction_id / 10_000) === Number(note.loan_note_id.split('-')[1]),
    );
    expect(sumCents(mine, 'principal_amount'), note.loan_note_id).toBe(cents(note.principal_paid_pro_rata_share));
    expect(sumCents(mine, 'interest_amount'), note.loan_note_id).toBe(cents(note.interest_paid_pro_rata_share));
    expect(sumCents(mine, 'late_fee_amount'), note.loan_note_id).toBe(cents(note.late_fees_paid_pro_rata_share));
    // The row's service fee is what the investor paid (positive); the note's share is written negative.
    expect(sumCents(mine, 'service_fee_amount'), note.loan_note_id).toBe(-cents(note.service_fees_paid_pro_rata_share));
  }
}

describe('mkt loans payments against the mock', () => {
  it("adds up, note by note, to the notes' figures in the seeded history and after six months of servicing", async () => {
    for (let round = 0; round < 2; round++) {
      const held = (await notes()).filter((n) => Number(n.principal_paid_pro_rata_share) > 0).slice(0, 12);
      expect(held.length).toBeGreaterThan(3);
      const loans = [...new Set(held.map((n) => n.loan_number as number))];
      const rows = await payments(loans);
      expect(rows.length).toBeGreaterThan(held.length);
      expect(new Set(rows.map((r) => r.transaction_id)).size).toBe(rows.length);
      expectRowsAddUp(held, rows);
      if (round === 0) {
        expect((await runMkt(['mock', 'clock', 'advance', '180d'], { env: mock.env })).code).toBe(0);
        // The test token lives an hour of the mock's clock.
        mock.env.MKT_ACCESS_TOKEN = issueTestToken(mock.app);
      }
    }
  });

  it('shows a table, csv and ndjson of the same rows, and --since keeps the rows effective on or after that day', async () => {
    const loan = (await notes()).find((n) => Number(n.principal_paid_pro_rata_share) > 0)!.loan_number as number;
    const rows = await payments([loan]);
    const dates = rows.map((r) => String(r.transaction_effective_date).slice(0, 10)).sort();
    const since = dates[Math.floor(dates.length / 2)]!;
    const later = await payments([loan], '--since', since);
    expect(later.length).toBeGreaterThan(0);
    expect(later.length).toBeLessThan(rows.length);
    expect(later.every((r) => String(r.transaction_effective_date).slice(0, 10) >= since)).toBe(true);
    expect(later).toEqual(rows.filter((r) => String(r.transaction_effective_date).slice(0, 10) >= since));
    const nd = await runMkt(['loans', 'payments', String(loan), '--all', '-o', 'ndjson'], { env: mock.env });
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(rows);
    const csv = await runMkt(['loans', 'payments', String(loan), '--all', '-o', 'csv'], { env: mock.env });
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.trim().split('\n')).toHaveLength(rows.length + 1);
    const table = await runMkt(['loans', 'payments', String(loan), '-o', 'table'], { env: mock.env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(String(loan));
  });

  it('refuses a bad loan number or date before anything is sent (exit 2)', async () => {
    for (const args of [
      ['loans', 'payments', 'abc'],
      ['loans', 'payments', '1', '--since', '2026-13-01'],
      ['loans', 'payments', '1', '--since', '2026-04-31'],
      ['loans', 'payments'],
    ]) {
      const r = await runMkt(args, { env: { ...mock.env, MKT_ACCESS_TOKEN: 'nothing-is-sent' } });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
    }
  });
});
