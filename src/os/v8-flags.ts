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
 * The Node majors whose V8 is known to have that flag (the ones CI runs, and those between): an unknown flag is an
 * "unrecognized flag" error on stderr, so a Node outside them keeps V8's default until CI runs it.
 */
const INLINING_MAJORS = [20, 24] as const;

/** Whether `widenInliningForEngine` sets the flag on Node `version`. */
export function inliningApplies(version = process.versions.node): boolean {
  const major = Number(version.split('.')[0]);
  return major >= INLINING_MAJORS[0] && major <= INLINING_MAJORS[1];
}

/** Widens V8's inlining budget in this process (ENGINE_INLINING) on a Node known to have the flag; true when set. */
export function widenInliningForEngine(version = process.versions.node): boolean {
  if (!inliningApplies(version)) return false;
  setV8Flags(ENGINE_INLINING);
  return true;
}
