import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LOAN_STATUS } from '../src/contract/enums.js';
import { barLines } from '../src/output/bars.js';
import { portfolioReport } from '../src/portfolio/model.js';
import { portfolioLines } from '../src/portfolio/text.js';
import { monthsAfter, scheduledNote } from './helpers/notes.js';

const ACCOUNT = { available_cash_balance: 100, external_user_id: 'u' };

describe('horizontal bars', () => {
  test('lengths follow the values, the largest fills the room, figures line up after the bars', () => {
    const lines = barLines(
      [
        { label: 'A', value: 100, text: '100.00' },
        { label: 'HR', value: 25, text: '25.00' },
        { label: 'B', value: 0, text: '0.00' },
      ],
      40,
    );
    const bar = (l: string) => (l.match(/[█▏▎▍▌▋▊▉]+/) ?? [''])[0];
    expect(bar(lines[0]!).length).toBe(40 - 2 - 6 - 4);
    expect(bar(lines[1]!).length).toBe(Math.ceil((40 - 2 - 6 - 4) / 4));
    expect(bar(lines[2]!)).toBe('');
    expect(lines.map((l) => l.indexOf('.'))).toEqual([lines[0]!.indexOf('.'), lines[0]!.indexOf('.') - 1, lines[0]!.indexOf('.') - 2]);
  });
});

describe('the report as text', () => {
  const notes = [
    scheduledNote({ id: '1-1', amount: 1000, rating: 'A', payments: 6 }),
    scheduledNote({ id: '2-2', amount: 500, rating: 'D', payments: 6, daysPastDue: 20 }),
  ];
  const report = portfolioReport(ACCOUNT, notes, monthsAfter('2024-01-31', 6) + 20 * 86_400_000);

  test('on a terminal: bars for the split by status and by rating', () => {
    const text = portfolioLines(report, { bars: true, width: 100 }).join('\n');
    expect(text).toMatch(/^ {2}A +█+ +1,000\.00 +66\.7%/m);
    expect(text).toMatch(/^ {2}16–30 days late +█+/m);
    expect(text).toMatch(/^realised return +-?\d+\.\d\d% a year, effective \(net, XIRR\); -?\d+\.\d\d% nominal \(12 × monthly\)$/m);
  });

  test('elsewhere: the same rows, plain', () => {
    const text = portfolioLines(report, { bars: false, width: 100 }).join('\n');
    expect(text).not.toMatch(/█/);
    expect(text).toMatch(/^ {2}D +500\.00 +33\.3% +1 notes/m);
  });

  test('a return that cannot be computed says why', () => {
    expect(portfolioLines(portfolioReport(ACCOUNT, [], monthsAfter('2024-01-31', 6)), { bars: false, width: 80 }).join('\n')).toMatch(
      /^realised return +n\/a \(no notes\)$/m,
    );
  });
});

test('any mix of note figures gives finite figures, and a return or a reason (generated notes)', () => {
  const money = fc.integer({ min: 0, max: 1_000_000 }).map((c) => c / 100);
  const note = fc
    .record({
      payments: fc.integer({ min: 0, max: 60 }),
      term: fc.constantFrom(24, 36, 48, 60),
      rate: fc.integer({ min: 0, max: 3600 }).map((b) => b / 10_000),
      status: fc.constantFrom(...Object.values(LOAN_STATUS)),
      daysPastDue: fc.integer({ min: 0, max: 200 }),
      principalPaid: fc.option(money, { nil: undefined }),
      interestPaid: fc.option(money, { nil: undefined }),
      originated: fc.constantFrom('2019-03-31', '2023-02-28', '2024-01-15'),
    })
    .map((g) => {
      const n = scheduledNote({
        amount: 500,
        term: g.term,
        rate: g.rate,
        payments: Math.min(g.payments, g.term),
        status: g.status,
        daysPastDue: g.daysPastDue,
        originated: g.originated,
      });
      return {
        ...n,
        ...(g.principalPaid !== undefined ? { principal_paid_pro_rata_share: g.principalPaid } : {}),
        ...(g.interestPaid !== undefined ? { interest_paid_pro_rata_share: g.interestPaid } : {}),
      };
    });
  fc.assert(
    fc.property(fc.array(note, { maxLength: 6 }), fc.integer({ min: 0, max: 3000 }), (notes, days) => {
      const r = portfolioReport(ACCOUNT, notes, Date.parse('2024-06-01T00:00:00Z') + days * 86_400_000);
      for (const v of Object.values(r)) if (typeof v === 'number') expect(Number.isFinite(v)).toBe(true);
      if (r.annualized_return === null) expect(r.annualized_return_reason).toMatch(/\w/);
      else expect(r.annualized_return_reason).toBeNull();
    }),
    { numRuns: 200 },
  );
});
