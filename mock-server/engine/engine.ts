/**
 * The engine of a running mock (its MockContext holds it): keeps the world in step with the virtual clock (orders
 * processed at their time, hourly market ticks in between), runs on a timer while a server listens, runs each operation
 * that changes the world (`perform`), and keeps the world with --state: a folder's operation log (op-journal.ts), or an
 * earlier mock's single state file (single-file-state.ts); a change someone is told of is kept before the answer goes out.
 */
import type { VirtualClock } from '../kit/clock.js';
import { Secrets } from '../kit/entropy.js';
import { isStateFile } from '../world/state-dir.js';
import type { Account, Order, Store } from '../world/store.js';
import { OperationLog, type OpApplier, type OpRecord, type SeedRecipe } from '../durability/operation-log.js';
import { SingleFileState } from '../durability/single-file-state.js';
import { runTick, TICK_MS } from './market.js';
import { prepareTimeline } from './timeline.js';
import { settleSome, settleWorld } from './settle.js';
import { describeAwaiting } from '../world/listing-table.js';
import { carryNumbering, processOrder, submitOrder, type OrderNumbering } from './orders.js';

/** Default delay between accepting an order and processing it (virtual time). */
export const DEFAULT_PROCESS_DELAY_MS = 1500;
/** A catch-up longer than this (a state file reloaded after years) skips the market ahead instead. */
const MAX_CATCH_UP_TICKS = 24 * 800;
/** How often the running server looks at the clock. */
const TIMER_MS = 200;
/** How often, at most, the log records where background changes have taken the world. */
const TIME_MARK_MS = 1000;
/** Listings a slice of the idle work gives a place in the timeline, rows it settles, and arrived listings it describes (prepareIdle): ~10 ms each. */
const [PREPARE_ROWS, SETTLE_ROWS, DESCRIBE_ROWS] = [8192, 16384, 2048];
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

/** What an engine keeps in step (the mock's context): the world, replaced when a state file is loaded; its clock; the state file or folder. */
export interface EngineHost {
  store: Store;
  readonly clock: VirtualClock;
  readonly options: { readonly stateFile?: string; readonly stateRepair?: boolean; readonly snapshotLogBytes?: number; readonly start?: number } & SeedRecipe;
}

/** The engine of a mock. */
export class Engine {
  private timer: NodeJS.Timeout | null = null;
  private syncing = false;
  private worldVersion = 0;
  /** The stepped clock move under way, and when it ends. */
  private move: { progress: ClockMoveProgress; ended: Promise<void> } | null = null;
  /** Set by close: a move under way stops at its next day boundary. */
  private stopping = false;
  /** The operation log of a --state folder (op-journal.ts); null without one, or with an earlier mock's single state file (singleFile). */
  private journal: OperationLog | null = null;
  /** An earlier mock's single state file, saved whole on every change (single-file-state.ts). */
  private singleFile: SingleFileState | null = null;
  /** The operations the log records, by kind (defineOp). */
  private readonly ops = new Map<string, OpApplier>();
  private timeMark: NodeJS.Timeout | null = null;
  /** The next slice of the idle timeline build (prepareIdle), or null. */
  private preparing: NodeJS.Immediate | null = null;
  /** Where order numbers stand across the worlds this mock has had (orders.ts). */
  private readonly numbering: OrderNumbering = { before: 0 };
  /** What follows each move of the clock (set by open). */
  private follow: (from: number, to: number) => void = () => undefined;

  /** The operation log of a --state folder, if any (the tests reach its disk through it). */
  get opLog(): OperationLog | null {
    return this.journal;
  }

  /** Bumped by every change to the world (a writing route's or the market's): part of the key of kept list orders (kept-orders.ts). */
  get version(): number {
    return this.worldVersion;
  }

  /** The hourly market step: the timeline's (market.ts); the tests put the plain hourly walk in its place to compare the two. */
  tick: (store: Store, t: number) => void = runTick;

  constructor(private readonly ctx: EngineHost, readonly processDelayMs: number) {}

  /**
   * Takes up the world (`fresh` seeds it when nothing is kept): a --state folder's base and log (replayed by `replayLog`,
   * once the operations are defined), or a single-file --state of an earlier mock (loaded, then saved whole on every
   * change as before; throwing a clear error when it is corrupt); follows every move of the clock.
   */
  open(fresh: (t: number) => Store): void {
    // Inside a stepped move the world is settled when someone reads it (a request syncs), and after it between requests.
    this.follow = (_from: number, to: number) => this.syncTo(to, !this.move);
    const stateFile = this.ctx.options.stateFile;
    if (stateFile && !isStateFile(stateFile)) {
      const { seed, listings, investor, history } = this.ctx.options;
      const host = this.ctx;
      this.journal = new OperationLog({
        get store() { return host.store; },
        set store(s: Store) { host.store = s; },
        clock: this.ctx.clock,
        sync: () => this.sync(),
        appliers: this.ops,
        replaced: () => this.worldVersion++,
        numbering: this.numbering,
      }, stateFile, { seed, listings, ...(history ? { history } : {}), ...(investor ? { investor } : {}) }, this.ctx.options.stateRepair, this.ctx.options.snapshotLogBytes);
      this.journal.open(fresh);
      this.ctx.clock.onMove(this.follow);
      return;
    }
    if (!stateFile) {
      this.ctx.store = fresh(this.ctx.options.start ?? this.ctx.clock.now());
      this.ctx.clock.onMove(this.follow);
      return;
    }
    // An earlier mock's single file: kept working as it did.
    this.singleFile = new SingleFileState({
      get store() { return host.store; },
      set store(s: Store) { host.store = s; },
      clock: this.ctx.clock,
      moving: () => this.move !== null,
    }, stateFile);
    const host = this.ctx;
    this.singleFile.open();
    this.ctx.clock.onMove(this.follow);
  }

  /** Replays the operations the log holds after its base (at start, once every defineOp is made). */
  replayLog(): void {
    this.journal?.replay();
  }

  /** Defines operation `kind`: how the log replays it, and what `perform` runs live (the same code both times). */
  defineOp(kind: string, apply: OpApplier): void {
    this.ops.set(kind, apply);
  }

  /**
   * Runs operation `kind` on `input` now, the clock held at one instant and the world synced to it
   * first, and records it in the log (when there is one), failed or not: a failure may have changed
   * the world too (an ORD rejection sends an email). Throws the operation's error, or the 503 while
   * the log cannot be written (nothing is changed then).
   */
  perform<T>(kind: string, input: Record<string, unknown>): T {
    const apply = this.ops.get(kind);
    if (!apply) throw new Error(`no operation ${kind}`);
    this.journal?.checkWritable();
    const t = this.ctx.clock.now();
    const record: OpRecord = { t, k: kind, ...input };
    const secrets = Secrets.live();
    const run = this.ctx.clock.holding(t, (): { value: unknown } | { error: unknown } => {
      this.sync();
      try {
        return { value: apply(record, secrets) };
      } catch (error) {
        return { error };
      }
    });
    this.worldVersion++;
    if (secrets.drawn.length > 0) record.s = secrets.drawn;
    this.journal?.append(record);
    if ('error' in run) throw run.error;
    return run.value as T;
  }

  /**
   * The world `previous` was replaced (a reset, with the recipe it was seeded from; a snapshot loaded,
   * with none): its orders are numbered after every one drawn before, and with a --state folder a new
   * log begins from it (a new base on disk before this returns; when it cannot be, nothing changes).
   */
  worldReplaced(previous: Store, recipe?: SeedRecipe, t?: number): void {
    this.worldVersion++;
    const numbered = this.numbering.before;
    carryNumbering(this.numbering, previous, this.ctx.store);
    try {
      this.journal?.worldReplaced(recipe, t);
    } catch (err) {
      this.numbering.before = numbered;
      throw err;
    }
    this.prepareIdle();
  }

  /**
   * While a server listens, builds the timeline the next tick begins with, brings the listings' columns up to it (settle.ts)
   * and describes the listings a move added (arrivals.ts), a slice per turn of the event loop (requests are answered between
   * slices, each waiting ~10 ms at most; one that reads settles the rest), so that a clock move and its answer wait for none of
   * it: after the start, a reset, a load or a move. A move under way stops it (a tick builds the timeline; its end starts it again).
   */
  private prepareIdle(): void {
    if (this.preparing || !this.timer) return;
    const slice = (): void => {
      this.preparing = null;
      if (!this.timer || this.move) return;
      const store = this.ctx.store;
      const done = prepareTimeline(store, store.engine.lastTick / TICK_MS + 1, PREPARE_ROWS) && settleSome(store, SETTLE_ROWS)
        && describeAwaiting(store.listingTable, DESCRIBE_ROWS);
      if (!done) this.preparing = setImmediate(slice);
    };
    this.preparing = setImmediate(slice);
  }

  /** Brings the world up to the clock's current time, every listing's columns included (what a reader sees). */
  sync(): void {
    this.syncTo(this.ctx.clock.now(), true);
  }

  /** Applies the listings' own steps the timeline has not yet written to their columns (timeline.ts): before anyone reads the world. */
  settle(): void {
    settleWorld(this.ctx.store);
  }

  /** Runs every order due and every market tick up to `now`, in time order; `settle`: then brings every listing's columns up too. */
  private syncTo(now: number, settle: boolean): void {
    if (this.syncing) return;
    this.syncing = true;
    try {
      const store = this.ctx.store;
      const e = store.engine;
      if (now - e.lastTick > MAX_CATCH_UP_TICKS * TICK_MS) e.lastTick = Math.floor(now / TICK_MS) * TICK_MS - MAX_CATCH_UP_TICKS * TICK_MS;
      let steps = 0;
      for (;;) {
        const next = e.queue.length > 0 ? store.orders.get(e.queue[0]!) : undefined;
        if (e.queue.length > 0 && (!next || next.processed)) {
          e.queue.shift();
          continue;
        }
        const tick = e.lastTick + TICK_MS;
        if (next && next.processAt <= now && next.processAt <= tick) {
          processOrder(store, next, next.processAt);
        } else if (tick <= now) {
          this.tick(store, tick);
          e.lastTick = tick;
        } else break;
        steps++;
      }
      if (settle) this.settle();
      // Background work no one is told of yet; a request's own changes are marked by its route (routes/route.ts).
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
    try {
      while (progress.at < to && !this.stopping) {
        progress.at = Math.min(to, progress.at + MOVE_STEP_MS);
        // A running clock has gone on a little since the last step: never set it back.
        clock.set(Math.max(progress.at, clock.now()));
        onStep?.(progress);
        if (progress.at < to) for (let i = 0; i < TURNS_BETWEEN_DAYS; i++) await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      this.move = null;
      end();
      // Background saves waited for the move (markDirty): the state file catches up now.
      this.singleFile?.moveEnded();
      this.prepareIdle();
      // The log keeps where the move got to (the operations made between its days hold their own times).
      if (progress.at > from) this.journal?.append({ t: progress.at, k: 'clock' });
    }
    return { from, to: progress.at };
  }

  /** Validates and accepts the order in body `text` for `account` (orders.ts submitOrder: the first ORD error thrown, the investor emailed); the world is synced first. */
  submit(account: Account, text: string, delayMs = this.processDelayMs): Order {
    this.sync();
    const now = this.ctx.clock.now();
    return submitOrder(this.ctx.store, account, text, now, now + delayMs, this.numbering);
  }

  /** Processes every queued order now, whatever its time (POST /__mock/process). */
  processAll(): number {
    this.sync();
    const store = this.ctx.store;
    const now = this.ctx.clock.now();
    const ids = [...store.engine.queue];
    for (const id of ids) {
      const order = store.orders.get(id);
      if (order) processOrder(store, order, now);
    }
    store.engine.queue = [];
    return ids.length;
  }

  /** Notes a background change no one was told of: the state file is written shortly, or the log marks the time; what it added is described between requests. */
  private markDirty(): void {
    if (this.journal) this.markTime();
    else this.singleFile?.markDirty();
    this.prepareIdle();
  }

  /** With a log: where the running clock has taken the world, recorded now and then (a restart resumes there, not at the last operation). */
  private markTime(): void {
    if (this.timeMark || this.move) return;
    this.timeMark = setTimeout(() => {
      this.timeMark = null;
      this.journal?.append({ t: this.ctx.clock.now(), k: 'time' });
    }, TIME_MARK_MS);
    this.timeMark.unref();
  }

  /** Notes a change the caller is about to be told of (only the route helper calls it): the next `durable()` waits until it is kept, and `version` moves. */
  markPromised(): void {
    this.worldVersion++;
    this.singleFile?.markPromised();
  }

  /**
   * Resolves once every change made or promised so far is kept (in the log, or the single state file; at once without --state). Every
   * answer waits for it, so none acknowledges or shows a change that a crash could still take back; rejects with the 503 when the log could not be written.
   */
  durable(): Promise<void> {
    if (this.journal) return this.journal.synced();
    return this.singleFile?.durable() ?? Promise.resolve();
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
    this.timer.unref();
    this.prepareIdle();
  }

  /** Stops the timers and keeps every change not yet kept. */
  async close(): Promise<void> {
    this.stopping = true;
    await this.afterMove(() => (this.stopping = false));
    this.stopTimers();
    if (this.journal) await this.journal.close();
    else await this.singleFile?.close();
  }

  private stopTimers(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.timeMark) clearTimeout(this.timeMark);
    if (this.preparing) clearImmediate(this.preparing);
    this.timer = this.timeMark = this.preparing = null;
  }

  /** Stops as a kill would: timers off, the state let go, nothing more written (the tests' crash). */
  abandon(): void {
    this.stopTimers();
    this.stopping = true;
    this.journal?.abandon();
    this.singleFile?.abandon();
  }

  /** Whether `durable()` can have anything to wait for (a --state log or file): without one a caller skips its promise. */
  get owesDurability(): boolean {
    return this.journal !== null || this.singleFile !== null;
  }
}
