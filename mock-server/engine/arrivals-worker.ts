/**
 * The thread that draws a long clock move's arrivals ahead of its ticks (arrivals-thread.ts starts it): each hour's
 * listings in turn, drawn and placed (arrival-batch.ts `drawBatch`), handed over as one array of numbers whose
 * memory moves to the engine's thread, and counts it in `shared` (the ticks wait on that count for a batch drawn
 * under way). It keeps at most AHEAD hours' batches beyond the hour the ticks have reached (the engine's thread counts
 * each arrival hour it takes in `shared`), so that the batches waiting are a few megabytes, not the whole move's.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { drawBatch, type ArrivalTerms } from './arrival-batch.js';

/** What the engine's thread hands this one: the terms, the first hour and number, where to stop, the port, the shared count. */
export interface ArrivalsWork {
  readonly terms: ArrivalTerms;
  /** The first hour to draw (epoch ms, a whole hour) and the last. */
  readonly from: number;
  readonly to: number;
  /** The number of the first listing to arrive. */
  readonly number: number;
  readonly port: MessagePort;
  /** Two Int32s: the arrival hours the ticks have reached (taken, or drawn by themselves), and the batches posted. */
  readonly shared: SharedArrayBuffer;
}

/** Batches drawn beyond the hour the ticks have reached: each is ~1/20 of a 15-day move's work at a million listings. */
const AHEAD = 3;
const HOUR = 3_600_000;

const work = workerData as ArrivalsWork;
/** [0]: the arrival hours the ticks have reached; [1]: the batches posted (-1: this thread failed). */
const shared = new Int32Array(work.shared);
try {
  let number = work.number;
  let drawn = 0;
  for (let t = work.from; t <= work.to; t += HOUR) {
    // Waits (the ticks' thread wakes it as it takes a batch) while AHEAD batches are ready beyond the hour the ticks reached.
    for (let seen = Atomics.load(shared, 0); drawn - seen >= AHEAD; seen = Atomics.load(shared, 0)) Atomics.wait(shared, 0, seen);
    const batch = drawBatch(work.terms, t, number);
    if (!batch) continue;
    number += batch[2]!;
    drawn++;
    work.port.postMessage(batch, [batch.buffer as ArrayBuffer]);
    Atomics.add(shared, 1, 1);
    Atomics.notify(shared, 1);
  }
} catch (err) {
  // The ticks stop waiting for this thread and draw their own.
  Atomics.store(shared, 1, -1);
  Atomics.notify(shared, 1);
  throw err;
} finally {
  work.port.close();
}
