/**
 * Notes as pro-rata shares of their loan, in whole cents: the largest-remainder split the servicing posts
 * by (postings.ts) and the notes' answers show (views/note-view.ts), so a note's money and its view are
 * split the same way, once.
 */
import type { Note } from '../world/world.js';

/** Whole cents of an amount held to the cent. */
export const toWholeCents = (x: number): bigint => BigInt(Math.round(x * 100));

/**
 * Splits `total` (whole cents, either sign) over `weights` (whole cents) by largest remainder: each part
 * is total × weight / Σ weights rounded towards zero or away from it, and the parts add up to `total`.
 * The cents left after rounding down go to the largest remainders, the earlier weight first on a tie.
 */
export function apportion(total: bigint, weights: readonly bigint[]): bigint[] {
  const whole = weights.reduce((s, w) => s + w, 0n);
  if (whole === 0n) return weights.map(() => 0n);
  const negative = total < 0n;
  const size = negative ? -total : total;
  const parts = weights.map((w) => (size * w) / whole);
  const remainders = weights.map((w, i) => ({ i, r: (size * w) % whole }));
  let left = size - parts.reduce((s, p) => s + p, 0n);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0n) break;
    parts[i]! += 1n;
    left -= 1n;
  }
  return negative ? parts.map((p) => -p) : parts;
}

/**
 * `apportion` on numbers of whole cents, for the postings and their rows (a split a step and a figure): the same
 * parts, worked out exactly in numbers while the products stay safe integers (a payment's split in BigInt was
 * most of what checking the books cost), and through `apportion` past that.
 */
export function apportionCents(total: number, weights: readonly number[]): number[] {
  let whole = 0;
  for (const w of weights) whole += w;
  if (whole === 0) return weights.map(() => 0);
  const size = Math.abs(total);
  if (size * whole > Number.MAX_SAFE_INTEGER)
    return apportion(
      BigInt(total),
      weights.map((w) => BigInt(w)),
    ).map(Number);
  const n = weights.length;
  const parts = new Array<number>(n);
  const remainders = new Array<number>(n);
  let left = size;
  for (let i = 0; i < n; i++) {
    const exact = size * weights[i]!;
    const r = exact % whole;
    remainders[i] = r;
    parts[i] = (exact - r) / whole;
    left -= parts[i]!;
  }
  // The cents left (fewer than the holders) to the largest remainders, the earlier holder first on a tie; a remainder
  // given its cent is marked −1 (the parts are few: a scan per cent is cheaper than sorting them).
  for (; left > 0; left--) {
    let best = 0;
    for (let i = 1; i < n; i++) if (remainders[i]! > remainders[best]!) best = i;
    parts[best]! += 1;
    remainders[best] = -1;
  }
  // 0 − p, not −p: a part of nothing is +0, never the −0 a column of cents cannot hold.
  return total < 0 ? parts.map((p) => 0 - p) : parts;
}

/**
 * The holders' weights of a loan in cents: each note's ownership amount in the order the loan's notes are
 * kept, and last the part no note holds (the simulated other investors). Notes and payment rows split by these.
 */
export function holderWeights(amountBorrowed: number, notes: readonly Note[]): bigint[] {
  const held = notes.map((n) => toWholeCents(n.amount));
  const heldSum = held.reduce((s, w) => s + w, 0n);
  const borrowed = toWholeCents(amountBorrowed);
  return [...held, borrowed > heldSum ? borrowed - heldSum : 0n];
}
