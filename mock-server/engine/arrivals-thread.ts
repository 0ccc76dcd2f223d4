/**
 * A long clock move's arrivals drawn on another thread (arrivals-worker.ts) while the ticks run on this one: at a million
 * listings a 15-day move adds ~1.1 million, and drawing each and working out its place in the timeline was about a
 * quarter of the move. A tick takes its hour's batch (`take`) with `receiveMessageOnPort` (the ticks of a day run
 * without a turn of the event loop), waiting for one under way; it draws its own when the thread failed or is stuck, or
 * when the batch was drawn for other numbers (something else added a listing: every later batch is let go too). Node only: the engine's host
 * passes it in (`mkt mock serve`); without it (a browser, the library) the ticks draw every arrival as before.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { ArrivalsAhead } from '../world/derived.js';
import type { World } from '../world/world.js';
import type { ArrivalsWork } from './arrivals-worker.js';
import { LONG_MOVE_ARRIVALS } from './engine.js';

/** The worker's file: beside this module as tsc built it (.js), or as the CLI's bundle (.cjs); none when run from the sources. */
function workerFile(): string | undefined {
  for (const name of ['./arrivals-worker.js', './arrivals-worker.cjs']) {
    const file = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(file)) return file;
  }
  return undefined;
}

/**
 * How long a tick waits for its batch, drawn under way, before it lets the thread go and draws its own: far longer
 * than a batch takes (~0.1 s at a million listings), so that only a thread that is stuck or gone is let go.
 */
const WAIT_MS = 3000;

/** Arrivals of a move drawn by the worker. */
class ArrivalsThread implements ArrivalsAhead {
  private waiting: Float64Array | undefined;
  private stopped = false;
  /** [0]: the arrival hours the ticks have reached; [1]: the batches the worker posted (-1: it failed). */
  private readonly shared: Int32Array;

  constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    shared: SharedArrayBuffer,
  ) {
    this.shared = new Int32Array(shared);
    // A worker that fails leaves the ticks drawing their own; an error is not the move's.
    worker.on('error', () => this.stop());
  }

  take(t: number, number: number): Float64Array | undefined {
    if (this.stopped) return undefined;
    const shared = this.shared;
    Atomics.add(shared, 0, 1);
    Atomics.notify(shared, 0);
    for (;;) {
      // The count first: a batch posted before it was read is on the port now, and one posted after wakes the wait.
      const posted = Atomics.load(shared, 1);
      const batch = this.waiting ?? (receiveMessageOnPort(this.port)?.message as Float64Array | undefined);
      this.waiting = undefined;
      if (batch === undefined) {
        // Under way (the thread draws in hour order, as the ticks ask): its rest is less than drawing it here.
        if (posted >= 0 && Atomics.wait(shared, 1, posted, WAIT_MS) !== 'timed-out') continue;
        this.stop();
        return undefined;
      }
      const at = batch[0]!;
      if (at < t) continue;
      if (at > t) {
        this.waiting = batch;
        return undefined;
      }
      if (batch[1] === number) return batch;
      // Drawn for other numbers: so is every later one.
      this.stop();
      return undefined;
    }
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.waiting = undefined;
    this.port.close();
    void this.worker.terminate();
  }
}

/**
 * Starts drawing the arrivals of the clock move from `from` to `to` (epoch ms) of `world` on another thread, when at
 * least `least` listings are due to arrive in it (a long move: engine.ts LONG_MOVE_ARRIVALS); null when not, or when
 * there is no worker's `file` to start (run from the sources).
 */
export function arrivalsThread(
  world: World,
  from: number,
  to: number,
  least = LONG_MOVE_ARRIVALS,
  file = workerFile(),
): ArrivalsAhead | null {
  const e = world.engine;
  if (((to - from) / 3_600_000) * e.arrivalsPerHour < least || file === undefined) return null;
  const { port1, port2 } = new MessageChannel();
  const shared = new SharedArrayBuffer(8);
  const work: ArrivalsWork = {
    terms: { seed: world.seed, arrivalsPerHour: e.arrivalsPerHour, releases: e.releases },
    from: e.lastTick + 3_600_000,
    to,
    number: world.counters.listing,
    port: port2,
    shared,
  };
  const worker = new Worker(file, { workerData: work, transferList: [port2] });
  // Neither keeps the process alive: a move that ends (or a server that closes) stops it.
  worker.unref();
  port1.unref();
  return new ArrivalsThread(worker, port1, shared);
}
