/**
 * The number formatting of tables and text (src/output/columns.ts `decimal`, and `money`, `count`, `percent` over
 * it) held to what it stands in for: `Intl.NumberFormat('en-US')` with that many fraction digits, for any double.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { count, decimal, money, percent } from '../src/output/columns.js';

const intl = (places: number) => new Intl.NumberFormat('en-US', { minimumFractionDigits: places, maximumFractionDigits: places });
const TWO = intl(2);
const WHOLE = intl(0);

/** Doubles as tables meet them (cents, rates, counts, balances) and as they come (any bit pattern, extremes included). */
const numbers = fc.oneof(
  fc.double(),
  fc.integer({ min: -(10 ** 12), max: 10 ** 12 }).map((c) => c / 100),
  fc.integer({ min: -(10 ** 9), max: 10 ** 9 }).map((c) => c / 1000),
  fc.integer({ min: 0, max: 10 ** 6 }).map((b) => (b / 10 ** 6) * 100),
  fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
  fc.constantFrom(0, -0, 0.005, 0.015, 1.005, 2.675, 0.125, -0.001, 999.995, 9.995, 0.995, 5e-7, 1e21, 1.5e300, Number.MIN_VALUE),
);

describe('decimal: the digits Intl.NumberFormat en-US writes', () => {
  it('matches it with two fraction digits and none, for any double', () => {
    fc.assert(
      fc.property(numbers, (x) => {
        expect(decimal(x, 2)).toBe(TWO.format(x));
        expect(decimal(x, 0)).toBe(WHOLE.format(x));
      }),
      { numRuns: 20_000 },
    );
  });

  it('matches it at other numbers of places too (its rounding is half away from zero on the shortest digits)', () => {
    fc.assert(
      fc.property(numbers, fc.integer({ min: 0, max: 8 }), (x, places) => {
        expect(decimal(x, places)).toBe(intl(places).format(x));
      }),
      { numRuns: 5_000 },
    );
  });

  it('rounds the digits a number is written with, not its binary value (1.005 is 1.01, where toFixed gives 1.00)', () => {
    expect(decimal(1.005, 2)).toBe('1.01');
    expect((1.005).toFixed(2)).toBe('1.00');
    expect(decimal(999_999.995, 2)).toBe('1,000,000.00');
    expect(decimal(-1234567.891, 2)).toBe('-1,234,567.89');
    expect(decimal(NaN, 2)).toBe('NaN');
    expect(decimal(-Infinity, 0)).toBe('-∞');
  });

  it('money, count and percent read it as before, without a negative zero', () => {
    expect(money(-0.004)).toBe('0.00');
    expect(money(11850)).toBe('11,850.00');
    expect(count(-0.2)).toBe('0');
    expect(count(1800)).toBe('1,800');
    expect(percent(0.1299)).toBe('12.99%');
    expect(percent(-0.00001)).toBe('0.00%');
    expect(percent(0.123456, 3)).toBe('12.346%');
  });
});
