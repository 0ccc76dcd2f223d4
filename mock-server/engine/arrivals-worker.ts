/**
 * The thread that draws a long clock move's arrivals ahead of its ticks (arrivals-thread.ts starts it and keeps it for
 * the next move): for each move it is given (a job), each hour's listings in turn, drawn and placed (arrival-batch.ts
 * `drawBatch`), handed over as one array of numbers whose memory moves to the engine's thread, and counted in the job's
 * `shared` (the ticks wait on that count for a batch under way). It keeps at most `shared`'s LEAD batches beyond the
 * hour the ticks have reached (the engine's thread counts each arrival hour it takes in `shared`); it stops a job at its
 * LAST hour (set when its move begins) or when it is let go (STOPPED).
 */
import { parentPort } from 'node:worker_threads';
import { drawBatch } from './arrival-batch.js';
import { mayDraw, POSTED, type ArrivalsJob } from './arrivals-job.js';
import { HOUR } from './event-hours.js';

/** Draws the job's batches, in hour order, until its last hour or until it is let go. */
function run(job: ArrivalsJob): void {
  const shared = new Int32Array(job.shared);
  try {
    let number = job.number;
    let drawn = 0;
    // Each hour in turn while the job may draw it (arrivals-job.ts `mayDraw`: LEAD batches ahead of the ticks at most).
    for (let k = 0; mayDraw(shared, k, drawn); k++) {
      const t = job.from + k * HOUR;
      const batch = drawBatch(job.terms, t, number);
      if (!batch) continue;
      number += batch[2]!;
      drawn++;
      job.port.postMessage(batch, [batch.buffer as ArrayBuffer]);
      Atomics.add(shared, POSTED, 1);
      Atomics.notify(shared, POSTED);
    }
  } catch (err) {
    // The ticks stop waiting for this thread and draw their own.
    Atomics.store(shared, POSTED, -1);
    Atomics.notify(shared, POSTED);
    throw err;
  } finally {
    job.port.close();
  }
}

// Compiled before the first move asks (a thread started ahead: arrivals-thread.ts `warm`): a few hundred listings of no world.
drawBatch({ seed: 1, arrivalsPerHour: 400 }, 0, 1_000_000);
parentPort!.on('message', run);
