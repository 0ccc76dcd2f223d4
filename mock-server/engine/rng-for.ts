/** Deterministic random streams derived from the world's seed and a few numbers (a tick, a listing). */
import { initialState, mulberry32, nextState, Rng } from '../kit/rng.js';

/**
 * Mixes one 32-bit word into the hash `h`. The hash is kept as a signed 32-bit integer (the same bits as
 * the unsigned one every stream starts from: `initialState` reads it unsigned), so that a hash between
 * calls is a small integer, not a boxed number each (a 15-day move hashed ~2 million of them).
 */
function mix(h: number, w: number): number {
  h = Math.imul(h ^ w, 0x01000193);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

/** Mixes one number into `h`; big numbers (epoch ms, listing numbers) are split into 32-bit halves so no bits are lost. */
function mixNumber(h: number, p: number): number {
  return mix(mix(h, Math.floor(p / 4294967296)), p >>> 0);
}

function hashStart(seed: number): number {
  return seed ^ 0x811c9dc5;
}

/** A random source fixed by `seed` and `parts`: the same inputs always give the same stream. */
export function rngFor(seed: number, ...parts: number[]): Rng {
  let h = hashStart(seed);
  for (let i = 0; i < parts.length; i++) h = mixNumber(h, parts[i]!);
  return new Rng(h);
}

/** The first number of `rngFor(seed, a, b)`'s stream, without making the source (per-listing draws in the market's hot loop). */
export function firstDraw(seed: number, a: number, b: number): number {
  return mulberry32(nextState(initialState(mixNumber(mixNumber(hashStart(seed), a), b))));
}

/**
 * The state of `rngFor(seed, a, b, c)`'s stream before its first draw, as a plain number: step it
 * with `nextState` and read it with `mulberry32` (no object per stream in the market's hot loop).
 */
export function streamState(seed: number, a: number, b: number, c: number): number {
  return initialState(mixNumber(mixNumber(mixNumber(hashStart(seed), a), b), c));
}

/** The first number of `rngFor(seed, a, b, c)`'s stream. */
export function firstDraw3(seed: number, a: number, b: number, c: number): number {
  return mulberry32(nextState(streamState(seed, a, b, c)));
}

/** The hash `firstDraw3(seed, a, b, c)` mixes `c` into: worked out once for many draws of one (a, b) (`firstDrawFrom`). */
export function hashOf(seed: number, a: number, b: number): number {
  return mixNumber(mixNumber(hashStart(seed), a), b);
}

/** `firstDraw3(seed, a, b, c)` from `hashOf(seed, a, b)`. */
export function firstDrawFrom(hash: number, c: number): number {
  return mulberry32(nextState(initialState(mixNumber(hash, c))));
}
