/**
 * Orders positions by numeric keys with a stable LSD radix sort: the listings search sorts up to a
 * million matches by their fields, and a comparison sort called its comparator some twenty million
 * times (most of a second at a million listings). Each key becomes an unsigned 64-bit integer whose
 * order is the key's order (nulls after every number, in either direction), sorted 16 bits at a time
 * from the lowest; clauses are sorted from the last to the first, so earlier ones decide and ties keep
 * the previous order. The answer is the order `sortBy` (query-params.ts) gives: ties in position order.
 */

const DIGITS = 65_536;
const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
/** Which half of a float's bits holds its sign and exponent (the machine's byte order decides). */
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/**
 * Buffers reused from one sort to the next, grown to the largest seen: fresh typed arrays of a million entries per
 * search counted as external memory and brought on full collections of the heap. Kept by the world they sort for
 * (world/derived.ts `sortRoom`), so that they go with it.
 */
export interface SortRoom {
  n: number;
  order: Uint32Array;
  spare: Uint32Array;
  hi: Uint32Array;
  lo: Uint32Array;
  keys: Float64Array[];
}

/** Room for no sort yet (each buffer is made at the first sort that needs it). */
export function emptySortRoom(): SortRoom {
  return { n: -1, order: new Uint32Array(0), spare: new Uint32Array(0), hi: new Uint32Array(0), lo: new Uint32Array(0), keys: [] };
}

const count = new Uint32Array(DIGITS + 1);

/** `s` with room for `n` entries (its buffers made again, larger, when it has less). */
function withRoom(s: SortRoom, n: number): SortRoom {
  if (n > s.n) {
    const size = Math.max(n, 1024);
    s.n = size;
    s.order = new Uint32Array(size);
    s.spare = new Uint32Array(size);
    s.hi = new Uint32Array(size);
    s.lo = new Uint32Array(size);
    s.keys = [];
  }
  return s;
}

/** `clauses` key arrays of length n in `room`, to fill before calling radixOrder with it (reused: valid until its next sort). */
export function keyArrays(room: SortRoom, clauses: number, n: number): Float64Array[] {
  const s = withRoom(room, n);
  while (s.keys.length < clauses) s.keys.push(new Float64Array(s.n));
  return s.keys.slice(0, clauses).map((k) => k.subarray(0, n));
}

/** Writes the sortable halves of each key into hi and lo: NaN (null) after every number; `desc` reverses the numbers only. */
function sortableKeys(keys: Float64Array, desc: boolean, hi: Uint32Array, lo: Uint32Array): void {
  for (let i = 0; i < keys.length; i++) {
    const v = keys[i]!;
    if (v !== v) {
      hi[i] = 0xffffffff;
      lo[i] = 0xffffffff;
      continue;
    }
    F64[0] = v === 0 ? 0 : v; // -0 and 0 tie, as they compare equal
    let h = U32[HIGH]!;
    let l = U32[1 - HIGH]!;
    // Negative numbers: all bits flipped (larger magnitude first); others: the sign bit set.
    if (h >>> 31 === 1) {
      h = ~h;
      l = ~l;
    } else h |= 0x80000000;
    if (desc) {
      h = ~h;
      l = ~l;
    }
    // No number maps to all ones (that pattern is a NaN's), so nulls stay last.
    hi[i] = h >>> 0;
    lo[i] = l >>> 0;
  }
}

/**
 * Positions 0..n−1 ordered by `keys` (one array of n per clause, NaN for null) ascending, or descending
 * where `desc` says, nulls last either way; ties keep position order. The answer is a buffer of `room`: read it before
 * its next sort.
 */
export function radixOrder(keys: readonly Float64Array[], desc: readonly boolean[], n: number, room: SortRoom): Uint32Array {
  const s = withRoom(room, n);
  let order = s.order.subarray(0, n);
  let spare = s.spare.subarray(0, n);
  const hi = s.hi.subarray(0, n);
  const lo = s.lo.subarray(0, n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let c = keys.length - 1; c >= 0; c--) {
    sortableKeys(keys[c]!, desc[c]!, hi, lo);
    for (let pass = 0; pass < 4; pass++) {
      const words = pass < 2 ? lo : hi;
      const shift = (pass & 1) * 16;
      count.fill(0);
      for (let i = 0; i < n; i++) count[((words[i]! >>> shift) & 0xffff) + 1]!++;
      // A digit every key shares moves nothing.
      if (n === 0 || count[((words[0]! >>> shift) & 0xffff) + 1] === n) continue;
      for (let d = 1; d <= DIGITS; d++) count[d]! += count[d - 1]!;
      for (let i = 0; i < n; i++) {
        const p = order[i]!;
        spare[count[(words[p]! >>> shift) & 0xffff]!++] = p;
      }
      const t = order;
      order = spare;
      spare = t;
    }
  }
  return order;
}
