/**
 * A column of keys (mock-server/world/column-keys.ts) stores a member key per listing in one pass, `storeKey`: for any
 * value it takes what `isKey` takes, stores the bytes `putKey` stores (read back by `readKey` as the very key), and
 * touches no other row; on a value that is no key it says so (the caller's slow path then rewrites the row).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isKey, putKey, readKey, storeKey } from '../mock-server/world/column-keys.js';

/** Strings of 0 to 26 characters, mostly of upper-case hex digits, the rest of near misses (lower case, G, punctuation, non-ASCII). */
const text = fc
  .array(fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...'0123456789ABCDEF') }, fc.constantFrom(...'abcfgGZ/:@`\u0130 ')), {
    minLength: 0,
    maxLength: 26,
  })
  .map((cs) => cs.join(''));

describe('a column of keys', () => {
  test('storeKey takes what isKey takes, stores what putKey stores, and leaves the other rows as they were', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.constant(null), fc.integer()), fc.constantFrom(2, 4, 24), fc.nat({ max: 3 }), (v, width, row) => {
        const bytes = width >> 1;
        const d = Uint8Array.from({ length: 4 * bytes }, (_, k) => (k * 37) & 255);
        const before = d.slice();
        const stored = storeKey(d, row, width, v);
        expect(stored).toBe(isKey(v, width));
        // Rows other than `row` are never written, whatever `v` is.
        for (let k = 0; k < d.length; k++) if (k < row * bytes || k >= (row + 1) * bytes) expect(d[k]).toBe(before[k]);
        if (stored) {
          const want = before.slice();
          putKey(want, row, width, v as string);
          expect(d).toEqual(want);
          expect(readKey(d, row, width)).toBe(v);
        }
      }),
      { numRuns: 2000, seed: 20261129 },
    );
  });

  test('a value of the width whose last digit is not one is no key (part of it may be written: the caller rewrites the row)', () => {
    const d = new Uint8Array(12);
    expect(storeKey(d, 0, 24, '0123456789ABCDEF0123456G')).toBe(false);
    expect(storeKey(d, 0, 24, '0123456789ABCDEF01234567')).toBe(true);
    expect(readKey(d, 0, 24)).toBe('0123456789ABCDEF01234567');
  });
});
