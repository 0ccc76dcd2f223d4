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
export const SHARED_COUNTS = 3;
