/**
 * The first k of a sorted search, picked with a heap (mock-server/kit/top-order.ts), are the first k of the whole order the
 * radix sort gives (mock-server/kit/radix-order.ts): clauses both ways, nulls last, -0 and 0 tied, ties in position order.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { radixOrder } from '../mock-server/kit/radix-order.js';
import { topOrder } from '../mock-server/kit/top-order.js';

/** Few distinct values, so that ties (within a clause and across all) are common. */
const value = fc.constantFrom(NaN, -0, 0, 1, -1, 2.5, -2.5, 1e9, 3);

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
          const want = [...radixOrder(keys(), desc, n)].slice(0, k);
          expect([...topOrder(keys(), desc, n, k)!]).toEqual(want);
        },
      ),
      { numRuns: 500, seed: 43 },
    );
  });

  test('declines infinite keys (they would tie with a null), which the radix sort orders', () => {
    expect(topOrder([Float64Array.from([1, Infinity, NaN])], [false], 3, 1)).toBeNull();
  });
});
