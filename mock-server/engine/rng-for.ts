/** Deterministic random streams derived from the world's seed and a few numbers (a tick, a listing). */
import { Rng } from '../rng.js';

/** A random source fixed by `seed` and `parts`: the same inputs always give the same stream. */
export function rngFor(seed: number, ...parts: number[]): Rng {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (const p of parts) {
    // Split big numbers (epoch ms, listing numbers) into 32-bit halves so no bits are lost.
    for (const w of [Math.floor(p / 4294967296), p >>> 0]) {
      h = Math.imul(h ^ (w >>> 0), 0x01000193) >>> 0;
      h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
      h = (h ^ (h >>> 13)) >>> 0;
    }
  }
  return new Rng(h);
}
