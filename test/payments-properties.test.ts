/**
 * Payments add up to the notes: after random orders, processing and months of servicing (loans pay, go
 * late and catch up with fees, default, charge off), the payment rows of every note of every account,
 * read over HTTP, add up to the principal, interest and fees its note shows, to the cent; the newest row
 * leaves the note's balance; and a row, once made, never changes as the world goes on.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { call, makeApp, tokenFor } from './engine-fixture.js';
import { step as engineStep, STEP_ACCOUNTS, takeStep, type Step } from './helpers/engine-steps.js';

type App = ReturnType<typeof makeApp>;
type Json = Record<string, any>;

type OrderStep = Extract<Step, { kind: 'order' }>;

/**
 * The engine's steps; an order placed twice (two orders of one account on one listing: two notes of a
 * loan); and moves of the clock by months, so that loans pay, go late and charge off.
 */
const step: fc.Arbitrary<Step | { kind: 'twice'; order: OrderStep } | { kind: 'months'; days: number }> = fc.oneof(
  { weight: 4, arbitrary: engineStep },
  {
    weight: 1,
    arbitrary: engineStep.filter((s): s is OrderStep => s.kind === 'order').map((order) => ({ kind: 'twice' as const, order })),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('months' as const), days: fc.integer({ min: 20, max: 100 }) }) },
);

const ACCOUNTS = [...new Set(STEP_ACCOUNTS)];
const cents = (x: number | string): number => Math.round(Number(x) * 100);

/** Every item of a list route, page by page. */
async function all(app: App, token: string, path: string, limit: number): Promise<Json[]> {
  const out: Json[] = [];
  for (let offset = 0; ; offset += limit) {
    const res = await call(app, 'GET', `${path}${path.includes('?') ? '&' : '?'}offset=${offset}&limit=${limit}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.result);
    if (offset + limit >= res.body.total_count) return out;
  }
}

/** Each row's figure and the note figure its rows add up to (the service fee counts up on a row, down on the note). */
const SUMS: ReadonlyArray<[string, string, 1 | -1]> = [
  ['principal_amount', 'principal_paid_pro_rata_share', 1],
  ['interest_amount', 'interest_paid_pro_rata_share', 1],
  ['late_fee_amount', 'late_fees_paid_pro_rata_share', 1],
  ['service_fee_amount', 'service_fees_paid_pro_rata_share', -1],
  ['nsf_fee_amount', 'platform_fees_paid_pro_rata_share', 1],
  ['collection_fee_amount', 'collection_fees_paid_pro_rata_share', 1],
];

/** What the runs covered, so the property cannot pass on worlds where nothing happened. */
const seen = { notes: 0, engineRows: 0, lateFees: 0, chargeOffs: 0, twoNotesOfALoan: 0, negativeCents: 0 };

/** Checks every account's notes against its rows; returns every row by transaction id. */
async function checkRows(app: App, start: number): Promise<Map<number, Json>> {
  const byId = new Map<number, Json>();
  for (const accountId of ACCOUNTS) {
    const token = tokenFor(app, accountId);
    const notes = await all(app, token, '/v1/notes', 25);
    if (notes.length === 0) continue;
    const loans = [...new Set(notes.map((n) => n.loan_number))];
    const rows = await all(app, token, `/v1/loans/payments?loan_number=${loans.join(',')}`, 100);
    // transaction_id = the note's serial (after the dash) × 10,000 + the payment's place among its loan's.
    const byNote = new Map<string, Json[]>();
    for (const r of rows) {
      expect(byId.has(r.transaction_id), 'transaction ids are unique').toBe(false);
      byId.set(r.transaction_id, r);
      const note = `${r.loan_number}-${Math.floor(r.transaction_id / 10_000)}`;
      byNote.set(note, [...(byNote.get(note) ?? []), r]);
      expect(cents(r.payment_amount)).toBe(cents(r.principal_amount) + cents(r.interest_amount) + cents(r.late_fee_amount));
      if (r.loan_payment_cashflow_type === 'Payment') expect(r.post_days_past_due).toBeNull();
      else expect(r.post_days_past_due).toBe(r.pre_days_past_due);
      if (Date.parse(r.transaction_effective_date) >= start) seen.engineRows++;
      if (cents(r.late_fee_amount) > 0) seen.lateFees++;
      if (r.payment_transaction_code === 'CAP') seen.chargeOffs++;
      if (SUMS.some(([f]) => cents(r[f]) < 0)) seen.negativeCents++;
    }
    // Newest first: effective dates never rise down the list.
    for (let i = 1; i < rows.length; i++)
      expect(Date.parse(rows[i]!.transaction_effective_date)).toBeLessThanOrEqual(Date.parse(rows[i - 1]!.transaction_effective_date));
    expect(
      [...byNote.keys()].every((id) => notes.some((n) => n.loan_note_id === id)),
      'every row is of a note of the caller',
    ).toBe(true);
    for (const note of notes) {
      seen.notes++;
      if (notes.some((n) => n !== note && n.loan_number === note.loan_number)) seen.twoNotesOfALoan++;
      const mine = byNote.get(note.loan_note_id) ?? [];
      for (const [row, share, sign] of SUMS) {
        const sum = mine.reduce((s, r) => s + cents(r[row]), 0);
        expect(sum, `${accountId} ${note.loan_note_id}: ${row} against ${share}`).toBe(sign * cents(note[share]) + 0); // + 0: no -0
      }
      if (mine.length > 0)
        expect(cents(mine[0]!.resulting_principal_balance), `${note.loan_note_id} balance`).toBe(
          cents(note.principal_balance_pro_rata_share),
        );
    }
  }
  return byId;
}

describe('payment rows', () => {
  test("after random orders, processing and months of servicing, every note's rows add up to its figures to the cent, and rows never change", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 10_000 }), fc.array(step, { minLength: 3, maxLength: 12 }), async (seed, steps) => {
        const app = makeApp({ seed, listings: 30 });
        const start = app.ctx.clock.now();
        const tokens = STEP_ACCOUNTS.map((a) => tokenFor(app, a));
        for (const s of steps) {
          if (s.kind === 'months') await call(app, 'POST', '/__mock/clock', { body: { advance: `${s.days}d` } });
          else if (s.kind === 'twice') for (let i = 0; i < 2; i++) await takeStep(app, tokens, s.order);
          else await takeStep(app, tokens, s);
        }
        await call(app, 'POST', '/__mock/process');
        const before = await checkRows(app, start);
        await call(app, 'POST', '/__mock/clock', { body: { advance: '45d' } });
        const after = await checkRows(app, start);
        for (const [id, row] of before) expect(after.get(id), `row ${id} after 45 more days`).toEqual(row);
        await app.close?.();
      }),
      {
        numRuns: 20,
        // A world of long moves that always goes late and charges loans off, so those guards below never depend
        // on the draw (20 random worlds once saw no charge-off, in CI).
        // A world where one investor orders a listing twice and it originates, so the guard on two notes of a
        // loan never depends on the draw either (20 random worlds once held none, in CI).
        examples: [
          [
            1,
            [
              { kind: 'months', days: 100 },
              { kind: 'months', days: 100 },
              { kind: 'months', days: 100 },
            ],
          ],
          [
            1,
            [
              { kind: 'twice', order: { kind: 'order', account: 0, picks: [{ listing: 1, amount: 100 }] } },
              { kind: 'months', days: 40 },
            ],
          ],
        ],
      },
    );
    expect(seen.notes).toBeGreaterThan(0);
    expect(seen.engineRows).toBeGreaterThan(0);
    expect(seen.lateFees).toBeGreaterThan(0);
    expect(seen.chargeOffs).toBeGreaterThan(0);
    expect(seen.twoNotesOfALoan).toBeGreaterThan(0);
  }, 240_000);
});
