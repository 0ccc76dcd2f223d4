/**
 * Each figure told one way (issue 38): one days past due (the marketplace's, re-derived from the payment
 * rows only when it sends none or for a past day), one expected-loss table for the split, the portfolio
 * and the cohorts, summed before rounding; a pending note never written off; each note's payment rows as
 * a cancelled note never counted as money (two notes on one loan: note-ledger-rows.test.ts);
 * `--as-of` showing only what the rows tell of that day; returns as effective annual rates (XIRR).
 */
import { describe, expect, it } from 'vitest';
import { decodePayment, type Account } from '../src/contract/decode.js';
import { LOAN_STATUS } from '../src/contract/enums.js';
import { noteLedgers } from '../src/flows/note-ledger.js';
import { readRow, type FlowRow } from '../src/flows/payment-rows.js';
import { cohortReport, ledgerFlows } from '../src/portfolio/cohorts.js';
import { noteFigures, type NoteFigures } from '../src/flows/figures.js';
import { portfolioReport, rebuiltLedgers } from '../src/portfolio/model.js';
import { annualisedReturn, nominalReturn } from '../src/portfolio/rates.js';

const DAY = 86_400_000;
const day = (text: string): number => Date.parse(`${text}T00:00:00Z`);
const ACCOUNT: Account = {
  available_cash_balance: 500,
  total_account_value: 900,
  pending_investments_primary_market: 25,
  external_user_id: 'u',
};

/** A note as the marketplace sends it (a current 25.00 note of a 36-month loan at 12%), read as the report reads it. */
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
      platform_rating: 'A',
      ...extra,
    },
    'note',
  );
}

/** A payment row as the payments resource sends it. */
function row(
  loan: number,
  date: string,
  f: { principal?: string; interest?: string; balance?: string; id?: number; key?: string; post?: number | null },
): FlowRow {
  return readRow(
    decodePayment(
      {
        loan_number: loan,
        transaction_effective_date: `${date}T08:00:00.000+0000`,
        payment_transaction_code: 'ACH',
        payment_status: 'Success',
        match_back_id: f.key ?? `${loan}:${date}`,
        loan_payment_cashflow_type: 'Payment',
        payment_amount: '0',
        principal_amount: f.principal ?? '0',
        interest_amount: f.interest ?? '0',
        late_fee_amount: '0',
        service_fee_amount: '0',
        collection_fee_amount: '0',
        post_days_past_due: f.post ?? null,
        ...(f.balance !== undefined ? { resulting_principal_balance: f.balance } : {}),
        ...(f.id !== undefined ? { transaction_id: f.id } : {}),
      },
      'row',
    ),
  )!;
}

/** The cohort report of the ledgers at `today`, by rating. */
const cohorts = (ledgers: ReturnType<typeof noteLedgers>, today: number) =>
  cohortReport(
    ledgers.map((l) => ({ note: l.note, flows: ledgerFlows(l, today) })),
    { by: 'rating' },
    today,
  );

describe('one days past due', () => {
  // Paid once, on 2025-02-10: the rows alone would call it 80-odd days late by 2025-06-01.
  const rows = [row(1, '2025-02-10', { principal: '0.5', interest: '0.25', balance: '24.5' })];
  const today = day('2025-06-01');

  it("splits by status and writes down by the marketplace's figure: a note it calls current is current, and nothing is written off", () => {
    const ledgers = noteLedgers(
      [note('1-1', { principal_balance_pro_rata_share: 24.5, principal_paid_pro_rata_share: 0.5, interest_paid_pro_rata_share: 0.25 })],
      rows,
    );
    const p = portfolioReport(
      ACCOUNT,
      ledgers.map((l) => l.note),
      today,
      today,
      ledgers,
    );
    expect(p.by_status!.current!.notes).toBe(1);
    expect(p.expected_loss).toBe(0);
    expect(p.expected_return).toBe(p.realised_return);
    expect(p.days_past_due_from_payments).toBe(0);
    expect(cohorts(ledgers, today).total.expected_loss).toBe(0);
  });

  it('re-derives them from the rows only for a note sent without them, for the split and the loss alike, and counts it', () => {
    const ledgers = noteLedgers(
      [note('1-1', { days_past_due: undefined, principal_balance_pro_rata_share: 24.5, principal_paid_pro_rata_share: 0.5 })],
      rows,
    );
    const p = portfolioReport(
      ACCOUNT,
      ledgers.map((l) => l.note),
      today,
      today,
      ledgers,
    );
    // Due 2025-03-10 and unpaid: 83 days late, 31–120 days, half written off.
    expect(p.by_status!.late_31_120!.notes).toBe(1);
    expect(p.expected_loss).toBe(12.25);
    expect(p.days_past_due_from_payments).toBe(1);
  });
});

describe('one expected-loss table', () => {
  const today = day('2025-09-01');
  // Current by status, 150 days late: not yet defaulted by the marketplace.
  const late = {
    days_past_due: 150,
    principal_balance_pro_rata_share: 20,
    principal_paid_pro_rata_share: 5,
    interest_paid_pro_rata_share: 1,
  };

  it.each([
    ['read from its payments', noteLedgers([note('2-1', late)], [row(2, '2025-02-10', { principal: '5', interest: '1', balance: '20' })])],
    ['rebuilt from its schedule', rebuiltLedgers([note('2-1', late)])],
  ])(
    'a note over 120 days late and not yet defaulted is written off whole in the split, the portfolio and the cohorts (%s)',
    (_, ledgers) => {
      const p = portfolioReport(
        ACCOUNT,
        ledgers.map((l) => l.note),
        today,
        today,
        ledgers,
      );
      expect(p.by_status!.late_over_120).toEqual({ notes: 1, invested: 25, outstanding_principal: 20, share: 1 });
      expect(p.expected_loss).toBe(20);
      expect(cohorts(ledgers, today).total.expected_loss).toBe(20);
    },
  );

  it('sums the write-downs before rounding, and the cohorts add up to that total (three notes of 5.005 each: 15.02, not 15.03 nor 15.00)', () => {
    // Each 25.00 note has repaid 14.99: 10.01 outstanding, 40 days late, half of it (5.005) written off.
    const notes = ['3-1', '4-1', '5-1'].map((id, i) =>
      note(id, {
        days_past_due: 40,
        principal_balance_pro_rata_share: 10.01,
        principal_paid_pro_rata_share: 14.99,
        platform_rating: i === 2 ? 'B' : 'A',
      }),
    );
    const ledgers = noteLedgers(
      notes,
      [3, 4, 5].map((loan) => row(loan, '2025-02-10', { principal: '14.99', balance: '10.01' })),
    );
    const p = portfolioReport(ACCOUNT, notes, today, today, ledgers);
    // 3 × 10.01 × 0.5 = 15.015 exactly, rounded once, half up.
    expect(p.expected_loss).toBe(15.02);
    const c = cohorts(ledgers, today);
    expect(c.total.expected_loss).toBe(15.02);
    expect(c.cohorts.map((x) => [x.cohort, x.expected_loss])).toEqual([
      ['A', 10.01],
      ['B', 5.01],
    ]);
  });
});

it('a note not yet originated is pending: in its own line at par, never written off, not in the returns', () => {
  const today = day('2025-06-01');
  const paying = note('6-1', {
    principal_balance_pro_rata_share: 24.5,
    principal_paid_pro_rata_share: 0.5,
    interest_paid_pro_rata_share: 0.25,
  });
  const pending = note('7-1', {
    note_status: LOAN_STATUS.ORIGINATIONDELAYED,
    origination_date: '2020-03-01',
    ownership_start_date: '2020-03-01',
  });
  const rows = [row(6, '2025-02-10', { principal: '0.5', interest: '0.25', balance: '24.5' })];
  const both = noteLedgers([paying, pending], rows);
  const p = portfolioReport(ACCOUNT, [paying, pending], today, today, both);
  expect(p.by_status!.pending).toEqual({ notes: 1, invested: 25, outstanding_principal: 25, share: 0.5 });
  expect(p.by_status!.current!.notes).toBe(1);
  expect(p.expected_loss).toBe(0);
  const alone = noteLedgers([paying], rows);
  expect(p.realised_return).toBe(portfolioReport(ACCOUNT, [paying], today, today, alone).realised_return);
  expect(cohorts(both, today).total).toMatchObject({ notes: 2, invested: 50, outstanding: 49.5, expected_loss: 0 });
});

it('a cancelled note counts as a note, never as money: out of invested in the portfolio, its split and its cohort', () => {
  const today = day('2025-06-01');
  const cancelled = note('10-1', { note_ownership_amount: 75, note_status: LOAN_STATUS.CANCELLED, principal_balance_pro_rata_share: 0 });
  const paid = note('11-1', {
    note_status: LOAN_STATUS.COMPLETED,
    principal_balance_pro_rata_share: 0,
    principal_paid_pro_rata_share: 25,
    interest_paid_pro_rata_share: 8,
  });
  const ledgers = noteLedgers([cancelled, paid], [row(11, '2025-04-10', { principal: '25', interest: '8', balance: '0' })]);
  const p = portfolioReport(ACCOUNT, [cancelled, paid], today, today, ledgers);
  expect([p.notes, p.cancelled_notes, p.invested]).toEqual([2, 1, 25]);
  expect(p.by_status!.cancelled).toEqual({ notes: 1, invested: 0, outstanding_principal: 0, share: 0 });
  expect(p.by_rating.A).toEqual({ notes: 2, invested: 25, outstanding_principal: 0, share: 1 });
  const c = cohorts(ledgers, today).cohorts[0]!;
  expect([c.notes, c.cancelled_notes, c.invested, c.received, c.outstanding]).toEqual([2, 1, 25, 33, 0]);
  expect(c.realised_return).toBe(p.realised_return);
});

describe('--as-of a past day', () => {
  const today = day('2025-09-01');
  const cut = day('2025-03-01');
  // Bought 2025-01-10, paid 2025-02-10 and 2025-04-10 (late by then), 23.98 left today; a second note bought after the cut.
  const first = note('12-1', { principal_balance_pro_rata_share: 23.98, principal_paid_pro_rata_share: 1.02, days_past_due: 45 });
  const second = note('13-1', { origination_date: '2025-05-02', ownership_start_date: '2025-05-02', platform_rating: 'B' });
  const rows = [
    row(12, '2025-04-10', { principal: '0.52', balance: '23.98' }),
    row(12, '2025-02-10', { principal: '0.5', interest: '0.25', balance: '24.5' }),
  ];
  const ledgers = noteLedgers([first, second], rows);
  const p = portfolioReport(ACCOUNT, [first, second], today, cut, ledgers);

  it("leaves the account's figures out (null, named), never today's under a past date", () => {
    expect([p.account_value, p.available_cash_balance, p.pending_bids]).toEqual([null, null, null]);
    expect(p.not_known_at_as_of).toEqual(['account_value', 'available_cash_balance', 'pending_bids']);
    expect(portfolioReport(ACCOUNT, [first, second], today, today, ledgers).not_known_at_as_of).toEqual([]);
  });

  it('counts the notes bought by then, their principal outstanding then, and their status then, from the rows', () => {
    expect([p.notes, p.invested, p.outstanding_principal]).toEqual([1, 25, 24.5]);
    expect(p.by_status!.current).toEqual({ notes: 1, invested: 25, outstanding_principal: 24.5, share: 1 });
    expect(p.by_status!.late_31_120!.notes).toBe(0);
    expect(p.by_rating.B!.notes).toBe(0);
    expect(p.days_past_due_from_payments).toBe(1);
  });

  it('before the first note was bought: no notes, nothing invested, and a return of none for that reason', () => {
    const early = portfolioReport(ACCOUNT, [first, second], today, day('2024-12-31'), ledgers);
    expect([early.notes, early.invested, early.outstanding_principal, early.annualized_return, early.annualized_return_reason]).toEqual([
      0,
      0,
      0,
      null,
      'no notes',
    ]);
    expect(Object.values(early.by_rating).every((b) => b.notes === 0)).toBe(true);
  });

  it("gives each cohort its notes' status then: a note charged off after the day is not charged off on it", () => {
    const chargedLater = note('16-1', {
      note_status: LOAN_STATUS.CHARGEOFF,
      principal_balance_pro_rata_share: 0,
      principal_paid_pro_rata_share: 0.5,
    });
    const own = noteLedgers(
      [chargedLater],
      [
        row(16, '2025-07-01', { key: 'co', balance: '24.5' }),
        row(16, '2025-02-10', { principal: '0.5', interest: '0.25', balance: '24.5' }),
      ].map((r, i) => (i === 0 ? { ...r, chargeOff: true } : r)),
    );
    const at = (d: number) =>
      cohortReport(
        own.map((l) => ({ note: l.note, flows: ledgerFlows(l, today, d) })),
        { by: 'rating' },
        d,
      ).total;
    expect(at(cut)).toMatchObject({ charged_off_notes: 0, charged_off_principal: 0, outstanding: 24.5 });
    expect(at(today)).toMatchObject({ charged_off_notes: 1, charged_off_principal: 24.5, outstanding: 0 });
  });

  it('leaves the status split out when a note has no rows to read a past status from', () => {
    const rebuilt = rebuiltLedgers([first]);
    const r = portfolioReport(ACCOUNT, [first], today, cut, rebuilt);
    expect(r.by_status).toBeNull();
    expect(r.by_status_reason).toMatch(/1 note\(s\) without payment rows/);
    expect(r.not_known_at_as_of).toContain('by_status');
  });
});

describe('returns as effective annual rates: calendar-day XIRR', () => {
  /** Σ aᵢ·(1+r)^(−dᵢ/365), written out. */
  const npv = (flows: readonly { day: number; amount: number }[], r: number): number =>
    flows.reduce((s, f) => s + f.amount * (1 + r) ** (-(f.day - flows[0]!.day) / DAY / 365), 0);
  /** The root of npv by plain bisection between −99% and +1000%: an independent check of the solver. */
  function bisect(flows: readonly { day: number; amount: number }[]): number {
    let [lo, hi] = [-0.99, 10];
    for (let i = 0; i < 200; i++) {
      const mid = (lo + hi) / 2;
      if (Math.sign(npv(flows, mid)) === Math.sign(npv(flows, lo))) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  }

  it("matches Microsoft Excel's published XIRR example (irregular dates, 37.34%) and a bisection of the NPV written out", () => {
    // support.microsoft.com, "XIRR function": -10,000 on 2008-01-01, then 2,750, 4,250, 3,250, 2,750; XIRR 0.373362535.
    const flows = [
      { day: day('2008-01-01'), amount: -10_000 },
      { day: day('2008-03-01'), amount: 2_750 },
      { day: day('2008-10-30'), amount: 4_250 },
      { day: day('2009-02-15'), amount: 3_250 },
      { day: day('2009-04-01'), amount: 2_750 },
    ];
    const r = annualisedReturn(flows);
    expect(r.reason).toBeNull();
    expect(r.rate!).toBeCloseTo(bisect(flows), 9);
    expect(r.rate!).toBeCloseTo(0.373362535, 6);
    expect(Math.abs(npv(flows, r.rate!))).toBeLessThan(1e-6);
  });

  it('a year in days, not twelve months: 1% over 31 days is 1.01^(365/31) − 1 a year effective; nominally 12% a year', () => {
    const flows = [
      { day: day('2024-01-15'), amount: -1_000 },
      { day: day('2024-02-15'), amount: 1_010 },
    ];
    expect(annualisedReturn(flows).rate!).toBeCloseTo(1.01 ** (365 / 31) - 1, 10);
    expect(nominalReturn(flows).rate!).toBeCloseTo(0.12, 10);
  });

  it('the report gives both, the method named, the effective one the realised return', () => {
    const today = day('2025-06-01');
    const n = note('14-1', {
      principal_balance_pro_rata_share: 24.5,
      principal_paid_pro_rata_share: 0.5,
      interest_paid_pro_rata_share: 0.25,
    });
    const ledgers = noteLedgers([n], [row(14, '2025-02-10', { principal: '0.5', interest: '0.25', balance: '24.5' })]);
    const p = portfolioReport(ACCOUNT, [n], today, today, ledgers);
    const flows = [
      { day: day('2025-01-10'), amount: -25 },
      { day: day('2025-02-10'), amount: 0.75 },
      { day: today, amount: 24.5 },
    ];
    expect(p.realised_return).toBeCloseTo(bisect(flows), 6);
    expect(p.annualized_return).toBe(p.realised_return);
    expect(p.realised_return_nominal).toBeCloseTo(nominalReturn(flows).rate!, 6);
    expect(p.return_method).toMatch(/XIRR/);
  });
});

it('a note sent without days past due, before any payment, is late from its first due date (re-derived from the rows)', () => {
  const n = note('15-1', { days_past_due: undefined });
  const at = portfolioReport(ACCOUNT, [n], day('2025-02-20'), day('2025-02-20'), noteLedgers([n], []));
  // First due 2025-02-10, unpaid: 10 days late.
  expect(at.by_status!.late_1_15!.notes).toBe(1);
  expect(at.expected_loss).toBe(2.5);
});
