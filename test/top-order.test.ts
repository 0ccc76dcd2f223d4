/**
 * The first k of a sorted search, picked with a heap (mock-server/kit/top-order.ts), are the first k of the whole order the
 * radix sort gives (mock-server/kit/radix-order.ts): clauses both ways, nulls last, -0 and 0 tied, ties in position order.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { emptySortRoom, radixOrder } from '../mock-server/kit/radix-order.js';
import { topOrder } from '../mock-server/kit/top-order.js';

/** Few distinct values, so that ties (within a clause and across all) are common. */
const value = fc.constantFrom(NaN, -0, 0, 1, -1, 2.5, -2.5, 1e9, 3);
const withInfinity = fc.oneof({ weight: 6, arbitrary: value }, { weight: 1, arbitrary: fc.constantFrom(Infinity, -Infinity) });

describe('topOrder', () => {
  test('picks the first k of the radix order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }).chain((clauses) =>
          fc.record({
            rows: fc.array(fc.array(value, { minLength: clauses, maxLength: clauses }), { maxLength: 60 }),
            desc: fc.array(fc.boolean(), { minLength: clauses, maxLength: clauses }),
            k: fc.integer({ min: 0, max: 70 }),
          }),
        ),
        ({ rows, desc, k }) => {
          const n = rows.length;
          const keys = () => desc.map((_, c) => Float64Array.from(rows, (r) => r[c]!));
          const want = [...radixOrder(keys(), desc, n, emptySortRoom())].slice(0, k);
          expect([...topOrder(keys(), desc, n, k)!]).toEqual(want);
        },
      ),
      { numRuns: 500, seed: 43 },
    );
  });

  test('declines infinite keys (they would tie with a null), leaving the keys as they were for the radix sort', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(withInfinity, withInfinity), { minLength: 1, maxLength: 30 }),
        fc.tuple(fc.boolean(), fc.boolean()),
        (rows, desc) => {
          const keys = [0, 1].map((c) => Float64Array.from(rows, (r) => r[c]!));
          const got = topOrder(keys, desc, rows.length, 1);
          if (rows.some((r) => r.some((v) => Math.abs(v) === Infinity))) {
            expect(got).toBeNull();
            keys.forEach((k, c) => k.forEach((v, i) => expect(Object.is(v, rows[i]![c]), `clause ${c} row ${i}`).toBe(true)));
          } else expect(got).not.toBeNull();
        },
      ),
      { numRuns: 300, seed: 4344 },
    );
  });
});
