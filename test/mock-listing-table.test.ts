/**
 * Listings kept by column (mock-server/world/row-table.ts, listing-table.ts) read and write as the plain objects they were
 * made from: for random objects (integers, other numbers, booleans, null, strings, objects of integers,
 * fields absent) and random assignments that change a field's type, every row reads what the plain
 * object holds, serialises to the same JSON, and properties set later become its own. Columns start
 * narrow (integers in a byte, decimals as scaled integers, codes in a byte) and widen on a value they
 * cannot hold: any sequence of values, the widths' nulls and edges among them, reads back as written.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { listingRow, reserveListingRows, type ListingTable } from '../mock-server/world/listing-table.js';
import { seedWorld } from '../mock-server/seed/seed.js';
import { prepareRowObjects } from '../mock-server/world/row-code.js';
import { emptyWorld, ListingsByNumber, type Listing } from '../mock-server/world/world.js';

const KEYS = ['n', 'x', 'flag', 'text', 'bureau', 'maybe'] as const;

const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  fc.double().filter((x) => !Object.is(x, -0)),
  fc.constant(1.7e12 + 0.5),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 4 }),
  fc.record({ a: fc.integer({ min: -5, max: 1000 }), b: fc.integer({ min: -5, max: 1000 }) }),
  fc.record({ a: fc.double().filter((x) => !Object.is(x, -0)) }),
);

/** A plain record: a random subset of KEYS, in KEYS order, with random values. */
const plain = fc
  .array(fc.tuple(fc.boolean(), value), { minLength: KEYS.length, maxLength: KEYS.length })
  .map((fields) => Object.fromEntries(fields.flatMap(([present, v], k) => (present ? [[KEYS[k]!, v]] : []))));

const assignment = fc.record({ row: fc.nat(), key: fc.constantFrom(...KEYS, 'later'), value });

describe('listings by number', () => {
  test('answer as a Map for numbers in order, out of order, repeated, negative or fractional', () => {
    const number = fc.oneof(fc.integer({ min: 95, max: 130 }), fc.integer(), fc.double());
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.array(number, { maxLength: 40 }),
        fc.array(number, { maxLength: 20 }),
        (inOrder, others, probes) => {
          const want = new Map<number, Listing>();
          const got = new ListingsByNumber();
          const put = (n: number) => {
            const l = { listing_number: n } as Listing;
            want.set(n, l);
            got.set(n, l);
          };
          for (let k = 0; k < inOrder; k++) put(100 + k);
          others.forEach(put);
          for (const n of [...want.keys(), ...probes, 99, 100 + inOrder]) {
            expect(got.get(n)).toBe(want.get(n));
            expect(got.has(n)).toBe(want.has(n));
          }
        },
      ),
      { numRuns: 300, seed: 20261123 },
    );
  });
});

describe('listings kept by column', () => {
  test('read, write and serialise as the plain objects, through type changes of any field, with or without room reserved', () => {
    const reserve = fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined });
    fc.assert(
      fc.property(
        fc.array(plain, { minLength: 1, maxLength: 30 }),
        fc.array(assignment, { maxLength: 30 }),
        reserve,
        (records, assignments, room) => {
          const world = emptyWorld(1);
          // Reserved before the first row or after some: the rows read the same either way.
          const early = room !== undefined && room % 2 === 0;
          if (early) reserveListingRows(world.listingTable, room);
          const want = records.map((r) => structuredClone(r));
          const rows = records.map((r, i) => {
            if (room !== undefined && !early && i === records.length >> 1) reserveListingRows(world.listingTable, room);
            return listingRow(world.listingTable, r as unknown as Listing) as unknown as Record<string, unknown>;
          });
          for (const a of assignments) {
            const i = a.row % rows.length;
            rows[i]![a.key] = a.value;
            want[i]![a.key] = a.value;
          }
          rows.forEach((row, i) => {
            for (const k of [...KEYS, 'later']) expect(row[k], `row ${i} ${k}`).toEqual(want[i]![k]);
            expect(JSON.parse(JSON.stringify(row))).toEqual(JSON.parse(JSON.stringify(want[i])));
          });
        },
      ),
      { numRuns: 300, seed: 20261123 },
    );
  });

  test('row objects made before their rows (as the seed makes a million) are the rows added after, each reading its own record, however many were made', () => {
    fc.assert(
      fc.property(fc.array(plain, { minLength: 1, maxLength: 30 }), fc.nat({ max: 30 }), fc.nat({ max: 40 }), (records, at, count) => {
        const t = emptyWorld(1).listingTable;
        const before = Math.min(at, records.length);
        const rows: object[] = [];
        records.forEach((r, i) => {
          if (i === before) prepareRowObjects(t, t.size + count);
          rows.push(listingRow(t, r as unknown as Listing));
        });
        expect(new Set(rows).size).toBe(rows.length);
        rows.forEach((row, i) => expect(JSON.parse(JSON.stringify(row)), `row ${i}`).toEqual(JSON.parse(JSON.stringify(records[i]))));
        // Every prepared object was handed out: the list is let go (none kept for rows that never came, beyond the last asked for).
        if (count <= records.length - before) expect(t.prepared).toBeNull();
      }),
      { numRuns: 300, seed: 20261129 },
    );
  });

  test('a string field of a value per row outgrows its column of codes and reads as it was written, before and after', () => {
    const world = emptyWorld(1);
    reserveListingRows(world.listingTable, 10);
    // 1,500 distinct keys (past the 1,024 codes a column keeps), a field of few values with null among them, and one that later takes a number.
    const want = Array.from({ length: 1500 }, (_, i) => ({
      key: `K${i * 7919}`,
      state: i % 3 === 0 ? null : ['CA', 'NY', 'TX'][i % 3]!,
      grade: 'A',
    }));
    const rows = want.map((w) => listingRow(world.listingTable, { ...w } as unknown as Listing) as unknown as Record<string, unknown>);
    rows[10]!.grade = 7;
    want[10]!.grade = 7 as unknown as string;
    rows[11]!.state = { odd: true };
    (want[11] as Record<string, unknown>).state = { odd: true };
    rows[12]!.key = 'K0';
    want[12]!.key = 'K0';
    rows.forEach((row, i) => {
      expect({ key: row.key, state: row.state, grade: row.grade }, `row ${i}`).toEqual(want[i]);
      expect(JSON.parse(JSON.stringify(row))).toEqual(want[i]);
    });
  });

  test("a seeded world is rows whose JSON is the plain listings' text, fields in the same order", () => {
    const world = seedWorld({ seed: 3, listings: 300, now: Date.parse('2026-03-02T12:00:00Z') });
    const l = world.listings[200]!;
    // A row holds only its position; its fields are on the columns.
    expect(Object.keys(l)).toEqual(['$row']);
    const plainText = JSON.stringify(l);
    const again = listingRow(emptyWorld(1).listingTable, JSON.parse(plainText) as Listing);
    expect(JSON.stringify(again)).toBe(plainText);
    expect(Object.keys(JSON.parse(plainText))[0]).toBe('listing_number');
    // Assignments land in the columns; fields set later come after the others.
    l.amount_funded += 25;
    (l as { mockRole?: string }).mockRole = 'test';
    expect(JSON.parse(JSON.stringify(l))).toMatchObject({ amount_funded: JSON.parse(plainText).amount_funded + 25, mockRole: 'test' });
    expect(Object.keys(JSON.parse(JSON.stringify(l))).at(-1)).toBe('mockRole');
    // The fields the mock sets later have columns too: rows keep one shape (the engine's walk stays fast).
    l.originateAt = 5;
    expect(Object.keys(l)).toEqual(['$row']);
    expect(JSON.parse(JSON.stringify(l))).toMatchObject({ mockRole: 'test', originateAt: 5 });
    expect(l.bureau2).toEqual(JSON.parse(plainText).bureau2);
  });
});

/** Integers at and just past each width's edges (the least of each is that width's null), -0 among them. */
const edgeInt = fc.constantFrom(
  0,
  -0,
  1,
  -1,
  127,
  128,
  -127,
  -128,
  -129,
  255,
  256,
  32767,
  32768,
  -32767,
  -32768,
  -32769,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) + 1,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 53,
  -(2 ** 53),
);
/** Decimals of 2 and 4 places, at and past the edges of cents and basis points in 4 bytes, and numbers of more places. */
const decimal = fc.oneof(
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((k) => k / 100),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((k) => k / 10000),
  fc.integer({ min: -300, max: 300 }).map((k) => k / 100),
  fc.constantFrom(
    21474836.47,
    21474836.48,
    -21474836.47,
    -21474836.48,
    214748.3647,
    -214748.3648,
    0.07,
    0.0683,
    0.1 + 0.2,
    1e-7,
    1e300,
    -1e300,
    1.7e12 + 0.5,
  ),
  fc.double({ noNaN: true }),
);
const numberOrNull = fc.oneof(
  { weight: 4, arbitrary: edgeInt },
  { weight: 3, arbitrary: fc.integer({ min: -40000, max: 40000 }) },
  { weight: 4, arbitrary: decimal },
  { weight: 1, arbitrary: fc.constant(null) },
);
const anyValue = fc.oneof(
  { weight: 8, arbitrary: numberOrNull },
  { weight: 1, arbitrary: fc.constantFrom('a', 'b', true, false) },
  { weight: 1, arbitrary: fc.record({ a: fc.integer() }) },
);

/** A step: a new row holding `value`, or `value` assigned to an earlier row (`row` modulo the rows made). */
const step = <T>(value: fc.Arbitrary<T>) => fc.record({ add: fc.boolean(), row: fc.nat(), value });

/**
 * Runs `steps` on a table of one field `f` (and a field `g` beside it) and after each (some, of a long
 * run, and the last) checks every row: `f` is the very value written (Object.is), and the row's JSON
 * is the plain object's.
 */
function playSteps(first: unknown, steps: { add: boolean; row: number; value: unknown }[], reserve: number): void {
  const table: ListingTable = emptyWorld(1).listingTable;
  reserveListingRows(table, reserve);
  const want: Record<string, unknown>[] = [];
  const rows: Record<string, unknown>[] = [];
  const add = (v: unknown) => {
    const plainRow = { f: v, g: want.length };
    want.push(structuredClone(plainRow));
    rows.push(listingRow(table, plainRow as unknown as Listing) as unknown as Record<string, unknown>);
  };
  add(first);
  const every = Math.ceil(steps.length / 40);
  for (const [n, s] of steps.entries()) {
    if (s.add) add(s.value);
    else {
      const i = s.row % rows.length;
      rows[i]!.f = s.value;
      want[i]!.f = structuredClone(s.value);
    }
    if (n % every !== 0 && n !== steps.length - 1) continue;
    rows.forEach((row, i) => {
      const got = row.f;
      if (typeof got === 'object' && got !== null) expect(got, `row ${i}`).toEqual(want[i]!.f);
      else expect(Object.is(got, want[i]!.f), `row ${i}: ${String(got)} for ${String(want[i]!.f)}`).toBe(true);
      expect(JSON.stringify(row), `row ${i}`).toBe(JSON.stringify(want[i]));
    });
  }
}

describe('narrow columns', () => {
  test('a number column reads back every value written, rows written before and after each widening alike', () => {
    fc.assert(
      fc.property(numberOrNull, fc.array(step(numberOrNull), { maxLength: 40 }), fc.nat({ max: 50 }), (first, steps, reserve) => {
        playSteps(first, steps, reserve);
      }),
      { numRuns: 400, seed: 20261126 },
    );
  });

  test('a column of any values (numbers, null, strings, booleans, objects) reads back every value written', () => {
    fc.assert(
      fc.property(anyValue, fc.array(step(anyValue), { maxLength: 30 }), (first, steps) => {
        playSteps(first, steps, 0);
      }),
      { numRuns: 300, seed: 20261126 },
    );
  });

  test('objects of integers read back whole as each of their integers outgrows its width', () => {
    const bureau = fc.record({ a: fc.oneof(edgeInt, fc.integer({ min: -300, max: 300 })), b: fc.oneof(edgeInt, fc.integer()) });
    fc.assert(
      fc.property(
        bureau,
        fc.array(step(fc.oneof({ weight: 6, arbitrary: bureau }, { weight: 1, arbitrary: fc.constant(null) })), { maxLength: 30 }),
        (first, steps) => {
          playSteps(first, steps, 0);
        },
      ),
      { numRuns: 300, seed: 20261126 },
    );
  });

  test('a column of keys (a value per row, upper-case hex digits) keeps their bytes past its codes, and becomes an array on a value it cannot hold', () => {
    // Keys of 24 digits, drawn without bias from far more than the 1,024 codes a column keeps; now and then another string or null.
    const hex = (k: number) => k.toString(16).toUpperCase().padStart(24, '0');
    const key = fc.noBias(fc.integer({ min: 0, max: 2 ** 40 })).map(hex);
    const odd = fc.constantFrom(null, 'abcdef0123456789abcdef01', '0123456789ABCDEF0123456', '0123456789ABCDEF0123456G', '', 'A', 7);
    fc.assert(
      fc.property(
        key,
        fc.array(step(key), { minLength: 1100, maxLength: 1200 }),
        fc.option(fc.tuple(fc.nat(), odd), { nil: undefined }),
        (first, steps, late) => {
          // All keys: a run past the codes; with `late`, one value that is not a key of the width, after the keys took their bytes.
          const all: { add: boolean; row: number; value: unknown }[] = steps;
          if (late) all.splice(1100 + (late[0] % 100), 0, { add: late[0] % 2 === 0, row: late[0], value: late[1] });
          playSteps(first, all, 0);
        },
      ),
      { numRuns: 12, seed: 20261126, endOnFailure: true },
    ); // no shrinking of 1,100 steps
    // White box: without an odd value the column holds the keys' bytes (12 a row), not strings, and keeps them
    // as the table grows past its room (twice, after the keys took their bytes) and when room is reserved later.
    const table: ListingTable = emptyWorld(1).listingTable;
    const rows: Record<string, unknown>[] = [];
    const keyOf = (k: number) => hex(k * 7919 + 2 ** 39);
    for (let k = 0; k < 4500; k++)
      rows.push(listingRow(table, { member_key: keyOf(k) } as unknown as Listing) as unknown as Record<string, unknown>);
    expect(table.columns[0]).toMatchObject({ kind: 'key', width: 24 });
    expect(table.capacity).toBeGreaterThan(4096);
    reserveListingRows(table, 6000);
    expect((table.columns[0]!.data as Uint8Array).length).toBe(table.capacity * 12);
    rows.forEach((row, k) => expect(JSON.stringify(row)).toBe(JSON.stringify({ member_key: keyOf(k) })));
  });

  test('a string column reads back every value written as its codes outgrow one byte', () => {
    // Drawn without bias from many values, so that a run writes more than the 256 codes of a byte.
    const text = fc.noBias(fc.integer({ min: 0, max: 5000 })).map((k) => (k === 5000 ? null : `s${k}`));
    fc.assert(
      fc.property(text, fc.array(step(text), { minLength: 300, maxLength: 400 }), (first, steps) => {
        playSteps(first, steps, 0);
      }),
      { numRuns: 20, seed: 20261126 },
    );
  });

  test('a seeded world keeps small integers in a byte and amounts and rates in four', () => {
    const world = seedWorld({ seed: 3, listings: 300, now: Date.parse('2026-03-02T12:00:00Z') });
    const bytes = world.listingTable.columns.reduce(
      (sum, c) =>
        sum
        + (c.kind === 'ints'
          ? c.data.reduce((s, d) => s + d.BYTES_PER_ELEMENT, 0)
          : ArrayBuffer.isView(c.data)
            ? c.data.BYTES_PER_ELEMENT
            : 0),
      0,
    );
    // 424 bytes a row when every integer took 4, every other number 8 and every code 2.
    expect(bytes).toBeLessThan(260);
    const kind = (name: string) => world.listingTable.columns.find((c) => c.name === name)!;
    expect(kind('borrower_rate')).toMatchObject({ kind: 'dec', scale: 10000 });
    expect(kind('stated_monthly_income')).toMatchObject({ kind: 'dec', scale: 100 });
    expect(kind('listing_term').data).toBeInstanceOf(Int8Array);
  });
});
