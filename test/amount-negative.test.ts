/**
 * A negative amount is called negative, with the minimum bid named, wherever an amount is typed (a bids
 * file row, --amount, a strategy's amount); other spellings keep their own verdicts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountProblem } from '../src/orders/bids-file.js';
import { parseStrategy } from '../src/invest/strategy.js';

/** An amount's text from whole cents: 25, 25.5 or 25.50. */
const amountText = fc.tuple(fc.integer({ min: 1, max: 10_000_000 }), fc.constantFrom(0, 1, 2)).map(([cents, places]) => {
  const whole = Math.floor(cents / 100);
  if (places === 0) return String(whole);
  return places === 1 ? `${whole}.${Math.floor((cents % 100) / 10)}` : (cents / 100).toFixed(2);
});

describe('amounts typed with a minus sign', () => {
  it('-25 is negative, and the message names the minimum bid', () => {
    expect(amountProblem('-25')).toBe('bid_amount -25 is negative: amounts are positive, at least the minimum bid of 25.00');
  });

  it('every negative decimal spelling, whatever its places, is called negative (never "not an amount")', () => {
    fc.assert(
      fc.property(amountText, fc.constantFrom('', '0', '000'), fc.constantFrom('', ' '), (text, extraPlaces, pad) => {
        const spelt = `-${text}${text.includes('.') ? extraPlaces : ''}`;
        if (Number(spelt) === 0) return;
        const problem = amountProblem(`${pad}${spelt}${pad}`);
        expect(problem).toMatch(/ is negative: amounts are positive, at least the minimum bid of 25\.00$/);
        expect(problem).not.toMatch(/not an amount/);
      }),
    );
  });

  it('the same spellings without the sign keep their verdicts: fine at 25.00 and above, below the minimum under it', () => {
    fc.assert(
      fc.property(amountText, (text) => {
        const problem = amountProblem(text);
        if (Number(text) >= 25) expect(problem).toBeNull();
        else expect(problem).toMatch(/is below the minimum bid of 25\.00$/);
      }),
    );
  });

  it('text that is no number is still "not an amount", with or without a sign', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        fc.pre(!/^\s*-?\d*\.?\d+\s*$/.test(s));
        expect(amountProblem(s)).toMatch(/is not an amount with at most 2 decimals$/);
      }),
    );
    for (const s of ['-', '--25', '-25-', '-1e3', '- 25', '-0x19', '-Infinity']) expect(amountProblem(s), s).toMatch(/not an amount/);
  });

  it('a strategy amount of -25 is negative, naming the minimum bid', () => {
    const parsed = parseStrategy('rules:\n  - name: r\n    amount: -25\n', 's.yaml', undefined);
    expect('problems' in parsed && parsed.problems.map((p) => p.message)).toEqual([
      '-25 is negative: amounts are positive, at least the 25.00 minimum bid',
    ]);
  });
});
