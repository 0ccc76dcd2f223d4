/**
 * V8 flags a command sets in its own process, once its modules are loaded. Changing a flag makes V8 refuse the code
 * caches compiled under the old ones, so every module loaded afterwards is compiled from source; 'mkt:v8-flags' first
 * tells the bin's code cache (bin/code-cache.cjs, Node < 22.1) to write what it keeps while V8 still takes it.
 */
import { setFlagsFromString } from 'node:v8';

/** Sets `flags` (V8's syntax, as on node's command line) in this process, the bin's code cache told first. */
export function setV8Flags(flags: string): void {
  (process.emit as (event: string) => boolean)('mkt:v8-flags');
  setFlagsFromString(flags);
}

/**
 * How many bytes of bytecode the optimising compiler may inline into one function, for `mkt mock serve`'s engine. V8's
 * default (920) runs out inside the engine's larger hot functions (settling a listing, servicing a loan), so the row
 * accessors and small helpers they call after that stay calls, each number a call returns a new heap object: with 6000, a
 * year of clock moves at 100,000 listings took ~10% less time on Node 20 and 24 (bench/year.js, paired runs; issue 43).
 * Only for long runs, where the larger compiles pay back: the serve sets it as its first long clock move begins
 * (mock-server/engine/engine.ts LONG_MOVE_ARRIVALS); set from its start, it made a 15-day move at 100,000 listings ~15%
 * slower, and `mkt invest simulate` (2,000 listings, 12 months) ~9%. The process is the CLI's own: a library user's
 * (`mkt/mock` in their tests) keeps its flags.
 */
export const ENGINE_INLINING = '--max-inlined-bytecode-size-cumulative=6000';

/**
 * How far the old generation may grow past what a full collection leaves before V8 starts the next, during a long clock
 * move of `mkt mock serve`: 4× (V8's own largest step, which it takes while a program allocates fast). V8 works the step
 * out at each collection from how fast the program allocated since the last one; a serve that answered searches for a
 * while before a long move had allocated slowly, so V8 let its heap grow by 1.1× at a time, and the move's new rows and
 * loans (~200 MB at a million listings) then ran three full collections, one of them 86–228 ms on the main thread, with
 * their marking on the second core the move's arrivals and compiles share. With it: one. A 15-day move at 1M after
 * `bench/scale.js`'s searches, six alternated runs: 3.15–3.58 s (median 3.40) → 3.12–3.24 s (3.19) on Node 20, and one
 * each on Node 24: 3.41 → 2.91 s; resident memory after the move ~5% more. V8 reads it at each collection, so it is set
 * as each long move begins and put back (V8_HEAP_GROWING) as it ends: it also overrides the smaller steps V8 takes to
 * give memory back (an idle serve's collections, or one near its heap's limit), which the serve keeps outside moves.
 */
export const LONG_MOVE_HEAP_GROWING = '--heap-growing-percent=300';

/** V8's own heap growth step again: 0, worked out at each collection. */
export const V8_HEAP_GROWING = '--heap-growing-percent=0';

/**
 * The Node majors whose V8 is known to have those flags (the ones CI runs, and those between): an unknown flag is an
 * "unrecognized flag" error on stderr, so a Node outside them keeps V8's defaults until CI runs it.
 */
const ENGINE_FLAG_MAJORS = [20, 24] as const;

/** Whether `tuneV8ForLongMove` sets the flags on Node `version`. */
export function engineFlagsApply(version = process.versions.node): boolean {
  const major = Number(version.split('.')[0]);
  return major >= ENGINE_FLAG_MAJORS[0] && major <= ENGINE_FLAG_MAJORS[1];
}

/**
 * Sets V8's flags for a long clock move on a Node known to have them: the heap growth step for the move, and on the
 * process's `first` long move the inlining budget, which stays. Returns what puts V8's own heap growth step back, for
 * the move's end; nothing where the flags do not apply.
 */
export function tuneV8ForLongMove(first: boolean, version = process.versions.node): (() => void) | undefined {
  if (!engineFlagsApply(version)) return undefined;
  setV8Flags(first ? `${ENGINE_INLINING} ${LONG_MOVE_HEAP_GROWING}` : LONG_MOVE_HEAP_GROWING);
  return () => setV8Flags(V8_HEAP_GROWING);
}
