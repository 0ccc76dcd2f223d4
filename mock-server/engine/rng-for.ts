/** Deterministic random streams derived from the world's seed and a few numbers (a tick, a listing). */
import { Rng } from '../rng.js';

/** Mixes one 32-bit word into the hash `h`. */
function mix(h: number, w: number): number {
  h = Math.imul(h ^ (w >>> 0), 0x01000193) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
  return (h ^ (h >>> 13)) >>> 0;
}

/** The 32-bit state for `seed` and `parts`; big numbers (epoch ms, listing numbers) are split into 32-bit halves so no bits are lost. */
function stateFor(seed: number, parts: readonly number[]): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    h = mix(mix(h, Math.floor(p / 4294967296)), p >>> 0);
  }
  return h;
}

/** A random source fixed by `seed` and `parts`: the same inputs always give the same stream. */
export function rngFor(seed: number, ...parts: number[]): Rng {
  return new Rng(stateFor(seed, parts));
}

/** The first number of `rngFor(seed, a, b)`'s stream, without making the source (per-listing draws in the market's hot loop). */
export function firstDraw(seed: number, a: number, b: number): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  h = mix(mix(h, Math.floor(a / 4294967296)), a >>> 0);
  h = mix(mix(h, Math.floor(b / 4294967296)), b >>> 0);
  // Rng's constructor and first `next()` (mulberry32), as in rng.ts.
  let t = ((h >>> 0 || 0x9e3779b9) + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
