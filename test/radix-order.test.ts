/**
 * The radix order of the listings search (mock-server/kit/radix-order.ts) is the order of the generic sort
 * (query-params.ts `orderBy`, a stable comparison sort): for random keys with ties, nulls, negatives,
 * -0 and infinities, over one to three clauses in either direction; one room's buffers reused by sorts of any size.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { orderBy } from '../mock-server/search/query-params.js';
import { emptySortRoom, keyArrays, radixOrder } from '../mock-server/kit/radix-order.js';

const key = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(-0, Infinity, -Infinity, 1.7e12, -1.7e12, 0.1, 0.30000000000000004),
  fc.double({ noNaN: true }),
);

describe('radix order', () => {
  test('orders positions as the stable comparison sort does', () => {
    // One room for every run: each sort reuses the buffers the last one left.
    const room = emptySortRoom();
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
          expect([...radixOrder(keys, desc, rows.length, room)]).toEqual(want);
        },
      ),
      { numRuns: 500, seed: 20261123 },
    );
  });

  test('orders a large run of keys sharing most digits', () => {
    const n = 5000;
    const keys = Float64Array.from({ length: n }, (_, i) => 1_700_000_000_000 + ((i * 7919) % 1000));
    const want = [...keys.keys()].sort((a, b) => keys[a]! - keys[b]! || a - b);
    expect([...radixOrder([keys], [false], n, emptySortRoom())]).toEqual(want);
  });

  test("one room's sorts of growing and shrinking sizes, keys written into its own arrays, each order the comparison sort's", () => {
    const room = emptySortRoom();
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4000 }), fc.boolean(), fc.integer({ min: 1, max: 97 })), {
          minLength: 1,
          maxLength: 6,
        }),
        (sorts) => {
          for (const [n, desc, mod] of sorts) {
            const [k1, k2] = keyArrays(room, 2, n);
            expect([k1!.length, k2!.length]).toEqual([n, n]);
            for (let i = 0; i < n; i++) {
              k1![i] = (i * 7919) % mod;
              k2![i] = i % 3 === 0 ? NaN : (i * 31) % 5;
            }
            const want = [...Array(n).keys()].sort((a, b) => {
              const x = (a * 7919) % mod;
              const y = (b * 7919) % mod;
              if (x !== y) return desc ? y - x : x - y;
              const [p, q] = [a % 3 === 0 ? Infinity : (a * 31) % 5, b % 3 === 0 ? Infinity : (b * 31) % 5];
              return p !== q ? p - q : a - b;
            });
            expect([...radixOrder([k1!, k2!], [desc, false], n, room)]).toEqual(want);
          }
        },
      ),
      { numRuns: 40, seed: 20261201 },
    );
  });
});
