/**
 * Records by number (mock-server/world/world.ts ByNumber: the world's listings by number and its loans)
 * read as the Map they replace: the same records under the same numbers for any numbers set in any order,
 * and, for numbers handed out in order as the world hands them out, the same order too (the state file's
 * text depends on it).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ByNumber } from '../mock-server/world/world.js';

/** Numbers near one another (they often extend the array), sometimes far off, negative or fractional. */
const number = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 500_000, max: 500_040 }) },
  { weight: 1, arbitrary: fc.integer({ min: -5, max: 2 ** 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(0.5, -0, 500_003.25) },
);

describe('records by number', () => {
  test('hold what a Map holds, whatever numbers are set in whatever order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(number, fc.string()), { maxLength: 80 }), (sets) => {
        const byNumber = new ByNumber<string>();
        const map = new Map<number, string>();
        for (const [n, v] of sets) {
          byNumber.set(n, v);
          map.set(n, v);
        }
        expect(byNumber.size).toBe(map.size);
        for (const [n, v] of map) {
          expect(byNumber.get(n)).toBe(v);
          expect(byNumber.has(n)).toBe(true);
        }
        expect(byNumber.get(-1e9)).toBeUndefined();
        expect(new Map(byNumber.entries())).toEqual(map);
        expect([...byNumber.keys()].sort((a, b) => a - b)).toEqual([...map.keys()].sort((a, b) => a - b));
        expect([...byNumber.values()].length).toBe(map.size);
        expect(new Map([...byNumber])).toEqual(map);
      }),
      { numRuns: 500 },
    );
  });

  test('numbers handed out in order read back in that order, as a Map gives them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.nat(200), fc.array(fc.nat(300)), (first, count, again) => {
        const byNumber = new ByNumber<number>();
        const map = new Map<number, number>();
        for (let k = 0; k < count; k++) {
          byNumber.set(first + k, k);
          map.set(first + k, k);
        }
        // Records replaced under numbers already held keep their place.
        for (const k of again)
          if (k < count) {
            byNumber.set(first + k, -k);
            map.set(first + k, -k);
          }
        expect([...byNumber.entries()]).toEqual([...map.entries()]);
        expect([...byNumber.values()]).toEqual([...map.values()]);
        expect([...byNumber.keys()]).toEqual([...map.keys()]);
      }),
      { numRuns: 300 },
    );
  });
});
