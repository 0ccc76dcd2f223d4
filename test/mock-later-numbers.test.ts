/**
 * The listings' origination time, a field the engine sets later on most listings it funds, is kept in a typed column
 * (column-kinds.ts `sparseNum`) until a value it cannot hold comes (0, -0, NaN, null, a string), when it becomes a map:
 * every row reads and writes as a plain record would, before and after, and its JSON (the state file's text) is the same.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { emptyListingTable, listingRow } from '../mock-server/world/listing-table.js';
import type { Listing } from '../mock-server/world/world.js';

const timeValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1.7e12, max: 1.8e12 }) },
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.double().filter((x) => x !== 0) },
  fc.constantFrom(0, -0, NaN, null, Infinity, 'soon'),
);

/** A step: add a row (with or without the field), or set the field of a row. */
const step = fc.oneof(
  fc.record({ add: fc.constant(true as const), value: timeValue }),
  fc.record({ add: fc.constant(false as const), row: fc.nat(), value: timeValue }),
);

function columnKind(t: ReturnType<typeof emptyListingTable>): string {
  return t.columns[t.byName.get('originateAt')!]!.kind;
}

function plainOf(n: number, v: unknown): Record<string, unknown> {
  return v === undefined ? { listing_number: n } : { listing_number: n, originateAt: v };
}

describe('a number field set later', () => {
  test('reads back every value written and writes the JSON a plain record would, across its widening to a map', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        const t = emptyListingTable();
        const rows: Listing[] = [];
        const model: Record<string, unknown>[] = [];
        const add = (v: unknown) => {
          const p = plainOf(rows.length, v);
          rows.push(listingRow(t, p as unknown as Listing));
          model.push(p);
        };
        add(1.75e12);
        for (const s of steps) {
          if (s.add) add(s.value);
          else {
            const r = s.row % rows.length;
            (rows[r] as { originateAt?: unknown }).originateAt = s.value;
            model[r] = plainOf(r, s.value);
          }
        }
        rows.forEach((l, r) => {
          expect(Object.is(l.originateAt, model[r]!.originateAt)).toBe(true);
          expect(JSON.stringify(l)).toBe(JSON.stringify(model[r]));
        });
      }),
      { numRuns: 400, seed: 20261129 },
    );
  });

  test('times alone stay in a typed column; the first value it cannot hold makes it a map holding the rest', () => {
    const t = emptyListingTable();
    const rows = [1.75e12, undefined, 1.76e12].map((v, n) => listingRow(t, plainOf(n, v) as unknown as Listing));
    rows[1]!.originateAt = 1.77e12;
    rows[0]!.originateAt = undefined;
    expect(columnKind(t)).toBe('sparseNum');
    rows[2]!.originateAt = null;
    expect(columnKind(t)).toBe('sparse');
    expect(rows.map((l) => l.originateAt)).toEqual([undefined, 1.77e12, null]);
    expect(JSON.stringify(rows)).toBe(
      '[{"listing_number":0},{"listing_number":1,"originateAt":1770000000000},{"listing_number":2,"originateAt":null}]',
    );
  });
});
