/**
 * Growing a table's typed columns (row-table.ts): how far a full table grows, and the copy of a column with more room,
 * which leaves the room it adds, and the blocks its rows never wrote, untouched (no memory until written).
 */
import type { TypedData } from './column-kinds.js';

/**
 * How many times its rows a full table grows to: each growth copies every column, and a year of the market at 100,000
 * listings grew the tables four times by doubling (a second and a half of page faults for the last alone); room not yet
 * written costs no memory, so growing by four copies half as much for nothing resident.
 */
export const GROWTH = 4;

/** Bytes grown copies a block at a time, skipping a block of zeros (16 KiB: four pages). */
const BLOCK = 16_384;

/**
 * A copy of `a` with room for `n` values (the data kept, the rest zero). Blocks of zeros are not copied: the new array
 * is zero already, and a column nobody wrote (the description of listings that await it, most of a year's arrivals) then
 * costs no page of memory in the copy either (copying them whole was a tenth of a year's moves, in page faults).
 */
export function grown<A extends TypedData>(a: A, n: number): A {
  const next = new (a.constructor as new (n: number) => A)(n);
  const bytes = a.byteLength;
  if (bytes < 4 * BLOCK || a.byteOffset % 4 !== 0) {
    next.set(a);
    return next;
  }
  const words = new Int32Array(a.buffer, a.byteOffset, bytes >> 2);
  const to = new Uint8Array(next.buffer, next.byteOffset, bytes);
  const from = new Uint8Array(a.buffer, a.byteOffset, bytes);
  for (let b = 0; b < bytes; b += BLOCK) {
    const end = Math.min(bytes, b + BLOCK);
    let zero = true;
    for (let w = b >> 2, stop = end >> 2; w < stop; w++)
      if (words[w] !== 0) {
        zero = false;
        break;
      }
    // The bytes past the last whole word (a byte or a short column's odd length) are looked at one by one.
    for (let i = end & ~3; zero && i < end; i++) if (from[i] !== 0) zero = false;
    if (!zero) to.set(from.subarray(b, end), b);
  }
  return next;
}
