/**
 * Statements and returns from payment rows, pure: a statement's totals are the sums of its payment
 * rows exactly (any rows, any period); a year boundary splits rows by their effective day; a charge-off
 * is a loss of the year it happens in; a sale has its column; several notes of one loan share each
 * payment by ownership; the corpus' real payments answer reads into a statement.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, decodePayment } from '../src/contract/decode.js';
import { LOAN_STATUS } from '../src/contract/enums.js';
import { apportionUnits } from '../src/flows/apportion.js';
import { noteLedgers } from '../src/flows/note-ledger.js';
import { readRow, ROW_FIGURES, type FlowRow } from '../src/flows/payment-rows.js';
import { daysPastDueAt } from '../src/flows/note-state.js';
import { flowsAt } from '../src/flows/returns.js';
import { statement, STATEMENT_COLUMNS } from '../src/flows/statement.js';
import { noteFigures, type NoteFigures } from '../src/flows/figures.js';
import { corpusFile } from './helpers/marketplace-fixtures.js';

const DAY = 86_400_000;
const day = (text: string): number => Date.parse(`${text}T00:00:00Z`);
const units = (dollars: number): number => Math.round(dollars * 10_000);

/** A note of `loan` as the marketplace sends it, read as the report reads it. */
function note(loan: number, serial: number, extra: Record<string, unknown> = {}): NoteFigures {
  return noteFigures(
    {
      loan_note_id: `${loan}-${serial}`,
      loan_number: loan,
      note_ownership_amount: 100,
      origination_date: '2025-01-10',
      ownership_start_date: '2025-01-10',
      term: 36,
      borrower_rate: 0.12,
      lender_yield: 0.11,
      amount_borrowed: 10_000,
      note_status: LOAN_STATUS.CURRENT,
      principal_paid_pro_rata_share: 0,
      interest_paid_pro_rata_share: 0,
      ...extra,
    },
    'note',
  );
}

/** A payment row as the payments resource sends it. */
function payment(
  loan: number,
  date: string,
  figures: Partial<Record<'principal' | 'interest' | 'late' | 'service' | 'collection', string>>,
  extra: Record<string, unknown> = {},
) {
  return {
    loan_number: loan,
    transaction_effective_date: `${date}T08:00:00.000+0000`,
    payment_transaction_code: 'ACH',
    payment_status: 'Success',
    match_back_id: `${loan}:${date}`,
    loan_payment_cashflow_type: 'Payment',
    payment_amount: '0',
    principal_amount: figures.principal ?? '0',
    interest_amount: figures.interest ?? '0',
    late_fee_amount: figures.late ?? '0',
    service_fee_amount: figures.service ?? '0',
    collection_fee_amount: figures.collection ?? '0',
    post_days_past_due: null,
    ...extra,
  };
}

const rows = (...answers: ReturnType<typeof payment>[]): FlowRow[] => answers.map((a) => readRow(decodePayment(a, 'row'))!);

describe('a statement', () => {
  it("totals every figure to the sum of its payment rows in the period, exactly, and each line to its note's rows (generated rows)", () => {
    const amount = fc.integer({ min: -5, max: 500_000 }).map((u) => (u / 10_000).toFixed(4));
    const row = fc.record({
      loan: fc.integer({ min: 1, max: 4 }),
      offset: fc.integer({ min: 0, max: 800 }),
      principal: amount,
      interest: amount,
      late: amount,
      service: amount,
      collection: amount,
      chargeOff: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 60 }),
        fc.integer({ min: 0, max: 700 }),
        fc.integer({ min: 0, max: 400 }),
        (made, start, length) => {
          const answers = made.map((r) =>
            payment(
              r.loan,
              new Date(day('2025-01-01') + r.offset * DAY).toISOString().slice(0, 10),
              r,
              r.chargeOff ? { payment_transaction_code: 'CAP' } : {},
            ),
          );
          const notes = [1, 2, 3, 4].map((loan) => note(loan, 1));
          const from = day('2025-01-01') + start * DAY;
          const to = from + length * DAY;
          const s = statement(noteLedgers(notes, rows(...answers)), from, to);
          const inside = rows(...answers).filter((r) => r.day >= from && r.day <= to);
          const columns = {
            principal: 'principal_received',
            interest: 'interest_received',
            lateFees: 'late_fees_received',
            serviceFees: 'service_fees_paid',
            collectionFees: 'collection_fees_paid',
          } as const;
          for (const f of ROW_FIGURES) {
            expect(units(s.total[columns[f]])).toBe(inside.reduce((sum, r) => sum + r[f], 0));
            expect(s.notes.reduce((sum, l) => sum + units(l[columns[f]]), 0)).toBe(units(s.total[columns[f]]));
          }
          expect(s.total.payments).toBe(inside.length);
          expect(units(s.total.net_cash)).toBe(
            units(
              s.total.principal_received
                + s.total.interest_received
                + s.total.late_fees_received
                - s.total.service_fees_paid
                - s.total.collection_fees_paid
                + s.total.sale_proceeds,
            ),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('puts a row in the year of its effective day: 31 December in one, 1 January in the next', () => {
    const ledgers = noteLedgers(
      [note(7, 1)],
      rows(
        payment(7, '2025-12-31', { principal: '2.5', interest: '1' }),
        payment(7, '2026-01-01', { principal: '2.6', interest: '0.9', service: '0.08' }),
      ),
    );
    const y2025 = statement(ledgers, day('2025-01-01'), day('2025-12-31'));
    const y2026 = statement(ledgers, day('2026-01-01'), day('2026-12-31'));
    expect([y2025.total.principal_received, y2025.total.interest_received, y2025.total.payments]).toEqual([2.5, 1, 1]);
    expect([y2026.total.principal_received, y2026.total.interest_received, y2026.total.service_fees_paid, y2026.total.payments]).toEqual([
      2.6, 0.9, 0.08, 1,
    ]);
  });

  it('counts a note charged off mid-year as a loss of that year, dated, of the principal it had not received', () => {
    const charged = note(9, 1, { note_status: LOAN_STATUS.CHARGEOFF, principal_paid_pro_rata_share: 5 });
    const ledgers = noteLedgers(
      [charged],
      rows(
        payment(9, '2025-11-10', { principal: '2', interest: '1', service: '0.1' }),
        payment(9, '2026-02-10', { principal: '3', interest: '0.9', late: '0.15', service: '0.09' }),
        payment(9, '2026-07-15', { collection: '1.84' }, { payment_transaction_code: 'CAP', loan_payment_cashflow_type: 'Other' }),
      ),
    );
    const y2026 = statement(ledgers, day('2026-01-01'), day('2026-12-31'));
    expect(y2026.notes).toHaveLength(1);
    expect(y2026.notes[0]).toMatchObject({
      principal_lost: 95,
      loss_date: '2026-07-15',
      collection_fees_paid: 1.84,
      principal_received: 3,
      payments: 2,
    });
    expect(statement(ledgers, day('2025-01-01'), day('2025-12-31')).total.principal_lost).toBe(0);
    expect(statement(ledgers, day('2027-01-01'), day('2027-12-31')).notes).toEqual([]);
    // Its returns: written off in both once charged off; the payments up to then count.
    const at = flowsAt(ledgers, day('2026-08-01'), day('2026-08-01'));
    expect(at.notes.map((n) => n.outstanding)).toEqual([0]);
    expect(at.realised.at(-1)).toEqual({ day: day('2026-08-01'), amount: 0 });
  });

  it('has a sale column: a note sold in the year brings its gross less its fees, on its ownership end date', () => {
    const sold = note(11, 1, {
      is_sold: true,
      ownership_end_date: '2026-03-31',
      note_sale_gross_amount_received: 80.5,
      note_sale_fees_paid: 0.4,
    });
    const ledgers = noteLedgers([sold], rows(payment(11, '2026-02-10', { principal: '2', interest: '1' })));
    const y2026 = statement(ledgers, day('2026-01-01'), day('2026-12-31'));
    expect(y2026.total).toMatchObject({ sale_proceeds: 80.1, net_cash: 83.1 });
    expect(statement(ledgers, day('2027-01-01'), day('2027-12-31')).notes).toEqual([]);
    // A note not sold has the column at zero.
    expect(
      statement(noteLedgers([note(12, 1)], rows(payment(12, '2026-02-10', { interest: '1' }))), day('2026-01-01'), day('2026-12-31')).total
        .sale_proceeds,
    ).toBe(0);
  });

  it("splits a payment over the caller's notes of one loan by ownership, the parts adding up to the rows", () => {
    const a = note(5, 1, { note_ownership_amount: 25 });
    const b = note(5, 2, { note_ownership_amount: 50, ownership_start_date: '2025-01-10' });
    // The answer's two rows of one payment (one per note, one match_back_id).
    const ledgers = noteLedgers(
      [a, b],
      rows(payment(5, '2025-03-10', { interest: '0.3334' }), payment(5, '2025-03-10', { interest: '0.6667' })),
    );
    expect(ledgers.map((l) => l.rows[0]!.interest)).toEqual([3334, 6667]);
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.array(fc.integer({ min: 0, max: 1e6 }), { minLength: 1, maxLength: 8 }),
        (total, weights) => {
          const parts = apportionUnits(total, weights);
          expect(parts.reduce((s, p) => s + p, 0)).toBe(total);
          expect(parts.every(Number.isInteger)).toBe(true);
        },
      ),
    );
  });

  it("reads the corpus' real payments answer (loan 2300367, two payments of January and February 2025) into a statement", () => {
    const page = decodeEnvelope(decodePayment)(corpusFile('python-payments.json'), 'answer');
    const real = page.result.map((p) => readRow(p)!);
    const held = note(2300367, 1, { note_ownership_amount: 26.4319, origination_date: '2024-11-02', ownership_start_date: '2024-11-02' });
    const s = statement(noteLedgers([held], real), day('2025-01-01'), day('2025-12-31'));
    expect(s.notes).toHaveLength(1);
    expect(s.total).toMatchObject({
      payments: 2,
      interest_received: 1.1331,
      principal_received: 0.4293,
      service_fees_paid: 0.0447,
      late_fees_received: 0,
      collection_fees_paid: 0,
      principal_lost: 0,
      sale_proceeds: 0,
      net_cash: 1.5177,
    });
    expect(Object.keys(s.total)).toEqual([...STATEMENT_COLUMNS]);
    expect(statement(noteLedgers([held], real), day('2024-01-01'), day('2024-12-31')).notes).toEqual([]);
  });
});

describe('days past due from the payments', () => {
  it('count from the first due date after the last payment that left the loan current', () => {
    const ledger = noteLedgers(
      [note(3, 1)],
      rows(payment(3, '2025-02-10', { interest: '1' }), payment(3, '2025-03-11', { interest: '1' })),
    )[0]!;
    expect(daysPastDueAt(ledger, day('2025-04-10'))).toBe(0);
    expect(daysPastDueAt(ledger, day('2025-04-20'))).toBe(10);
    expect(daysPastDueAt(ledger, day('2025-03-01'))).toBe(0);
    expect(daysPastDueAt(ledger, day('2025-03-05'))).toBe(0);
    // Before any payment, from the first due date.
    expect(daysPastDueAt(ledger, day('2025-02-09'))).toBe(0);
    expect(daysPastDueAt(noteLedgers([note(4, 1)], [])[0]!, day('2025-03-01'))).toBe(19);
  });
});
