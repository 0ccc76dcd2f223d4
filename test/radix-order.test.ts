/**
 * The radix order of the listings search (mock-server/kit/radix-order.ts) is the order of the generic sort
 * (query-params.ts `orderBy`, a stable comparison sort): for random keys with ties, nulls, negatives,
 * -0 and infinities, over one to three clauses in either direction.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { orderBy } from '../mock-server/search/query-params.js';
import { radixOrder } from '../mock-server/kit/radix-order.js';

const key = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(-0, Infinity, -Infinity, 1.7e12, -1.7e12, 0.1, 0.30000000000000004),
  fc.double({ noNaN: true }),
);

describe('radix order', () => {
  test('orders positions as the stable comparison sort does', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }).chain((clauses) =>
          fc.record({
            desc: fc.array(fc.boolean(), { minLength: clauses, maxLength: clauses }),
            rows: fc.array(fc.array(key, { minLength: clauses, maxLength: clauses }), { maxLength: 60 }),
          }),
        ),
        ({ desc, rows }) => {
          const clauses = desc.map((d, c) => ({ field: String(c), desc: d }));
          const want = orderBy(
            rows.map((_, i) => i),
            clauses,
            (i, f) => rows[i]![Number(f)],
          );
          const keys = desc.map((_, c) => Float64Array.from(rows, (r) => r[c] ?? NaN));
          expect([...radixOrder(keys, desc, rows.length)]).toEqual(want);
        },
      ),
      { numRuns: 500, seed: 20261123 },
    );
  });

  test('orders a large run of keys sharing most digits', () => {
    const n = 5000;
    const keys = Float64Array.from({ length: n }, (_, i) => 1_700_000_000_000 + ((i * 7919) % 1000));
    const want = [...keys.keys()].sort((a, b) => keys[a]! - keys[b]! || a - b);
    expect([...radixOrder([keys], [false], n)]).toEqual(want);
  });
});
