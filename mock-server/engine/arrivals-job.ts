/**
 * What the engine's thread (arrivals-thread.ts) gives the arrivals' thread (arrivals-worker.ts) for one long clock move,
 * and the counts the two share while it runs.
 */
import type { MessagePort } from 'node:worker_threads';
import type { ArrivalTerms } from './arrival-batch.js';

/** One move's work: the terms, the first hour and number, where to stop, the port for its batches, the shared counts. */
export interface ArrivalsJob {
  readonly terms: ArrivalTerms;
  /** The first hour to draw (epoch ms, a whole hour) and the last. */
  readonly from: number;
  readonly to: number;
  /** The number of the first listing to arrive. */
  readonly number: number;
  readonly port: MessagePort;
  /** SHARED_COUNTS Int32s, at REACHED, POSTED and STOPPED. */
  readonly shared: SharedArrayBuffer;
}

/** The arrival hours the ticks have reached (each one they take, or draw themselves). */
export const REACHED = 0;
/** The batches the thread posted; -1 once it failed. */
export const POSTED = 1;
/** 1 once the move ended: the thread stops drawing for it. */
export const STOPPED = 2;
/**
 * How many batches the thread draws beyond the hour the ticks reached: LEAD_MOVING in a move, each ~1/20 of a 15-day
 * move's work at a million listings (the batches waiting are a few megabytes, not the whole move's); LEAD_IDLE in a job
 * drawn while the mock waits for its next move (arrivals-thread.ts `warm`), until that move takes it.
 */
export const LEAD = 3;
export const SHARED_COUNTS = 4;
export const LEAD_MOVING = 3;
export const LEAD_IDLE = 1;
