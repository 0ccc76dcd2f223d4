/**
 * A long clock move's arrivals drawn on another thread (arrivals-worker.ts) while the ticks run on this one: at a million
 * listings a 15-day move adds ~1.1 million, and drawing each and working out its place in the timeline was about a
 * quarter of the move. A tick takes its hour's batch (`take`) with `receiveMessageOnPort` (the ticks of a day run
 * without a turn of the event loop), waiting for one under way; it draws its own when the thread failed or is stuck, or
 * when the batch was drawn for other numbers (something else added a listing: every later batch is let go too). One
 * thread serves every long move of a mock, started at the first (or as the mock starts, `warm`). While the mock waits
 * for its next move, the thread draws that move's first release (`warm`, and again as each long move ends): the move
 * that begins where it was drawn from takes it, and its first release waits for no drawing (~50,000 listings at a million,
 * ~0.1 s to draw, which a move began without it waited for). Node only: the engine's host passes
 * it in (`mkt mock serve`, `mkt/mock`'s Node entry); without it (a browser) the ticks draw every arrival.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { ArrivalsAhead } from '../world/derived.js';
import type { World } from '../world/world.js';
import {
  hourReached,
  LAST,
  LEAD,
  LEAD_IDLE,
  LEAD_MOVING,
  letGo,
  moveTakes,
  NO_LAST,
  POSTED,
  SHARED_COUNTS,
  type ArrivalsJob,
} from './arrivals-job.js';
import { LONG_MOVE_ARRIVALS } from './engine.js';
import { HOUR } from './event-hours.js';

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
 * than a batch takes (~0.05 s at a million listings), so that only a thread that is stuck or gone is let go.
 */
const WAIT_MS = 3000;

/** One move's arrivals, drawn by the thread. */
class MoveArrivals implements ArrivalsAhead {
  private waiting: Float64Array | undefined;
  private stopped = false;

  constructor(
    private readonly port: MessagePort,
    private readonly shared: Int32Array,
    /** Called once, as the move ends (not when its batches are let go inside it). */
    private readonly ended: () => void,
    /** Called for each batch a tick takes. */
    private readonly took: () => void,
  ) {}

  take(t: number, number: number): Float64Array | undefined {
    if (this.stopped) return undefined;
    const shared = this.shared;
    hourReached(shared);
    for (;;) {
      // The count first: a batch posted before it was read is on the port now, and one posted after wakes the wait.
      const posted = Atomics.load(shared, POSTED);
      const batch = this.waiting ?? (receiveMessageOnPort(this.port)?.message as Float64Array | undefined);
      this.waiting = undefined;
      if (batch === undefined) {
        // Under way (the thread draws in hour order, as the ticks ask): its rest is less than drawing it here.
        if (posted >= 0 && Atomics.wait(shared, POSTED, posted, WAIT_MS) !== 'timed-out') continue;
        this.drop();
        return undefined;
      }
      const at = batch[0]!;
      if (at < t) continue;
      if (at > t) {
        this.waiting = batch;
        return undefined;
      }
      if (batch[1] === number) {
        this.took();
        return batch;
      }
      // Drawn for other numbers: so is every later one.
      this.drop();
      return undefined;
    }
  }

  /** The engine's call as the move ends. */
  stop(): void {
    this.drop();
    this.ended();
  }

  private drop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.waiting = undefined;
    stopJob(this.port, this.shared);
  }
}

/** Tells the thread to stop drawing for a job, and lets its batches go. */
function stopJob(port: MessagePort, shared: Int32Array): void {
  letGo(shared);
  port.close();
}

/** The hours after `first` (a job's first hour) up to `to`: the job's LAST. */
const lastOf = (first: number, to: number): number => Math.min(NO_LAST, Math.floor((to - first) / HOUR));

/** A job posted to the thread: its port (the batches arrive there), its shared counts, and what it was drawn for. */
interface Posted {
  readonly port: MessagePort;
  readonly shared: Int32Array;
  /** The job's first hour (epoch ms). */
  readonly first: number;
  /** The world's seed, rate and release times, its last tick and next listing number when it was posted (`drawnFrom`). */
  readonly from: string;
  /** The thread it was posted to (a job drawn ahead by a thread gone since is not taken). */
  readonly worker: Worker;
}

/** What the arrivals of a world's next move follow from: the thread's batches are the move's when it begins here. */
function drawnFrom(world: World): string {
  const e = world.engine;
  return JSON.stringify([world.seed, e.arrivalsPerHour, e.releases ?? null, e.lastTick, world.counters.listing]);
}

/**
 * The thread of a mock's long moves: started at the first (or ahead, `warm`) and kept for the next, unreferenced (it
 * keeps no process alive). `ahead` is the engine host's `arrivalsAhead`.
 */
export class ArrivalsThread {
  private worker: Worker | null = null;
  /** A job drawn while the mock waits for its next move (`warm`): the next move's, when it begins where this was drawn from. */
  private next: Posted | null = null;
  private posted = 0;
  private batches = 0;
  /** Set by `close`: a move ending after it (its `warm`) or beginning after it starts no thread again. */
  private closed = false;

  /** `least`: the listings due to arrive in a move for it to be drawn here (a long move); `file`: the worker's. */
  constructor(
    private readonly least = LONG_MOVE_ARRIVALS,
    private readonly file = workerFile(),
  ) {}

  /**
   * The arrivals of the move from `from` to `to` (epoch ms) of `world` drawn on the thread; null for a move that is not
   * long, with no worker's file (run from the sources), with no thread to be made, or once the thread is closed.
   */
  readonly ahead = (world: World, from: number, to: number): ArrivalsAhead | null => {
    if (this.closed || ((to - from) / HOUR) * world.engine.arrivalsPerHour < this.least) return null;
    // The job drawn ahead, when the move begins where it was drawn from (its lead raised to a move's); else a new one.
    let job = this.takeNext(drawnFrom(world));
    if (job) {
      // It stops at the move's last hour, as a job posted for the move does.
      moveTakes(job.shared, lastOf(job.first, to));
    } else job = this.post(world, to, LEAD_MOVING);
    if (!job) return null;
    return new MoveArrivals(
      job.port,
      job.shared,
      () => this.warm(world),
      () => void this.batches++,
    );
  };

  /**
   * When a 15-day move of `world` would be long: starts the thread now, so that its first move waits for no start, and
   * has it draw the next move's first release (a job drawn ahead before is let go unless it is this one).
   */
  warm(world: World): void {
    if (this.closed || 15 * 24 * world.engine.arrivalsPerHour < this.least) return;
    const from = drawnFrom(world);
    const kept = this.takeNext(from);
    this.next = kept ?? this.post(world, Infinity, LEAD_IDLE);
  }

  /** Jobs posted to the thread: each move's, or one drawn ahead of a move. */
  get jobs(): number {
    return this.posted;
  }

  /** Batches the ticks took from the thread: each an hour's arrivals they did not draw. */
  get taken(): number {
    return this.batches;
  }

  /** Lets the thread go. */
  close(): Promise<unknown> {
    this.closed = true;
    this.takeNext(null);
    const worker = this.worker;
    this.worker = null;
    return worker ? worker.terminate() : Promise.resolve();
  }

  /**
   * The job drawn ahead when it was drawn from `from` by the thread still running; otherwise it is let go (the thread
   * stops drawing it), and null.
   */
  private takeNext(from: string | null): Posted | null {
    const next = this.next;
    this.next = null;
    if (next === null || (next.from === from && next.worker === this.worker)) return next;
    stopJob(next.port, next.shared);
    return null;
  }

  /**
   * Posts the job of `world`'s arrivals from its next hour up to `to` (Infinity: no last hour yet, a job drawn ahead), drawn
   * `lead` batches ahead; null without a thread.
   */
  private post(world: World, to: number, lead: number): Posted | null {
    const worker = this.started();
    if (!worker) return null;
    const e = world.engine;
    const first = e.lastTick + HOUR;
    const { port1, port2 } = new MessageChannel();
    const shared = new Int32Array(new SharedArrayBuffer(4 * SHARED_COUNTS));
    shared[LEAD] = lead;
    shared[LAST] = lastOf(first, to);
    const job: ArrivalsJob = {
      terms: { seed: world.seed, arrivalsPerHour: e.arrivalsPerHour, releases: e.releases },
      from: first,
      number: world.counters.listing,
      port: port2,
      shared: shared.buffer as SharedArrayBuffer,
    };
    worker.postMessage(job, [port2]);
    port1.unref();
    this.posted++;
    return { port: port1, shared, first, from: drawnFrom(world), worker };
  }

  private started(): Worker | null {
    if (this.worker || this.file === undefined) return this.worker;
    let worker: Worker;
    try {
      worker = new Worker(this.file);
    } catch {
      // A thread that cannot be made (refused at once): the ticks draw every arrival. Thrown here, it would have ended
      // the move that asked, or, from the warm after a move (MoveArrivals `ended`), the engine's close of that move.
      return null;
    }
    worker.unref();
    // A thread that fails is let go (a job under way stops waiting for it: arrivals-worker.ts); the next long move starts another.
    const gone = (): void => {
      if (this.worker !== worker) return;
      this.worker = null;
      // A job it drew ahead goes with it (the next move posts its own to another).
      this.takeNext(null);
    };
    worker.on('error', gone);
    worker.on('exit', gone);
    return (this.worker = worker);
  }
}
