// Types of bench/move-count.js for the tests that import it (test/bench-move-count.test.ts).

/** cachegrind's counts: instructions, D1 misses, last-level misses. */
export interface CachegrindCounts {
  ir: number;
  d1: number;
  ll: number;
}

/** Reads cachegrind's summary (its stderr with `--cache-sim=yes`). */
export function cachegrindCounts(text: string): CachegrindCounts;

/** The command line's options and builds (bench/move-count.js); throws an Error naming what is wrong. */
export function moveCountArgs(args: string[]): { listings: number; runs: number; span: string; roots: string[] };
