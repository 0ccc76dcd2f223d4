/**
 * Two notes of one loan keep each its own payment rows, as the marketplace wrote them (issue 38): the
 * answer has a row per payment per note held and does not name the note, so each row is matched to the
 * note whose principal balance it follows, never merged with its sibling's and re-split by ownership in
 * ten-thousandths (a statement line read 2.8911 where the note said 2.89).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePayment } from '../src/contract/decode.js';
import { LOAN_STATUS } from '../src/contract/enums.js';
import { noteLedgers } from '../src/flows/note-ledger.js';
import { readRow, type FlowRow } from '../src/flows/payment-rows.js';
import { statement } from '../src/flows/statement.js';
import { noteFigures, type NoteFigures } from '../src/flows/figures.js';

const day = (text: string): number => Date.parse(`${text}T00:00:00Z`);

/** A current 25.00 note of loan `{loan}-…` as the marketplace sends it, read as the report reads it. */
function note(id: string, extra: Record<string, unknown> = {}): NoteFigures {
  return noteFigures(
    {
      loan_note_id: id,
      loan_number: Number(id.split('-')[0]),
      note_ownership_amount: 25,
      origination_date: '2025-01-10',
      ownership_start_date: '2025-01-10',
      term: 36,
      borrower_rate: 0.12,
      lender_yield: 0.11,
      amount_borrowed: 10_000,
      note_status: LOAN_STATUS.CURRENT,
      days_past_due: 0,
      principal_balance_pro_rata_share: 25,
      ...extra,
    },
    'note',
  );
}

/** One note's row of a payment as the payments resource sends it (one match_back_id per payment). */
function row(loan: number, date: string, f: { principal?: string; interest?: string; balance?: string; id?: number }): FlowRow {
  return readRow(
    decodePayment(
      {
        loan_number: loan,
        transaction_effective_date: `${date}T08:00:00.000+0000`,
        payment_transaction_code: 'ACH',
        payment_status: 'Success',
        match_back_id: `${loan}:${date}`,
        loan_payment_cashflow_type: 'Payment',
        payment_amount: '0',
        principal_amount: f.principal ?? '0',
        interest_amount: f.interest ?? '0',
        late_fee_amount: '0',
        service_fee_amount: '0',
        collection_fee_amount: '0',
        post_days_past_due: null,
        ...(f.balance !== undefined ? { resulting_principal_balance: f.balance } : {}),
        ...(f.id !== undefined ? { transaction_id: f.id } : {}),
      },
      'row',
    ),
  )!;
}

describe('two notes on one loan', () => {
  it('keep each its own rows, as the marketplace wrote them: no merging and re-splitting (0.30 and 0.57, not 0.29 and 0.58)', () => {
    const a = note('8-11', { note_ownership_amount: 25 });
    const b = note('8-12', { note_ownership_amount: 50, principal_balance_pro_rata_share: 50 });
    // Newest first, as the answer comes; one row per note per payment, one match_back_id per payment.
    const rows = [
      row(8, '2025-03-10', { principal: '0.68', interest: '0.56', balance: '48.65', id: 120002 }),
      row(8, '2025-03-10', { principal: '0.34', interest: '0.29', balance: '24.32', id: 110002 }),
      row(8, '2025-02-10', { principal: '0.67', interest: '0.57', balance: '49.33', id: 120001 }),
      row(8, '2025-02-10', { principal: '0.34', interest: '0.30', balance: '24.66', id: 110001 }),
    ];
    const ledgers = noteLedgers([a, b], rows);
    expect(ledgers.map((l) => l.rows.map((r) => [r.principal, r.interest]))).toEqual([
      [
        [3400, 3000],
        [3400, 2900],
      ],
      [
        [6700, 5700],
        [6800, 5600],
      ],
    ]);
    const s = statement(ledgers, day('2025-01-01'), day('2025-12-31'));
    expect(s.notes.map((n) => [n.loan_note_id, n.interest_received, n.principal_received])).toEqual([
      ['8-11', 0.59, 0.68],
      ['8-12', 1.13, 1.35],
    ]);
  });

  it('tell equal notes apart by their balances, whatever order the rows come in', () => {
    const a = note('9-1');
    const b = note('9-2');
    // The first payment's cent of principal went to 9-1; the second's rows come with 9-2's first by id.
    const rows = [
      row(9, '2025-03-10', { principal: '0.5', balance: '23.99', id: 1 }),
      row(9, '2025-03-10', { principal: '0.51', balance: '23.99', id: 0 }),
      row(9, '2025-02-10', { principal: '0.51', balance: '24.49', id: 3 }),
      row(9, '2025-02-10', { principal: '0.5', balance: '24.5', id: 4 }),
    ];
    const ledgers = noteLedgers([a, b], rows);
    expect(ledgers.map((l) => l.rows.map((r) => r.principal))).toEqual([
      [5100, 5000],
      [5000, 5100],
    ]);
  });

  it('split a payment whose rows match no note one to one (one row for both, no balance) by ownership, the parts adding up to it', () => {
    const ledgers = noteLedgers([note('10-1'), note('10-2', { note_ownership_amount: 50 })], [row(10, '2025-02-10', { interest: '0.87' })]);
    expect(ledgers.map((l) => l.rows.map((r) => r.interest))).toEqual([[2900], [5800]]);
  });

  it('one payment that must be split spoils no other: the next rows with balances go to the nearest note (two faults: an aggregated payment, then rows listed out of order)', () => {
    const a = note('12-1');
    const b = note('12-2', { note_ownership_amount: 50, principal_balance_pro_rata_share: 50 });
    const rows = [
      // Third payment: a row per note again, 12-2's listed first by id. The split below put 12-1 at 24.35 and
      // 12-2 at 48.70 where they were 24.34 and 48.71: no balance follows exactly, the nearest does.
      row(12, '2025-04-10', { principal: '0.71', interest: '0.55', balance: '48', id: 1 }),
      row(12, '2025-04-10', { principal: '0.34', interest: '0.27', balance: '24', id: 2 }),
      // Second payment: one row for both, no balance (an answer that aggregates): split 1:2.
      row(12, '2025-03-10', { principal: '0.96', interest: '0.87' }),
      // First payment: a row per note.
      row(12, '2025-02-10', { principal: '0.33', interest: '0.31', balance: '24.67', id: 3 }),
      row(12, '2025-02-10', { principal: '0.66', interest: '0.56', balance: '49.34', id: 4 }),
    ];
    const ledgers = noteLedgers([a, b], rows);
    expect(ledgers.map((l) => l.rows.map((r) => [r.principal, r.interest]))).toEqual([
      [
        [3300, 3100],
        [3200, 2900],
        [3400, 2700],
      ],
      [
        [6600, 5600],
        [6400, 5800],
        [7100, 5500],
      ],
    ]);
  });

  it('give every note back exactly its own rows, in any order the answer lists them (generated loans, equal notes included)', () => {
    const loanArb = fc.record({
      amounts: fc.array(fc.constantFrom(25, 50, 75), { minLength: 2, maxLength: 4 }),
      payments: fc.array(
        fc.array(fc.record({ share: fc.double({ min: 0, max: 0.3, noNaN: true }), interest: fc.integer({ min: 0, max: 90 }) }), {
          minLength: 4,
          maxLength: 4,
        }),
        { minLength: 1, maxLength: 12 },
      ),
      order: fc.array(fc.nat(), { maxLength: 200 }),
    });
    fc.assert(
      fc.property(loanArb, ({ amounts, payments, order }) => {
        const notes = amounts.map((a, i) => note(`20-${i + 1}`, { note_ownership_amount: a }));
        const held = amounts.map((a) => a * 100);
        const own: [number, number][][] = amounts.map(() => []);
        const rows: FlowRow[] = [];
        payments.forEach((payment, p) => {
          const date = new Date(day('2025-02-10') + p * 31 * 86_400_000).toISOString().slice(0, 10);
          amounts.forEach((_, i) => {
            const principal = Math.floor(held[i]! * payment[i]!.share);
            held[i]! -= principal;
            own[i]!.push([principal * 100, payment[i]!.interest * 100]);
            // Ids follow the notes' order within a payment, as the answer's do.
            const cents = (c: number) => (c / 100).toFixed(2);
            rows.push(
              row(20, date, {
                principal: cents(principal),
                interest: cents(payment[i]!.interest),
                balance: cents(held[i]!),
                id: (i + 1) * 1000 + p,
              }),
            );
          });
        });
        // Any order: the answer's newest first, or shuffled.
        const shuffled = [...rows];
        order.forEach((k, j) => {
          const [x, y] = [j % shuffled.length, k % shuffled.length];
          [shuffled[x], shuffled[y]] = [shuffled[y]!, shuffled[x]!];
        });
        const ledgers = noteLedgers(notes, shuffled);
        expect(ledgers.map((l) => l.rows.map((r) => [r.principal, r.interest]))).toEqual(own);
      }),
      { numRuns: 300 },
    );
  });

  it('never lose or make a unit, whatever balances a hostile answer sends (generated rows)', () => {
    const rowArb = fc.record({
      date: fc.constantFrom('2025-02-10', '2025-03-10', '2025-04-10'),
      principal: fc.integer({ min: -100, max: 5_000 }),
      interest: fc.integer({ min: 0, max: 500 }),
      balance: fc.option(fc.integer({ min: -100, max: 10_000 }), { nil: undefined }),
      id: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 12 }), fc.integer({ min: 2, max: 3 }), (made, count) => {
        const notes = Array.from({ length: count }, (_, i) => note(`21-${i + 1}`, { note_ownership_amount: 25 * (i + 1) }));
        const cents = (c: number) => (c / 100).toFixed(2);
        const rows = made.map((r) =>
          row(21, r.date, {
            principal: cents(r.principal),
            interest: cents(r.interest),
            ...(r.balance !== undefined ? { balance: cents(r.balance) } : {}),
            ...(r.id !== undefined ? { id: r.id } : {}),
          }),
        );
        const ledgers = noteLedgers(notes, rows);
        const sum = (rs: readonly FlowRow[], f: 'principal' | 'interest') => rs.reduce((s, r) => s + r[f], 0);
        for (const f of ['principal', 'interest'] as const) expect(ledgers.reduce((s, l) => s + sum(l.rows, f), 0)).toBe(sum(rows, f));
      }),
      { numRuns: 300 },
    );
  });

  it('give up matching, and split by ownership, when a hostile answer would make the match search explode', () => {
    // 40 equal notes and 40 rows that each fit every note but the last, which fits none: 40! orders to try.
    const notes = Array.from({ length: 40 }, (_, i) => note(`22-${i + 1}`));
    const rows = Array.from({ length: 40 }, (_, i) =>
      row(22, '2025-02-10', { principal: '1', interest: '0.4', balance: i === 39 ? '3' : '24', id: i }),
    );
    const ledgers = noteLedgers(notes, rows);
    expect(ledgers.every((l) => l.rows.length === 1 && l.rows[0]!.principal === 10_000 && l.rows[0]!.interest === 4_000)).toBe(true);
  });
});
