/**
 * What the engine's thread (arrivals-thread.ts) gives the arrivals' thread (arrivals-worker.ts) for one job (a long
 * clock move's arrivals, or its first release drawn while the mock waits for it), and the counts the two share while it
 * runs.
 */
import type { MessagePort } from 'node:worker_threads';
import type { ArrivalTerms } from './arrival-batch.js';

/** One job: the terms, the first hour and number, the port for its batches, the shared counts (where it stops among them). */
export interface ArrivalsJob {
  readonly terms: ArrivalTerms;
  /** The first hour to draw (epoch ms, a whole hour). */
  readonly from: number;
  /** The number of the first listing to arrive. */
  readonly number: number;
  readonly port: MessagePort;
  /** SHARED_COUNTS Int32s: REACHED, POSTED, STOPPED, LEAD, LAST, WAKE. */
  readonly shared: SharedArrayBuffer;
}

/** The arrival hours the ticks have reached (each one they take, or draw themselves). */
export const REACHED = 0;
/** The batches the thread posted; -1 once it failed. */
export const POSTED = 1;
/** 1 once the job is let go (its move ended, or it was drawn ahead for a move that began elsewhere): the thread stops drawing it. */
export const STOPPED = 2;
/**
 * How many batches the thread draws beyond the hour the ticks reached: LEAD_MOVING in a move, each ~1/20 of a 15-day
 * move's work at a million listings (the batches waiting are a few megabytes, not the whole move's); LEAD_IDLE in a job
 * drawn while the mock waits for its next move (arrivals-thread.ts `warm`), until that move takes it.
 */
export const LEAD = 3;
/** The last hour to draw, in hours after the job's first (NO_LAST: none yet, a job drawn ahead of a move not begun). */
export const LAST = 4;
/**
 * Bumped by the engine's thread at every change the thread waits for (an hour reached, the lead raised, the last hour
 * set, the job let go): the thread reads it before it looks at the others and waits only while it is unchanged, so that
 * no change between its look and its wait is missed.
 */
export const WAKE = 5;
export const SHARED_COUNTS = 6;
export const LEAD_MOVING = 3;
export const LEAD_IDLE = 1;
export const NO_LAST = 0x7fffffff;

/** Wakes the thread for a change the engine's thread just made to `shared`. */
function wake(shared: Int32Array): void {
  Atomics.add(shared, WAKE, 1);
  Atomics.notify(shared, WAKE);
}

/** The engine's thread: the ticks reached another arrival hour (they took its batch, or drew it themselves). */
export function hourReached(shared: Int32Array): void {
  Atomics.add(shared, REACHED, 1);
  wake(shared);
}

/** The engine's thread: the job is let go (the thread stops drawing it). */
export function letGo(shared: Int32Array): void {
  Atomics.store(shared, STOPPED, 1);
  wake(shared);
}

/** The engine's thread: a job drawn ahead is a move's now, drawn up to its `last` hour (hours after its first), LEAD_MOVING ahead. */
export function moveTakes(shared: Int32Array, last: number): void {
  Atomics.store(shared, LAST, last);
  Atomics.store(shared, LEAD, LEAD_MOVING);
  wake(shared);
}

/** The operations the thread's wait uses on `shared`: Atomics, or a test's model of it that runs the engine's thread between them. */
export interface SharedOps {
  load(shared: Int32Array, index: number): number;
  wait(shared: Int32Array, index: number, value: number): string;
}

/** True when the job is let go, or its `k`th hour is past its last. */
export function jobEnded(shared: Int32Array, k: number, ops: SharedOps = Atomics): boolean {
  return ops.load(shared, STOPPED) !== 0 || k > ops.load(shared, LAST);
}

/**
 * The thread's wait before the job's `k`th hour, `drawn` batches posted: true once it may draw it (fewer than LEAD
 * batches ready beyond the hour the ticks reached), false once the job ended. The wake count is read before the others:
 * a change the engine's thread makes after that read bumps it, and the wait then returns at once instead of sleeping
 * through it (the engine's thread may run between any two of these operations).
 */
export function mayDraw(shared: Int32Array, k: number, drawn: number, ops: SharedOps = Atomics): boolean {
  for (;;) {
    const woken = ops.load(shared, WAKE);
    // The room first, the end after: a lead read raised comes with its move's last hour (`moveTakes` stores the last
    // hour first), so a job is never drawn past its last hour by a lead read new and an end read old.
    const room = drawn - ops.load(shared, REACHED) < ops.load(shared, LEAD);
    if (jobEnded(shared, k, ops)) return false;
    if (room) return true;
    ops.wait(shared, WAKE, woken);
  }
}
