import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LOAN_STATUS } from '../src/contract/enums.js';
import type { Account, Note } from '../src/contract/resources.js';
import { cohortLegend, cohortTable } from '../src/portfolio/cohort-text.js';
import { cohortOf, cohortReport, rebuiltFlows, vintage, type Cohort, type Grouping } from '../src/portfolio/cohorts.js';
import { portfolioReport } from '../src/portfolio/model.js';
import { monthsAfter, scheduledNote } from './helpers/notes.js';

const day = (text: string): number => Date.parse(`${text}T00:00:00Z`);
const ACCOUNT: Account = { available_cash_balance: 0, external_user_id: 'u' };
const withFlows = (notes: readonly Note[], today: number) => notes.map((note) => ({ note, flows: rebuiltFlows(note, today) }));

describe('vintages', () => {
  test.each([
    ['2024-01-01', '2024-01', '2024-Q1', '2024'],
    ['2024-03-31', '2024-03', '2024-Q1', '2024'],
    ['2024-04-01', '2024-04', '2024-Q2', '2024'],
    ['2024-06-30', '2024-06', '2024-Q2', '2024'],
    ['2024-07-01', '2024-07', '2024-Q3', '2024'],
    ['2024-09-30', '2024-09', '2024-Q3', '2024'],
    ['2024-10-01', '2024-10', '2024-Q4', '2024'],
    ['2023-12-31', '2023-12', '2023-Q4', '2023'],
    ['2024-02-29', '2024-02', '2024-Q1', '2024'],
  ])('%s is month %s, quarter %s, year %s', (date, month, quarter, year) => {
    expect(vintage(day(date), 'month')).toBe(month);
    expect(vintage(day(date), 'quarter')).toBe(quarter);
    expect(vintage(day(date), 'year')).toBe(year);
  });

  test("a note's vintage is its loan's origination date as written, not when it was bought, nor shifted by a zone", () => {
    const bought = scheduledNote({ originated: '2024-03-31', bought: '2024-05-02' });
    expect(cohortOf(bought, { by: 'vintage', period: 'month' })).toBe('2024-03');
    const late = { ...scheduledNote(), origination_date: '2024-03-31T23:30:00.000-0700' };
    expect(cohortOf(late, { by: 'vintage', period: 'quarter' })).toBe('2024-Q1');
    const unreadable = { ...scheduledNote({ bought: '2024-06-05' }), origination_date: 'soon' };
    expect(cohortOf(unreadable, { by: 'vintage', period: 'month' })).toBe('2024-06');
  });

  test('vintages come oldest first, ratings best first with unknown ones after', () => {
    const notes = [
      scheduledNote({ id: '1', originated: '2024-11-03', rating: 'Z' }),
      scheduledNote({ id: '2', originated: '2023-02-10', rating: 'HR' }),
      scheduledNote({ id: '3', originated: '2024-01-20', rating: 'NA' }),
      scheduledNote({ id: '4', originated: '2023-12-01', rating: 'AA' }),
    ];
    const today = day('2025-01-01');
    expect(cohortReport(withFlows(notes, today), { by: 'vintage', period: 'quarter' }, today).cohorts.map((c) => c.cohort)).toEqual([
      '2023-Q1',
      '2023-Q4',
      '2024-Q1',
      '2024-Q4',
    ]);
    expect(cohortReport(withFlows(notes, today), { by: 'rating' }, today).cohorts.map((c) => c.cohort)).toEqual(['AA', 'HR', 'N/A', 'Z']);
  });
});

describe('default and charge-off rates', () => {
  // Rating B: a current note, a defaulted one, a charged-off one and one paid in full; rating A: one current note.
  const current = scheduledNote({ id: 'cur', amount: 10_000, payments: 12, rating: 'B' });
  const defaulted = scheduledNote({ id: 'def', amount: 5_000, payments: 6, rating: 'B', status: LOAN_STATUS.DEFAULTED, daysPastDue: 130 });
  const chargedOff = {
    ...scheduledNote({ id: 'co', amount: 2_500, payments: 3, rating: 'B', status: LOAN_STATUS.CHARGEOFF }),
    debt_sale_proceeds_received_pro_rata_share: 40,
  };
  const paid = scheduledNote({ id: 'paid', amount: 2_500, term: 12, payments: 12, rating: 'B' });
  const other = scheduledNote({ id: 'a', amount: 1_000, payments: 12, rating: 'A' });
  const today = monthsAfter('2024-01-31', 12) + 86_400_000;
  const report = cohortReport(withFlows([current, defaulted, chargedOff, paid, other], today), { by: 'rating' }, today);
  const b = report.cohorts.find((c) => c.cohort === 'B')!;

  test('count the defaulted and charged-off notes, and the principal they did not repay', () => {
    const unpaid = (n: Note): number => Math.round((n.note_ownership_amount - n.principal_paid_pro_rata_share) * 100) / 100;
    expect(b.notes).toBe(4);
    expect([b.defaulted_notes, b.charged_off_notes]).toEqual([1, 1]);
    expect(b.defaulted_principal).toBe(unpaid(defaulted));
    expect(b.charged_off_principal).toBe(unpaid(chargedOff));
    expect(b.charged_off_principal).toBeGreaterThan(2_000);
  });

  test('rates by count are over the notes, rates by principal over what was invested', () => {
    expect(b.default_rate_by_count).toBe(0.5);
    expect(b.charge_off_rate_by_count).toBe(0.25);
    expect(b.default_rate_by_principal).toBe(Number(((b.defaulted_principal + b.charged_off_principal) / 20_000).toFixed(4)));
    expect(b.charge_off_rate_by_principal).toBe(Number((b.charged_off_principal / 20_000).toFixed(4)));
    const a = report.cohorts.find((c) => c.cohort === 'A')!;
    expect([a.default_rate_by_count, a.default_rate_by_principal, a.charge_off_rate_by_count, a.charge_off_rate_by_principal]).toEqual([
      0, 0, 0, 0,
    ]);
  });

  test('a charged-off note holds nothing outstanding; a defaulted one is written down whole; debt-sale proceeds are received', () => {
    expect(b.outstanding).toBeCloseTo(current.principal_balance_pro_rata_share + defaulted.principal_balance_pro_rata_share, 2);
    expect(b.expected_loss).toBeCloseTo(defaulted.principal_balance_pro_rata_share, 2);
    const net = (n: Note) =>
      n.principal_paid_pro_rata_share
      + n.interest_paid_pro_rata_share
      + n.service_fees_paid_pro_rata_share
      + n.debt_sale_proceeds_received_pro_rata_share;
    expect(b.received).toBeCloseTo(net(current) + net(defaulted) + net(chargedOff) + net(paid), 2);
    expect(b.realised_return!).toBeLessThan(report.cohorts.find((c) => c.cohort === 'A')!.realised_return!);
  });
});

describe('the seam: flows from elsewhere', () => {
  test('a cohort reads any dated flows: 1,000 out, 1,010 back 31 days later is 1% in 31 days, 1.01^(365/31) − 1 a year', () => {
    const note = scheduledNote({ amount: 1_000, originated: '2024-01-15' });
    const flows = {
      purchases: [{ day: day('2024-01-15'), amount: -1_000 }],
      receipts: [{ day: day('2024-02-15'), amount: 1_010 }],
      outstanding: 0,
      lossMicros: 0,
      bucket: 'paid_in_full' as const,
      unpaid: 0,
    };
    const r = cohortReport([{ note, flows }], { by: 'vintage', period: 'month' }, day('2024-02-15'));
    expect(r.cohorts).toHaveLength(1);
    expect(r.total.received).toBe(1_010);
    expect(r.total.realised_return).toBeCloseTo(1.01 ** (365 / 31) - 1, 6);
  });

  test('a note bought after the as-of day is in no cohort and is counted as left out; a cancelled one is counted as a note, never as money', () => {
    const early = scheduledNote({ id: 'e', originated: '2024-01-10' });
    const later = scheduledNote({ id: 'l', originated: '2024-06-10' });
    const cancelled = {
      ...scheduledNote({ id: 'c', amount: 75, originated: '2024-01-20' }),
      note_status: LOAN_STATUS.CANCELLED,
      principal_balance_pro_rata_share: 0,
    };
    const today = day('2024-08-01');
    const cut = day('2024-03-01');
    const r = cohortReport(
      [early, later, cancelled].map((note) => ({ note, flows: rebuiltFlows(note, today, cut) })),
      { by: 'vintage', period: 'month' },
      cut,
    );
    expect(r.left_out).toBe(1);
    expect(r.cohorts.map((c) => [c.cohort, c.notes, c.cancelled_notes])).toEqual([['2024-01', 2, 1]]);
    expect(r.total.invested).toBe(10_000);
    // The table shows them in a column of their own (only when there are any).
    expect(cohortTable(r, 200)[0]).toMatch(/^cohort +notes +cancelled +invested /);
    expect(cohortTable(r, 200)[1]).toMatch(/^2024-01 +2 +1 +10,000\.00 /);
  });
});

/** A note as the mock's servicing would leave it, in any status, rating and vintage. */
const noteArb = fc
  .record({
    cents: fc.integer({ min: 2_500, max: 2_000_000 }),
    term: fc.constantFrom(12, 36, 60),
    rate: fc.integer({ min: 500, max: 3_000 }).map((r) => r / 10_000),
    originated: fc.integer({ min: 0, max: 5 * 365 }).map((d) => new Date(day('2019-01-01') + d * 86_400_000).toISOString().slice(0, 10)),
    paidShare: fc.double({ min: 0, max: 1, noNaN: true }),
    rating: fc.constantFrom('AA', 'A', 'B', 'C', 'D', 'E', 'HR', 'N/A', 'NA', '', 'Z'),
    kind: fc.constantFrom('current', 'late', 'defaulted', 'charged_off', 'paid'),
    late: fc.integer({ min: 1, max: 120 }),
    recovered: fc.integer({ min: 0, max: 50_000 }),
  })
  .map((s) => {
    const payments = s.kind === 'paid' ? s.term : Math.floor(s.paidShare * (s.term - 1));
    const status = s.kind === 'defaulted' ? LOAN_STATUS.DEFAULTED : s.kind === 'charged_off' ? LOAN_STATUS.CHARGEOFF : undefined;
    const note = scheduledNote({
      amount: s.cents / 100,
      rate: s.rate,
      term: s.term,
      originated: s.originated,
      rating: s.rating,
      payments,
      ...(status === undefined ? {} : { status }),
      ...(s.kind === 'late' ? { daysPastDue: s.late } : {}),
    });
    return s.kind === 'charged_off' ? { ...note, debt_sale_proceeds_received_pro_rata_share: s.recovered / 100 } : note;
  });

const groupingArb = fc.constantFrom<Grouping>(
  { by: 'rating' },
  { by: 'vintage', period: 'month' },
  { by: 'vintage', period: 'quarter' },
  { by: 'vintage', period: 'year' },
);
const MONEY = ['invested', 'received', 'outstanding', 'expected_loss', 'defaulted_principal', 'charged_off_principal'] as const;
const COUNTS = ['notes', 'defaulted_notes', 'charged_off_notes'] as const;
const inCents = (x: number): number => Math.round(x * 100);

describe('cohorts add up (generated portfolios)', () => {
  test('every note is in exactly one cohort, and the cohorts sum to their total and to the portfolio, to the cent', () => {
    const today = day('2026-02-15');
    fc.assert(
      fc.property(fc.array(noteArb, { minLength: 1, maxLength: 25 }), groupingArb, (drafts, g) => {
        const notes = drafts.map((n, i) => ({ ...n, loan_note_id: `n-${i}` }));
        const r = cohortReport(withFlows(notes, today), g, today);
        const p = portfolioReport(ACCOUNT, notes, today);
        // Exactly one cohort each: names unique, and each cohort holds the notes cohortOf puts in it.
        expect(new Set(r.cohorts.map((c) => c.cohort)).size).toBe(r.cohorts.length);
        for (const c of r.cohorts) expect(c.notes).toBe(notes.filter((n) => cohortOf(n, g) === c.cohort).length);
        expect(r.left_out).toBe(0);
        for (const k of COUNTS) expect(r.cohorts.reduce((s, c: Cohort) => s + c[k], 0)).toBe(r.total[k]);
        for (const k of MONEY) expect(r.cohorts.reduce((s, c: Cohort) => s + inCents(c[k]), 0)).toBe(inCents(r.total[k]));
        expect(r.total.notes).toBe(p.notes);
        // By rating, the cohorts are the portfolio's own split by rating.
        if (g.by === 'rating')
          for (const c of r.cohorts) expect([c.notes, c.invested]).toEqual([p.by_rating[c.cohort]!.notes, p.by_rating[c.cohort]!.invested]);
        expect(inCents(r.total.invested)).toBe(inCents(p.invested));
        expect(inCents(r.total.outstanding)).toBe(inCents(p.outstanding_principal));
        const recovered = notes.reduce((s, n) => s + inCents(n.debt_sale_proceeds_received_pro_rata_share), 0);
        expect(inCents(r.total.received)).toBe(inCents(p.net_received) + recovered);
        // The expected loss is summed exactly and rounded once, the cohorts' total as the portfolio's.
        expect(r.total.expected_loss).toBe(p.expected_loss);
        if (p.annualized_return === null) expect(r.total.realised_return).toBeNull();
        else expect(r.total.realised_return!).toBeCloseTo(p.annualized_return, 5);
      }),
      { numRuns: 40 },
    );
  });
});

describe('the table', () => {
  const today = day('2025-01-01');
  const notes = [
    scheduledNote({ id: '1', originated: '2023-02-10', payments: 20 }),
    scheduledNote({ id: '2', originated: '2024-01-20', payments: 10, status: LOAN_STATUS.CHARGEOFF }),
  ];
  const report = cohortReport(withFlows(notes, today), { by: 'vintage', period: 'month' }, today);

  test('fits any width by dropping the least needed columns, the cohort and the total row always there', () => {
    fc.assert(
      fc.property(fc.integer({ min: 20, max: 200 }), (width) => {
        const lines = cohortTable(report, width);
        expect(lines.map((l) => l.split(/ {2,}/)[0])).toEqual(['cohort', '2023-02', '2024-01', 'total']);
        if (width >= 60) for (const l of lines) expect(l.length).toBeLessThanOrEqual(width);
      }),
    );
    expect(cohortTable(report, 200)[0]).toMatch(
      /^cohort +notes +invested +received +outstanding +charged off +default n +default \$ +c\/o n +c\/o \$ +return$/,
    );
    expect(cohortTable(report, 60)[0]).toMatch(/^cohort +notes +invested +received +default \$ +return$/);
    expect(cohortTable(report, 50)[0]).toMatch(/^cohort +notes +invested +received +return$/);
  });

  test('shows rates as percentages and says what the columns mean', () => {
    expect(cohortTable(report, 200)[2]).toMatch(
      /^2024-01 +1 +10,000\.00 +3,247\.01 +0\.00 +7,571\.30 +100\.0% +75\.7% +100\.0% +75\.7% +-\d+\.\d\d%$/,
    );
    const legend = cohortLegend(report, 60);
    expect(legend.join(' ')).toMatch(/^cohort: vintage, the loan's origination month\. invested: /);
    expect(legend.join(' ')).toMatch(/c\/o n \/ \$: the same for charged-off notes alone\./);
    for (const l of legend) expect(l.length).toBeLessThanOrEqual(60);
  });
});
