/**
 * A deterministic scheduler for protocol tests (STYLE 24): contenders are generators that yield before
 * each step that another may observe (a system call), and every order in which their steps can run is
 * tried, each from a fresh world, with an invariant checked after every step. Optionally one contender
 * may be killed at any point (its generator returned: its `finally` blocks do what the kernel does when a
 * process dies, such as closing its files).
 *
 * The search is stateful: a run is replayed from the start up to each point, and a point whose state
 * (every contender's steps so far, with what each yielded, and the world's own signature) was seen
 * before is not explored again, since what follows it is the same. The count of interleavings is the
 * number of complete schedules through the explored graph.
 */

/** One contender: yields a label before each step (a label may carry what it observed). */
export type Contender = Generator<string, unknown>;

/** What to explore. */
export interface Exploration<W> {
  /** A fresh world for one run (a new temporary file with the planted lock, say). */
  setup(): W;
  /** The contenders of one run, over its world. */
  contenders(world: W): Contender[];
  /** What of the world, beyond the contenders' own steps, decides what follows (a file's content, say). */
  signature(world: W): string;
  /** Throws when an invariant does not hold; called after every step. */
  check(world: W, trace: readonly string[]): void;
  /** Throws when a complete run ended wrongly. */
  end?(world: W, trace: readonly string[]): void;
  /** Frees what a run holds (called after every replay, complete or not). */
  teardown?(world: W): void;
  /** How many contenders may be killed in one run (default 0). */
  kills?: number;
  /**
   * The contenders run the same code and the invariants do not tell them apart: states that differ only
   * by which contender is which are one state (explored once; the count is then of schedules up to that
   * renaming).
   */
  symmetric?: boolean;
}

/** What was explored. */
export interface Explored {
  /** Distinct states visited. */
  states: number;
  /** Complete schedules (interleavings, kills included) the invariant held over. */
  interleavings: bigint;
  /** Replays made. */
  runs: number;
}

/** A move of the scheduler: advance contender i, or kill it. */
type Move = { i: number; kill: boolean };

/** Explores every interleaving of `x`'s contenders; throws the first broken invariant with its schedule. */
export function exploreInterleavings<W>(x: Exploration<W>): Explored {
  const memo = new Map<string, bigint>();
  let runs = 0;

  /** Replays `moves` from a fresh world; returns the state key and the moves possible next. */
  const replay = (moves: readonly Move[]): { key: string; next: Move[] } => {
    runs++;
    const world = x.setup();
    const gens = x.contenders(world);
    const labels: string[][] = gens.map(() => []);
    const done = gens.map(() => false);
    const trace: string[] = [];
    let kills = 0;
    const advance = (i: number): void => {
      const r = gens[i]!.next();
      if (r.done) done[i] = true;
      else labels[i]!.push(r.value);
    };
    try {
      // Each contender runs to its first step (nothing observable happens before it).
      gens.forEach((_, i) => advance(i));
      for (const m of moves) {
        if (m.kill) {
          kills++;
          trace.push(`${m.i}:killed`);
          labels[m.i]!.push('killed');
          gens[m.i]!.return(undefined);
          done[m.i] = true;
        } else {
          trace.push(`${m.i}:${labels[m.i]!.at(-1)}`);
          advance(m.i);
        }
        try {
          x.check(world, trace);
        } catch (err) {
          throw new Error(`${(err as Error).message}\n  schedule: ${trace.join(' ')}`);
        }
      }
      const next: Move[] = [];
      gens.forEach((_, i) => {
        if (done[i]) return;
        next.push({ i, kill: false });
        if (kills < (x.kills ?? 0)) next.push({ i, kill: true });
      });
      if (next.length === 0 && x.end) {
        try {
          x.end(world, trace);
        } catch (err) {
          throw new Error(`${(err as Error).message}\n  schedule: ${trace.join(' ')}`);
        }
      }
      const each = labels.map((l, i) => `${done[i] ? '#' : ''}${l.join(',')}`);
      const key = `${(x.symmetric ? each.sort() : each).join('|')}|k${kills}|${x.signature(world)}`;
      return { key, next };
    } finally {
      for (const g of gens) g.return(undefined);
      x.teardown?.(world);
    }
  };

  const explore = (moves: Move[]): bigint => {
    const { key, next } = replay(moves);
    const seen = memo.get(key);
    if (seen !== undefined) return seen;
    let count = next.length === 0 ? 1n : 0n;
    for (const m of next) count += explore([...moves, m]);
    memo.set(key, count);
    return count;
  };

  const interleavings = explore([]);
  return { states: memo.size, interleavings, runs };
}
