/**
 * A live listing's place in the timeline is one row of a shared buffer (world/derived.ts `ListingEvents`), its fields at
 * fixed offsets in three views of that buffer: each field must read back what was written to it, whatever was written to
 * every other field of the row and of the rows beside it, and a place packed for the arrivals' thread (`packPlace`) must
 * come back whole in any row (`takePlace`).
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { PROCESS_COUNT } from '../mock-server/engine/chance-processes.js';
import { eventArrays, firedOf, packPlace, PLACE_WIDTH, takePlace } from '../mock-server/engine/listing-place.js';
import {
  AT,
  END,
  EVENT_ROW,
  FIRED,
  HOURS,
  LOT_AT,
  PACE,
  PENDING_AT,
  SETTLED,
  START,
  STATES,
  WHOLE,
  type ListingEvents,
} from '../mock-server/world/derived.js';

const NUMBERS = [AT, START, END, SETTLED, PACE, LOT_AT, PENDING_AT, ...Array.from({ length: PROCESS_COUNT }, (_, i) => HOURS + i)];

/** One row's fields: the numbers, the streams' states and the two flags. */
interface Row {
  numbers: number[];
  states: number[];
  fired: number;
  whole: number;
}

const hour = fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.constantFrom(Infinity, NaN, -1));
const rowArb: fc.Arbitrary<Row> = fc.record({
  numbers: fc.array(hour, { minLength: NUMBERS.length, maxLength: NUMBERS.length }),
  states: fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { minLength: PROCESS_COUNT, maxLength: PROCESS_COUNT }),
  fired: fc.integer({ min: 0, max: 255 }),
  whole: fc.integer({ min: 0, max: 1 }),
});

function writeRow(ev: ListingEvents, r: number, row: Row): void {
  const x = EVENT_ROW * r;
  NUMBERS.forEach((field, k) => (ev.f[x + field] = row.numbers[k]!));
  row.states.forEach((s, i) => (ev.u32[2 * x + STATES + i] = s));
  ev.u8[8 * x + FIRED] = row.fired;
  ev.u8[8 * x + WHOLE] = row.whole;
}

function readRow(ev: ListingEvents, r: number): Row {
  const x = EVENT_ROW * r;
  return {
    numbers: NUMBERS.map((field) => ev.f[x + field]!),
    states: Array.from({ length: PROCESS_COUNT }, (_, i) => ev.u32[2 * x + STATES + i]!),
    fired: firedOf(ev, r),
    whole: ev.u8[8 * x + WHOLE]!,
  };
}

test('every field of a row reads back what was written to it, whatever its row and its neighbours hold', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 30 }),
      rowArb,
      rowArb,
      rowArb,
      fc.array(fc.nat(), { maxLength: 3 }),
      (r, before, row, after, order) => {
        const ev = eventArrays(32);
        // Written in any order: a field sharing bytes with another would be overwritten by whichever came later.
        const writes: [number, Row][] = [
          [r - 1, before],
          [r, row],
          [r + 1, after],
        ];
        for (const k of order) writes.push(writes.splice(k % writes.length, 1)[0]!);
        for (const [at, value] of writes) writeRow(ev, at, value);
        expect(readRow(ev, r)).toEqual(row);
        expect(readRow(ev, r - 1)).toEqual(before);
        expect(readRow(ev, r + 1)).toEqual(after);
      },
    ),
  );
});

test('a place packed from one row comes back whole in another, its queue hour beside it, not queued and nothing fired', () => {
  fc.assert(
    fc.property(rowArb, fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 0, max: 7 }), (row, at, r) => {
      const from = eventArrays(8);
      writeRow(from, 3, row);
      const place = new Float64Array(2 + PLACE_WIDTH);
      packPlace(from, 3, at, place, 2);
      const to = eventArrays(8);
      writeRow(to, r, { numbers: NUMBERS.map(() => 5), states: [1, 2, 3], fired: 9, whole: 1 - row.whole });
      expect(takePlace(place, 2, to, r)).toBe(at);
      const got = readRow(to, r);
      expect(got.numbers.slice(1)).toEqual(row.numbers.slice(1));
      expect(got.numbers[0]).toBeNaN();
      expect(got.states).toEqual(row.states);
      expect(got.whole).toBe(row.whole);
      expect(got.fired).toBe(0);
    }),
  );
});
