/**
 * `addMonths` (src/contract/amortisation.ts) works out due dates on the calendar in integers; it must give
 * what Date's own calendar gives (`addMonthsByDate`) for every time and count, month ends and leap years
 * included, and fall back to Date where its integers would not be exact.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { addMonths, addMonthsByDate, monthlyPayment } from '../src/contract/amortisation.js';
import { toCents } from '../src/contract/bid-rules.js';

const utc = (iso: string) => Date.parse(iso);

describe('addMonths', () => {
  test("is Date's calendar for any time and count", () => {
    const time = fc.oneof(
      fc.integer({ min: -8e15, max: 8e15 }),
      // Near today, where loans are: month ends and hours of the day.
      fc.integer({ min: utc('1999-01-01T00:00:00Z'), max: utc('2101-01-01T00:00:00Z') }),
      // The last days of months, at any time of day.
      fc
        .tuple(
          fc.integer({ min: 1600, max: 2500 }),
          fc.integer({ min: 0, max: 11 }),
          fc.integer({ min: 0, max: 3 }),
          fc.integer({ min: 0, max: 86_399_999 }),
        )
        .map(([y, m, back, ms]) => Date.UTC(y, m + 1, 0) - back * 86_400_000 + ms),
    );
    const months = fc.oneof(fc.integer({ min: -60, max: 60 }), fc.integer({ min: -10_000, max: 10_000 }));
    fc.assert(
      fc.property(time, months, (ms, n) => {
        expect(addMonths(ms, n)).toBe(addMonthsByDate(ms, n));
      }),
      { numRuns: 20_000 },
    );
  });

  test("keeps the day or clamps it to the month's last, leap years by the Gregorian rule", () => {
    expect(addMonths(utc('2026-01-31T10:00:00Z'), 1)).toBe(utc('2026-02-28T10:00:00Z'));
    expect(addMonths(utc('2028-01-31T10:00:00Z'), 1)).toBe(utc('2028-02-29T10:00:00Z'));
    expect(addMonths(utc('2100-01-31T00:00:00Z'), 1)).toBe(utc('2100-02-28T00:00:00Z'));
    expect(addMonths(utc('2000-01-31T00:00:00Z'), 1)).toBe(utc('2000-02-29T00:00:00Z'));
    expect(addMonths(utc('2026-03-31T23:59:59.999Z'), -1)).toBe(utc('2026-02-28T23:59:59.999Z'));
    expect(addMonths(utc('2026-12-15T00:00:00Z'), 1)).toBe(utc('2027-01-15T00:00:00Z'));
    expect(addMonths(utc('1969-12-31T12:00:00Z'), 2)).toBe(utc('1970-02-28T12:00:00Z'));
  });

  test("goes through Date where its integers would not be exact (a fraction of a ms, NaN, beyond Date's range)", () => {
    for (const [ms, n] of [
      [1.5, 1],
      [-1.5, 1],
      [NaN, 1],
      [8.64e15, 1],
      [8.64e15, -1],
      [0, 1.5],
      [0, 1e7],
      [Infinity, 1],
    ] as const) {
      expect(addMonths(ms, n)).toBe(addMonthsByDate(ms, n));
    }
  });
});

describe('monthlyPayment', () => {
  /** The payment as the formula gives it, worked out afresh every call. */
  const formula = (principal: number, annualRate: number, months: number): number => {
    const r = annualRate / 12;
    return r === 0 ? toCents(principal / months) : toCents((principal * r) / (1 - Math.pow(1 + r, -months)));
  };

  test('is the formula to the bit, for any sequence of calls (its memo of the power shared by rates and terms that meet in a slot)', () => {
    // Few rates and terms, so that calls repeat pairs and pairs share slots; any rate and term besides.
    const rate = fc.oneof(
      fc.constantFrom(0, 0.0539, 0.1, 0.1234, 0.2, 0.31, 0.3199),
      fc.integer({ min: 0, max: 4000 }).map((k) => k / 10_000),
      fc.double({ min: -1, max: 5, noNaN: true }),
    );
    const months = fc.oneof(fc.constantFrom(12, 36, 60, 4096 + 36), fc.integer({ min: 1, max: 600 }));
    const call = fc.tuple(
      fc.integer({ min: 1, max: 5_000_000 }).map((c) => c / 100),
      rate,
      months,
    );
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 60 }), (calls) => {
        for (const [p, a, m] of calls) expect(Object.is(monthlyPayment(p, a, m), formula(p, a, m))).toBe(true);
      }),
    );
  });
});
