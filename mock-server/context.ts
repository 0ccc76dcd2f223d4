/**
 * What every handler and engine of the mock shares, passed to them explicitly: the options it was
 * started with, the virtual clock, the world, the engine that keeps the world in step with the clock,
 * the world's durability (none, a single state file, or an operation log: durability/), the world's
 * operations (`perform`, registered here for the log's replay), the injected faults and the rate limits' throttle.
 */
import { VirtualClock } from './kit/clock.js';
import { DEFAULT_PROCESS_DELAY_MS, Engine } from './engine/engine.js';
import type { Durability } from './durability/durability.js';
import { keepWorld, operationLogOf } from './durability/keep.js';
import type { OperationLog } from './durability/operation-log.js';
import { Faults } from './http/faults.js';
import { RateLimiter, type RateLimitSetting } from './http/rate-limit.js';
import { seedWorld } from './seed/seed.js';
import { recipeFrom, type SeedHistory } from './world/recipe.js';
import { MockSetupError } from './kit/setup-error.js';
import type { Operation, OperationResult } from './operations/operation.js';
import { perform, replayOperation } from './operations/perform.js';
import type { SavedState } from './world/state-text.js';
import { SnapshotShelf, snapshotsDir } from './world/snapshot-shelf.js';
import type { ArrivalsAhead } from './world/derived.js';
import type { World } from './world/world.js';
import type { WebhookSettings } from '../src/contract/mock-webhooks.js';

/** How the mock was started. */
export interface MockOptions {
  seed: number;
  /** Active listings to seed (0: none, and none arrive). */
  listings: number;
  /** When new listings arrive (--releases): minutes after midnight America/New_York, or 'steady'; default noon and 6 pm (src/contract/releases.ts). */
  releases?: readonly number[] | 'steady';
  /** The seeded history of originated loans and notes ('none': only the investors and their funded accounts; default 'seeded'). */
  history?: SeedHistory;
  /** The named snapshot the world starts from instead of the seed or the state file (--from-snapshot; needs stateFile). */
  fromSnapshot?: string;
  /** Virtual start time (epoch ms). */
  start: number;
  /** Clock stands still unless moved. */
  frozen: boolean;
  /** Admin routes (/__mock/*) enabled. */
  admin: boolean;
  /** Virtual milliseconds between accepting an order and processing it (default 1500). */
  processDelayMs?: number;
  /** Folder (or an earlier mock's single file) that keeps the world across restarts (--state), if any. */
  stateFile?: string;
  /** --state-repair: a bad record in the middle of the log is cut there (a copy kept) instead of refusing to start. */
  stateRepair?: boolean;
  /** A --state log past this many bytes is followed by a new base snapshot (default 64 MiB; `MKT_MOCK_SNAPSHOT_BYTES`, for tests). */
  snapshotLogBytes?: number;
  /** Users whose grant is approved at once, without the consent page (--auto-approve). */
  autoApprove?: string[];
  /** Extra OAuth clients as ID:SECRET:REDIRECT (--client). */
  clients?: string[];
  /** Check every answer against the OpenAPI document and append mismatches to this file (answer-check.ts). */
  checkAnswers?: string;
  /** The token endpoint takes grant_type=password with a seeded user's id and password (--allow-password-grant; outside the spec). */
  allowPasswordGrant?: boolean;
  /** Requests the request log keeps (--request-log-size; default 1000, 0: none). */
  requestLogSize?: number;
  /** The path prefix every route is served under (`--base-path`, normalised by http/request-target.ts parseBasePath; '' or absent: none). */
  basePath?: string;
  /** A fresh investor with one funded account (`mkt invest simulate`). */
  investor?: { id: string; cash: number };
  /** Receivers of the outbox's events as signed webhooks (--webhook, --webhook-secret; the mock's extension). */
  webhooks?: WebhookSettings;
  /**
   * Called as each long clock move begins (Engine.moveClock: LONG_MOVE_ARRIVALS), and what it returns as that move ends:
   * `mkt mock serve` sets V8's flags for such moves then (src/os/v8-flags.ts: a wider inlining budget from the first on,
   * a larger heap growth step for each move's length), which pay only over them. The CLI's own: the `mkt/mock` library
   * passes none, so a library user's process keeps its flags.
   */
  beforeLongMove?: () => (() => void) | void;
  /**
   * Draws a clock move's arrivals ahead of its ticks on another thread (engine/arrivals-thread.ts), or gives null: asked
   * as each move begins, let go as it ends. `mkt mock serve`'s and `mkt/mock`'s in Node, for a long move; without it the ticks draw them.
   */
  arrivalsAhead?: (world: World, from: number, to: number) => ArrivalsAhead | null;
  /** The service's rate limits (--rate-limit; absent: off, as a test suite in-process wants; `mkt mock serve` turns them on). */
  rateLimit?: RateLimitSetting;
}

/**
 * Where the world served at start came from (the start lines say it): the seed, what a --state folder or an
 * earlier mock's single file kept (`operations` replayed after its base), or a named snapshot (--from-snapshot).
 */
export type StartedFrom =
  | { from: 'seed'; state: string | null }
  | { from: 'state'; state: string; operations: number }
  | { from: 'snapshot'; state: string; name: string; folder: string; savedNow: number };

/** The live mock: options, clock, the current world (replaced on reset), its engine and faults. */
export class MockContext {
  readonly clock: VirtualClock;
  world: World;
  readonly engine: Engine;
  /** How the world is kept across restarts: what the route helper waits for, and asks about rollbacks and refusals. */
  readonly durability: Durability;
  readonly faults: Faults;
  /** The throttle of the service's rate limits, over real time (a virtual clock's move is no second passing). */
  readonly rateLimit: RateLimiter;
  /** The named snapshots: beside the state (--state) or in memory. */
  readonly snapshots: SnapshotShelf;
  /** The snapshot --from-snapshot started from (set by startFromSnapshot). */
  private fromSnapshot: { name: string; savedNow: number } | null = null;
  /** Told of each world put in place of the running one (a reset, a snapshot loaded): what it holds already is not news. */
  private readonly replacedListeners: (() => void)[] = [];
  /** Told just before the outbox is emptied, so what it holds is read first (webhooks: messages a sync made inside the clearing request). */
  private readonly outboxListeners: (() => void)[] = [];

  /**
   * Seeds the world (or loads it from the state file, throwing a clear error when that is corrupt,
   * or from a named snapshot). `realNow` is the real-time source the virtual clock runs on.
   */
  constructor(
    readonly options: MockOptions,
    realNow: () => number = Date.now,
  ) {
    this.clock = new VirtualClock(options.start, options.frozen, realNow);
    this.engine = new Engine(this, options.processDelayMs ?? DEFAULT_PROCESS_DELAY_MS);
    this.snapshots = new SnapshotShelf(options.stateFile ? snapshotsDir(options.stateFile) : null, realNow);
    // Seeded only when nothing is kept: a --state world is loaded instead.
    this.world = undefined as unknown as World;
    // The operations are registered here, once: a --state log replays its records through them (at start, and in a rollback).
    this.durability = keepWorld(this, (record, secrets) => replayOperation(this, record, secrets));
    this.engine.open(this.durability, (t) => seedWorld(this.seedOptions(t)));
    // Seeded from the world actually running (a state file's may differ from --seed).
    this.faults = new Faults(this.world.seed);
    this.rateLimit = new RateLimiter(realNow, options.rateLimit);
  }

  private seedOptions(now: number) {
    return { ...recipeFrom(this.options), now };
  }

  /**
   * Runs operation `op` on the world now and keeps it (operations/perform.ts): the only way a request changes
   * what the operation log records and replays. Returns what it answers; throws its error, or the 503.
   */
  perform<O extends Operation>(op: O): OperationResult<O> {
    return perform(this, op);
  }

  /** The operation log of a --state folder, or null: the tests reach its disk through it (routes ask `durability`). */
  get operationLog(): OperationLog | null {
    return operationLogOf(this.durability);
  }

  /** Where the world served at start came from: the seed, the --state folder (or file), or a named snapshot. */
  get startedFrom(): StartedFrom {
    const state = this.options.stateFile ?? null;
    if (state !== null && this.fromSnapshot)
      return { from: 'snapshot', state, folder: snapshotsDir(state), name: this.fromSnapshot.name, savedNow: this.fromSnapshot.savedNow };
    const restored = this.durability.restored;
    if (state !== null && restored) return { from: 'state', state, operations: restored.operations };
    return { from: 'seed', state };
  }

  /** Calls `listener` after each reset or snapshot load, the new world in place. */
  onWorldReplaced(listener: () => void): void {
    this.replacedListeners.push(listener);
  }

  /** Calls `listener` just before the outbox is emptied (DELETE /__mock/outbox), with the messages still in it. */
  onOutboxClearing(listener: () => void): void {
    this.outboxListeners.push(listener);
  }

  /** Empties the outbox, telling the listeners first; returns how many messages it held. */
  clearOutbox(): number {
    for (const listener of this.outboxListeners) listener();
    const cleared = this.world.outbox.messages.length;
    this.world.outbox.messages = [];
    return cleared;
  }

  /** Rebuilds the world from the seed at the clock's current time. */
  reset(): void {
    const previous = this.world;
    const now = this.clock.now();
    this.world = seedWorld(this.seedOptions(now));
    try {
      // A --state folder begins a new log from this world, seeded at the time its base names (durability/operation-log.ts).
      this.engine.worldReplaced(previous, recipeFrom(this.options), now);
    } catch (err) {
      // Not on disk (the 503): the world stays the one the folder holds.
      this.world = previous;
      throw err;
    }
    for (const listener of this.replacedListeners) listener();
  }

  /**
   * Puts a saved world in place of this one at its saved time: the clock goes back (or forward) with it,
   * and a running clock runs on from there. With `keepClock`, the clock stays (never going back): a world
   * saved earlier is brought forward from its time to the clock as after a restart (orders due are
   * processed, the market's hours run); one saved later moves the clock forward to its time. Call it
   * under `engine.afterMove`, as reset is.
   */
  replaceWorld(saved: SavedState, keepClock = false): void {
    const previous = this.world;
    this.world = saved.world;
    // Set before the keeper writes the new base: a --state folder's base (and a restart from it) is at the clock's time.
    const undoClock = !keepClock || saved.now > this.clock.now() ? this.clock.putAt(saved.now) : null;
    if (!undoClock) this.engine.sync();
    try {
      // A --state folder begins a new log from it, its base written first (durability/operation-log.ts).
      this.engine.worldReplaced(previous);
    } catch (err) {
      // Not on disk (the 503): the world and the clock stay the ones the folder holds (brought up to the clock).
      this.world = previous;
      undoClock?.();
      this.engine.sync();
      throw err;
    }
    for (const listener of this.replacedListeners) listener();
  }

  /**
   * --from-snapshot (the app calls it once the --state folder's log is replayed): the named snapshot
   * replaces the world at start, at its saved time as a load puts it, and the state holds it before
   * anything is served.
   */
  startFromSnapshot(): void {
    const name = this.options.fromSnapshot;
    if (name === undefined) return;
    const stateFile = this.options.stateFile;
    if (!stateFile)
      throw new MockSetupError(
        `--from-snapshot needs --state: snapshots without --state live only in the memory of the mock that saved them`,
      );
    const saved = this.snapshots.readSync(name);
    if (!saved)
      throw new MockSetupError(`no snapshot '${name}' in ${snapshotsDir(stateFile)}; \`mkt mock snapshot list\` names the saved ones`);
    this.replaceWorld(saved);
    this.fromSnapshot = { name, savedNow: saved.now };
    // A --state folder has it as its new base already; an earlier mock's single file is written whole.
    this.durability.keepNow();
  }
}
