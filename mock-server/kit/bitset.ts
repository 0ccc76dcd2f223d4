/**
 * A growable bitset over listing positions (indexes into `world.listings`): the listing indexes are
 * made of these, so that a search ANDs a few word arrays instead of testing every listing.
 */

/** A set of small non-negative integers, one bit each. */
export class Bits {
  words: Uint32Array;

  constructor(size = 0) {
    this.words = new Uint32Array(Math.max(1, (size + 31) >>> 5));
  }

  /** Makes room for positions below `size` (doubling, so appends stay amortised O(1)). */
  ensure(size: number): void {
    const need = (size + 31) >>> 5;
    if (need <= this.words.length) return;
    const next = new Uint32Array(Math.max(need, this.words.length * 2));
    next.set(this.words);
    this.words = next;
  }

  /** Adds position `i`. */
  set(i: number): void {
    this.ensure(i + 1);
    this.words[i >>> 5]! |= 1 << (i & 31);
  }

  /** Removes position `i`. */
  clear(i: number): void {
    if (i >>> 5 < this.words.length) this.words[i >>> 5]! &= ~(1 << (i & 31));
  }

  /** True when position `i` is in the set. */
  has(i: number): boolean {
    return i >>> 5 < this.words.length && (this.words[i >>> 5]! & (1 << (i & 31))) !== 0;
  }
}

/** Bits set in one 32-bit word. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** A fresh word array of `n` words holding `b` (cut or zero-padded). */
export function copyWords(b: Bits, n: number): Uint32Array {
  const out = new Uint32Array(n);
  out.set(b.words.length > n ? b.words.subarray(0, n) : b.words);
  return out;
}

/** `acc &= b` over acc's length. */
export function andInto(acc: Uint32Array, b: Uint32Array): void {
  const n = Math.min(acc.length, b.length);
  for (let w = 0; w < n; w++) acc[w]! &= b[w]!;
  acc.fill(0, n);
}

/** `acc &= ~b` over acc's length. */
export function andNotInto(acc: Uint32Array, b: Uint32Array): void {
  const n = Math.min(acc.length, b.length);
  for (let w = 0; w < n; w++) acc[w]! &= ~b[w]!;
}

/** `acc |= b` over acc's length. */
export function orInto(acc: Uint32Array, b: Uint32Array): void {
  const n = Math.min(acc.length, b.length);
  for (let w = 0; w < n; w++) acc[w]! |= b[w]!;
}

/** Set bits of a word array. */
export function countBits(words: Uint32Array): number {
  let n = 0;
  for (let w = 0; w < words.length; w++) if (words[w] !== 0) n += popcount(words[w]!);
  return n;
}

/** Calls `visit` with each set position in ascending order until it returns false. */
export function forEachBit(words: Uint32Array, visit: (i: number) => boolean): void {
  for (let w = 0; w < words.length; w++) {
    let x = words[w]!;
    while (x !== 0) {
      const low = x & -x;
      if (!visit((w << 5) + 31 - Math.clz32(low))) return;
      x ^= low;
    }
  }
}

/** The set positions from the `skip`-th on, at most `take` of them, skipping whole words by their counts. */
export function bitsFrom(words: Uint32Array, skip: number, take: number): number[] {
  const out: number[] = [];
  let w = 0;
  for (; w < words.length; w++) {
    const c = words[w] === 0 ? 0 : popcount(words[w]!);
    if (skip < c) break;
    skip -= c;
  }
  for (; w < words.length && out.length < take; w++) {
    let x = words[w]!;
    while (x !== 0 && out.length < take) {
      const low = x & -x;
      if (skip > 0) skip--;
      else out.push((w << 5) + 31 - Math.clz32(low));
      x ^= low;
    }
  }
  return out;
}
