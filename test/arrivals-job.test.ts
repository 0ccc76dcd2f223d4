/**
 * The wait of the arrivals' thread (engine/arrivals-job.ts `mayDraw`) against the engine's thread's changes to the
 * counts they share (`hourReached`, `moveTakes`, `letGo`), run at every point between two of the wait's operations: the
 * wait never sleeps through a change (a lost wake-up would leave the thread asleep for good, and every later move of
 * the mock waiting 3 s for it before drawing its own), and answers as the change says.
 */
import { describe, expect, test } from 'vitest';
import {
  hourReached,
  LAST,
  LEAD,
  LEAD_IDLE,
  letGo,
  mayDraw,
  moveTakes,
  NO_LAST,
  SHARED_COUNTS,
  type SharedOps,
} from '../mock-server/engine/arrivals-job.js';

/** The counts of a job drawn ahead (LEAD_IDLE, no last hour) whose one batch is drawn: its thread waits. */
function idleJob(): Int32Array {
  const shared = new Int32Array(new SharedArrayBuffer(4 * SHARED_COUNTS));
  shared[LEAD] = LEAD_IDLE;
  shared[LAST] = NO_LAST;
  return shared;
}

/**
 * Atomics as the thread sees them, with the engine's thread's `change` run just before the wait's `at`th operation (or
 * while it sleeps, when it sleeps before that): a wait on an unchanged value sleeps until the change, or for good when
 * the change has run (nothing else will wake it). Counts the operations.
 */
function interleaved(change: (shared: Int32Array) => void, at: number): SharedOps & { ops: number } {
  let changed = false;
  const run = (shared: Int32Array): void => {
    if (!changed) change(shared);
    changed = true;
  };
  const model = {
    ops: 0,
    load(shared: Int32Array, index: number): number {
      if (model.ops++ === at) run(shared);
      return Atomics.load(shared, index);
    },
    wait(shared: Int32Array, index: number, value: number): string {
      if (model.ops++ === at) run(shared);
      if (Atomics.load(shared, index) !== value) return 'not-equal';
      if (changed) throw new Error('the thread sleeps through the change: nothing will wake it');
      // Asleep: the engine's thread makes its change and wakes it.
      run(shared);
      return 'ok';
    },
  };
  return model;
}

describe("the arrivals' thread's wait, with the engine's thread's change between any two of its steps", () => {
  // The thread of a job drawn ahead: one batch drawn (hour 0), about to draw hour 1 once the lead allows.
  const cases: [string, (shared: Int32Array) => void, boolean][] = [
    ['the move takes the job (its lead raised): it draws on', (shared) => moveTakes(shared, 360), true],
    ['the ticks take the batch (an hour reached): it draws the next', hourReached, true],
    ['the job is let go (a move that began elsewhere, the mock closing): it stops', letGo, false],
    ['the move takes the job, its last hour before the next: it stops', (shared) => moveTakes(shared, 0), false],
  ];

  test.each(cases)('%s, wherever the change falls', (_name, change, draws) => {
    // Without a change the wait would sleep (its undisturbed run: its operations before the sleep).
    const quiet = interleaved(() => undefined, -1);
    expect(() => mayDraw(idleJob(), 1, 1, quiet)).toThrow('nothing will wake it');
    expect(quiet.ops).toBeGreaterThan(3);
    for (let at = 0; at <= quiet.ops; at++) {
      const ops = interleaved(change, at);
      expect(mayDraw(idleJob(), 1, 1, ops), `the change before operation ${at}`).toBe(draws);
    }
  });

  test('a job with room to draw does not wait, and one let go does not draw', () => {
    const shared = idleJob();
    expect(mayDraw(shared, 0, 0)).toBe(true);
    letGo(shared);
    expect(mayDraw(shared, 0, 0)).toBe(false);
  });
});
