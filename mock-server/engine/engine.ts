/**
 * The engine of a running mock (its MockContext holds it): keeps the world in step with the virtual clock (orders
 * processed at their time, hourly market ticks in between) and runs on a timer while a server listens. It tells the
 * world's keeper (`Keeper`: durability/, chosen by the context) of every change it makes and of every clock move;
 * the operations that change the world on request run in operations/, which syncs the world through `sync`.
 */
import type { VirtualClock } from '../kit/clock.js';
import { aTurn, nextTurn, unrefTimer, type Turn } from '../kit/turns.js';
import type { ArrivalsAhead } from '../world/derived.js';
import type { World } from '../world/world.js';
import { runTick, TICK_MS } from './market.js';
import { prepareTimeline } from './timeline.js';
import { settleSome, settleWorld } from './settle.js';
import { describeAwaiting } from '../world/row-table.js';
import { buildIndexSome } from '../search/index-build.js';
import { carryNumbering, processOrder, type OrderNumbering } from './orders.js';
import type { SeedRecipe } from '../world/recipe.js';

/** Default delay between accepting an order and processing it (virtual time). */
export const DEFAULT_PROCESS_DELAY_MS = 1500;
/** A catch-up longer than this (a state file reloaded after years) skips the market ahead instead. */
const MAX_CATCH_UP_TICKS = 24 * 800;
/** How often the running server looks at the clock. */
const TIMER_MS = 200;
/**
 * Listings a slice of the idle work gives a place in the timeline, rows it settles, arrived listings it describes, and rows of
 * the listing index it builds (prepareIdle): ~10 ms each (the index's ~1 ms at a million listings; its first slice, not yet compiled, ~10).
 */
const [PREPARE_ROWS, SETTLE_ROWS, DESCRIBE_ROWS, INDEX_ROWS] = [8192, 16384, 2048, 16384];
/**
 * A clock move is long (EngineHost `beforeLongMove`) when the listings due to arrive in it are at least this many: a
 * move's work grows with the listings that pass through the market in it (30 days at 100,000 listings, ~214,000; 15
 * days there, ~107,000, is not: V8's wider inlining made that move ~15% slower, bench/run.js, and a year of 30-day
 * moves ~10% faster, bench/year.js).
 */
export const LONG_MOVE_ARRIVALS = 150_000;

/** A stepped clock move (moveClock) brings the world up a virtual day at a time. */
export const MOVE_STEP_MS = 86_400_000;

/**
 * Event-loop turns a stepped move gives other requests between two days: a request on a new
 * connection needs a few (accepted, read, answered), and a day at a million listings outlasts the
 * server's keep-alive, so every look at the move's progress comes on a new connection.
 */
const TURNS_BETWEEN_DAYS = 4;

/** A clock move under way: from where, to where, and the day boundary the world has reached. */
export interface ClockMoveProgress {
  readonly from: number;
  readonly to: number;
  /** Virtual time the world is at (from, a day boundary after it, or to). */
  readonly at: number;
}

/** What an engine keeps in step (the mock's context): the world, replaced when a state file is loaded; its clock. */
export interface EngineHost {
  world: World;
  readonly clock: VirtualClock;
  readonly options: {
    readonly beforeLongMove?: () => (() => void) | void;
    readonly arrivalsAhead?: (world: World, from: number, to: number) => ArrivalsAhead | null;
  };
}

/**
 * What keeps the world across restarts (durability/: nothing without --state, an earlier mock's single state
 * file, or a --state folder's operation log), as the engine tells it of what happens to the world.
 */
export interface Keeper {
  /** Takes up the world: the one kept, or `fresh(t)` seeded at `t` when nothing is (a clear error when what is kept is corrupt). */
  open(fresh: (t: number) => World): void;
  /** A change no one was told of (an order processed at its time, a market tick): kept soon. */
  background(): void;
  /** A change someone is about to be told of: the next `durable()` waits until it is kept. */
  promised(): void;
  /** A stepped clock move from `from` ended at `at` (what it held back is kept now; a log records where it got to). */
  moveEnded(from: number, at: number): void;
  /** The world was replaced (a reset: `recipe`; a snapshot loaded: none): kept before this returns, or the 503 thrown and nothing changed. */
  worldReplaced(recipe?: SeedRecipe, t?: number): void;
  /** Keeps every change not yet kept, and lets the state go. */
  close(): Promise<void>;
  /** Lets the state go writing nothing more (what a kill leaves; the tests' crash). */
  abandon(): void;
}

/** The keeper before `open`: nothing to keep. */
const NOT_OPEN: Keeper = {
  open: () => undefined,
  background: () => undefined,
  promised: () => undefined,
  moveEnded: () => undefined,
  worldReplaced: () => undefined,
  close: () => Promise.resolve(),
  abandon: () => undefined,
};

/** The engine of a mock. */
export class Engine {
  private timer: NodeJS.Timeout | null = null;
  private syncing = false;
  private worldVersion = 0;
  /** The stepped clock move under way, and when it ends. */
  private move: { progress: ClockMoveProgress; ended: Promise<void> } | null = null;
  /** Set by close: a move under way stops at its next day boundary. */
  private stopping = false;
  /** What keeps the world (set by open). */
  private keeper: Keeper = NOT_OPEN;
  /** The next slice of the idle timeline build (prepareIdle), or null. */
  private preparing: Turn | null = null;
  /** Where order numbers stand across the worlds this mock has had (orders.ts): an order accepted draws from it, a keeper keeps it. */
  readonly numbering: OrderNumbering = { before: 0 };
  /** What follows each move of the clock (set by open). */
  private follow: (from: number, to: number) => void = () => undefined;

  /** Bumped by every change to the world (a writing route's or the market's): part of the key of kept list orders (kept-orders.ts). */
  get version(): number {
    return this.worldVersion;
  }

  /** True while no idle work waits for its turn (prepareIdle): all of it is done, or a move under way holds it. */
  get idle(): boolean {
    return this.preparing === null;
  }

  /** The hourly market step: the timeline's (market.ts); the tests put the plain hourly walk in its place to compare the two. */
  tick: (world: World, t: number) => void = runTick;

  constructor(
    private readonly ctx: EngineHost,
    readonly processDelayMs: number,
  ) {}

  /**
   * Takes up the world through `keeper` (`fresh` seeds it when nothing is kept; a --state folder's log is replayed
   * later, by the keeper's own `replay`, once every operation can run) and follows every move of the clock.
   */
  open(keeper: Keeper, fresh: (t: number) => World): void {
    // Inside a stepped move the world is settled when someone reads it (a request syncs), and after it between requests.
    this.follow = (_from: number, to: number) => this.syncTo(to, !this.move);
    this.keeper = keeper;
    keeper.open(fresh);
    this.ctx.clock.onMove(this.follow);
  }

  /** Notes a change to the world made by someone else (an operation, a rollback): `version` moves, so kept views of the world go. */
  changed(): void {
    this.worldVersion++;
  }

  /**
   * The world `previous` was replaced (a reset, with the recipe it was seeded from; a snapshot loaded,
   * with none): its orders are numbered after every one drawn before, and with a --state folder a new
   * log begins from it (a new base on disk before this returns; when it cannot be, nothing changes).
   */
  worldReplaced(previous: World, recipe?: SeedRecipe, t?: number): void {
    this.worldVersion++;
    const numbered = this.numbering.before;
    carryNumbering(this.numbering, previous, this.ctx.world);
    try {
      this.keeper.worldReplaced(recipe, t);
    } catch (err) {
      this.numbering.before = numbered;
      throw err;
    }
    this.prepareIdle();
  }

  /**
   * While a server listens, builds the listing index a first search reads (search/index-build.ts), the timeline the next tick
   * begins with, brings the listings' columns up to it (settle.ts) and describes the listings a move added (arrivals.ts),
   * a slice per turn of the event loop (requests are answered between slices, each waiting ~10 ms at most; one that reads
   * settles the rest, a search builds the rest of the index), so that a clock move, a first search and their answers wait for
   * none of it: after the start, a reset, a load or a move. A move under way stops it (a tick builds the timeline; its end starts it again).
   */
  private prepareIdle(): void {
    if (this.preparing || !this.timer) return;
    const slice = (): void => {
      this.preparing = null;
      if (!this.timer || this.move) return;
      const world = this.ctx.world;
      // The index first: at a million listings it is ~0.1 s of slices, the timeline seconds, and a first search comes sooner than a first move.
      const done =
        buildIndexSome(world, INDEX_ROWS)
        && prepareTimeline(world, world.engine.lastTick / TICK_MS + 1, PREPARE_ROWS)
        && settleSome(world, SETTLE_ROWS)
        && describeAwaiting(world.listingTable, DESCRIBE_ROWS);
      if (!done) this.preparing = nextTurn(slice);
    };
    this.preparing = nextTurn(slice);
  }

  /** Brings the world up to the clock's current time, every listing's columns included (what a reader sees). */
  sync(): void {
    this.syncTo(this.ctx.clock.now(), true);
  }

  /** Applies the listings' own steps the timeline has not yet written to their columns (timeline.ts): before anyone reads the world. */
  settle(): void {
    settleWorld(this.ctx.world);
  }

  /** Runs every order due and every market tick up to `now`, in time order; `settle`: then brings every listing's columns up too. */
  private syncTo(now: number, settle: boolean): void {
    if (this.syncing) return;
    this.syncing = true;
    try {
      const world = this.ctx.world;
      const e = world.engine;
      if (now - e.lastTick > MAX_CATCH_UP_TICKS * TICK_MS) e.lastTick = Math.floor(now / TICK_MS) * TICK_MS - MAX_CATCH_UP_TICKS * TICK_MS;
      let steps = 0;
      for (;;) {
        const next = e.queue.length > 0 ? world.orders.get(e.queue[0]!) : undefined;
        if (e.queue.length > 0 && (!next || next.processed)) {
          e.queue.shift();
          continue;
        }
        const tick = e.lastTick + TICK_MS;
        if (next && next.processAt <= now && next.processAt <= tick) {
          processOrder(world, next, next.processAt);
        } else if (tick <= now) {
          this.tick(world, tick);
          e.lastTick = tick;
        } else break;
        steps++;
      }
      if (settle) this.settle();
      // Background work no one is told of yet; a request's own changes are marked by its route (route-helper/route.ts).
      if (steps > 0) {
        this.worldVersion++;
        this.markDirty();
      }
    } finally {
      this.syncing = false;
    }
  }

  /** The stepped clock move under way (GET /__mock/clock shows it), or null. */
  get moving(): ClockMoveProgress | null {
    return this.move?.progress ?? null;
  }

  /** Runs `fn` once no stepped clock move is under way, with nothing run in between (a move waiting too could start otherwise). */
  async afterMove<T>(fn: () => T): Promise<T> {
    while (this.move) await this.move.ended;
    return fn();
  }

  /**
   * Moves the clock to `target(now)` a virtual day at a time (POST /__mock/clock), yielding to the event loop between days:
   * a long move never holds the mock for its whole length, its progress can be read meanwhile (`moving`), and a request
   * answered between two days sees the world at the day boundary reached, the clock there too. Every order and tick runs
   * in time order as in one move, so without other requests the world ends the same (settled by its readers, or the idle
   * work: prepareIdle). A move asked while another runs begins when that one ends (`target` then reads the clock as it
   * is). `onStep` hears each day done. Returns where the move began and the time reached (`to`, unless the engine was closed on the way).
   */
  async moveClock(target: (now: number) => number, onStep?: (progress: ClockMoveProgress) => void): Promise<{ from: number; to: number }> {
    let end = (): void => undefined;
    const clock = this.ctx.clock;
    const progress = await this.afterMove(() => {
      const from = clock.now();
      const begun = { from, to: target(from), at: from };
      this.move = { progress: begun, ended: new Promise<void>((resolve) => (end = resolve)) };
      return begun;
    });
    const { from, to } = progress;
    const world = this.ctx.world;
    let ahead: ArrivalsAhead | null = null;
    let longMoveEnded: (() => void) | void = undefined;
    try {
      // Inside: a hook that throws ends the move (its route answers 500) and lets the next one begin.
      longMoveEnded = this.noteLongMove(to - from);
      // The move's arrivals drawn on another thread (the ticks take them, or draw their own: arrivals.ts).
      world.index.arrivalsAhead = ahead = this.ctx.options.arrivalsAhead?.(world, from, to) ?? null;
      while (progress.at < to && !this.stopping) {
        progress.at = Math.min(to, progress.at + MOVE_STEP_MS);
        // A running clock has gone on a little since the last step: never set it back.
        clock.set(Math.max(progress.at, clock.now()));
        onStep?.(progress);
        if (progress.at < to) for (let i = 0; i < TURNS_BETWEEN_DAYS; i++) await aTurn();
      }
    } finally {
      try {
        if (world.index.arrivalsAhead === ahead) world.index.arrivalsAhead = null;
        // The host's hooks (the arrivals' lets the thread's job go, and may start drawing the next move's; the long move's
        // puts back what it changed): a throw from one ends this move with an error, as one from its start does, and
        // leaves the engine to take the next.
        try {
          ahead?.stop();
        } finally {
          longMoveEnded?.();
        }
      } finally {
        this.move = null;
        end();
        // Background saves waited for the move (markDirty): the keeper catches up now, and keeps where the move got to.
        this.keeper.moveEnded(from, progress.at);
        this.prepareIdle();
      }
    }
    return { from, to: progress.at };
  }

  /**
   * Calls `beforeLongMove` before a move of `ms` in which LONG_MOVE_ARRIVALS listings or more are due to arrive; returns
   * what it gave back, for the move's end.
   */
  private noteLongMove(ms: number): (() => void) | void {
    const hook = this.ctx.options.beforeLongMove;
    if (!hook || (ms / TICK_MS) * this.ctx.world.engine.arrivalsPerHour < LONG_MOVE_ARRIVALS) return;
    return hook();
  }

  /** Notes a background change no one was told of: the keeper keeps it soon; what it added is described between requests. */
  private markDirty(): void {
    this.keeper.background();
    this.prepareIdle();
  }

  /** Notes a change the caller is about to be told of (only the route helper calls it): the keeper's next `durable()` waits until it is kept, and `version` moves. */
  markPromised(): void {
    this.worldVersion++;
    this.keeper.promised();
  }

  /** Starts following real time (a running server): runs what falls due, not while a move steps the world; readers and the idle work settle it. Stop with `close`. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.move) return;
      try {
        this.syncTo(this.ctx.clock.now(), false);
      } catch (err) {
        console.error('mock: engine error', err);
      }
    }, TIMER_MS);
    unrefTimer(this.timer);
    this.prepareIdle();
  }

  /** Stops the timers and keeps every change not yet kept. */
  async close(): Promise<void> {
    this.stopping = true;
    await this.afterMove(() => (this.stopping = false));
    this.stopTimers();
    await this.keeper.close();
  }

  private stopTimers(): void {
    if (this.timer) clearInterval(this.timer);
    this.preparing?.cancel();
    this.timer = this.preparing = null;
  }

  /** Stops as a kill would: timers off, the state let go, nothing more written (the tests' crash). */
  abandon(): void {
    this.stopTimers();
    this.stopping = true;
    this.keeper.abandon();
  }
}
