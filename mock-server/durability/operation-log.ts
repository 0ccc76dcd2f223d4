/**
 * The world of `mock serve --state DIR` as operations: a base (a seed recipe or a snapshot) and a log
 * of every operation that changed the world since, each with its virtual time (log-file.ts, log-appender.ts,
 * world/state-dir.ts). The engine is deterministic per seed and clock, so replaying the operations at
 * their times rebuilds the world the mock had. A record is on disk (group commit) before the answer;
 * a failed write rolls the world back to what the disk holds and answers 503 until the disk takes
 * writes again; when that rollback fails too (two faults at once), the world stays as it was and every
 * change is refused until a restart reads the folder again. When the log grows past a size or an age,
 * the world is written as a new base and a new log begun (the previous base stays in force until the
 * new one is whole).
 */
import type { HeldLock } from '../../src/os/exclusive-lock.js';
import { unlinkSync } from 'node:fs';
import type { ApiError } from '../kit/api-error.js';
import { rollbackFailed, writeFailed } from './log-errors.js';
import { Secrets } from '../kit/entropy.js';
import { MockSetupError } from '../kit/setup-error.js';
import { LogAppender, type LogIo } from './log-appender.js';
import { saveStateFile, serializeState, stateWriteError, writeStateFile } from '../world/persistence.js';
import {
  ensureStateDir,
  fsyncDir,
  inDir,
  listGenerations,
  LOCK_NAME,
  logName,
  removeSnapshotTemps,
  snapshotName,
  takeLock,
} from '../world/state-dir.js';
import type { World } from '../world/world.js';
import { loadFolder, type BaseRecord, type OpRecord } from './log-folder.js';
import type { SeedRecipe } from '../world/recipe.js';
import { settleWorld } from '../engine/settle.js';
import type { Durability, DurabilityHost } from './durability.js';

/** A log past this many bytes, or this old and past a 64th of it, is followed by a new base snapshot. */
export const SNAPSHOT_LOG_BYTES = 64 * 1024 * 1024;
export const SNAPSHOT_LOG_AGE_MS = 60 * 60 * 1000;
/** A world of at most this many listings is written as a base snapshot at a clean stop whatever its log. */
const CLOSE_SNAPSHOT_LISTINGS = 20_000;
/** How often, at most, the log records where background changes have taken the world. */
const TIME_MARK_MS = 1000;

/** The operation log of one state folder. */
export class OperationLog implements Durability {
  readonly owes = true;
  private appender: LogAppender | null = null;
  private gen = 0;
  /** The folder's (or file's) lock while this mock holds it. */
  private lock: HeldLock | null = null;
  private toReplay: OpRecord[] = [];
  /** Set by open when the folder held a log: the operations replayed after its base (the start lines say so). */
  restored: { operations: number } | null = null;
  private failure: ApiError | null = null;
  /** Set when a failed write could not be rolled back: the 503 of every change until a restart. */
  private stoppedBy: ApiError | null = null;
  /** Writes that failed so far, and the 503 of the last: a request during which one failed may have shown what was rolled back. */
  private failures = 0;
  private lastFailure: ApiError | null = null;
  /** The time mark waiting to be written (background). */
  private timeMark: NodeJS.Timeout | null = null;
  private logStarted = Date.now();
  private snapshotting = false;
  /** Logs replaced by a newer one whose last records may still be on their way to disk. */
  private retiring: Promise<void>[] = [];

  constructor(
    private readonly host: DurabilityHost,
    readonly dir: string,
    private readonly recipe: SeedRecipe,
    private readonly repair = false,
    private readonly snapshotBytes = SNAPSHOT_LOG_BYTES,
  ) {}

  /** Takes the folder (lock), loads its base and reads its log (replay() applies it), or begins a fresh one from `fresh`. */
  open(fresh: (t: number) => World): void {
    try {
      ensureStateDir(this.dir);
      this.lock = takeLock(inDir(this.dir, LOCK_NAME), this.dir);
    } catch (err) {
      throw err instanceof MockSetupError ? err : stateWriteError(this.dir, err);
    }
    try {
      removeSnapshotTemps(this.dir);
      const loaded = loadFolder(this.dir, this.repair);
      if (!loaded) {
        // Seeded at the time its base record names: a replay seeds at that time too (a running clock moves while seeding).
        const t = this.host.clock.now();
        this.host.world = fresh(t);
        this.startLog(1, { t, k: 'base', from: 'seed', recipe: this.recipe });
        return;
      }
      this.host.world = loaded.world;
      this.host.numbering.before = loaded.ordersBefore;
      if (loaded.now > this.host.clock.now()) this.host.clock.set(loaded.now);
      this.toReplay = loaded.records;
      this.restored = { operations: loaded.records.filter((r) => r.k !== 'time').length };
      this.gen = loaded.gen;
      this.appender = new LogAppender(inDir(this.dir, logName(loaded.gen)), loaded.end, (err) => this.failed(err));
    } catch (err) {
      this.lock?.release();
      throw err instanceof MockSetupError || !(err as { code?: unknown }).code ? err : stateWriteError(this.dir, err);
    }
  }

  /** Applies the records read at open, in order, at their times; the clock ends at the last one's, if later. */
  replay(): void {
    const records = this.toReplay;
    this.toReplay = [];
    this.applyAll(records);
  }

  private applyAll(records: readonly OpRecord[]): void {
    const { clock } = this.host;
    let last = -Infinity;
    for (const r of records) {
      clock.holding(r.t, () => {
        this.host.sync();
        if (r.k === 'time' || r.k === 'clock') return;
        // An operation that failed when it was made fails again here, changing what it changed then.
        if (!this.host.apply(r, Secrets.replaying(r.s))) {
          throw new MockSetupError(`mock state ${this.dir}: the log holds an operation this mock does not know (${r.k})`);
        }
      });
      last = Math.max(last, r.t);
    }
    if (last > clock.now()) clock.set(last);
  }

  /** Begins log `n` with its base record, on disk (and in the folder) before anything is written to it. */
  private startLog(n: number, base: BaseRecord): void {
    const appender = new LogAppender(inDir(this.dir, logName(n)), 0, (err) => this.failed(err));
    const { before } = this.host.numbering;
    try {
      appender.appendNow(Buffer.from(JSON.stringify(before > 0 ? { ...base, orders: before } : base)));
      fsyncDir(this.dir);
    } catch (err) {
      appender.close();
      throw err;
    }
    const old = this.appender;
    this.appender = appender;
    this.gen = n;
    this.logStarted = Date.now();
    const done = (old ? old.synced() : Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        old?.close();
        // A new base is in force: older generations are no longer read.
        if (base.from === 'seed' || !base.cont) this.dropBefore(n);
      });
    this.retiring.push(done);
  }

  private dropBefore(n: number): void {
    for (const g of listGenerations(this.dir)) {
      if (g.n >= n) continue;
      for (const name of [logName(g.n), snapshotName(g.n)]) {
        try {
          unlinkSync(inDir(this.dir, name));
        } catch {
          /* not there */
        }
      }
    }
  }

  /** The path of the log records are appended to now, or null when none is open (the tests' held disk writes there). */
  appenderPath(): string | null {
    return this.appender?.path ?? null;
  }

  /** Puts `io` in place of the disk for the current log (the tests' full disk). */
  useIo(io: LogIo): void {
    if (this.appender) this.appender.io = io;
  }

  /** The 503 every change gets since a failed write could not be rolled back (until a restart), or null. */
  get refusal(): ApiError | null {
    return this.stoppedBy;
  }

  /** The failed writes so far. */
  mark(): number {
    return this.failures;
  }

  /** The 503 of the last failed write (the world rolled back to the disk) when any failed since `mark`, else null. */
  rolledBackSince(mark: number): ApiError | null {
    return this.failures !== mark ? this.lastFailure : null;
  }

  /** Throws the 503 while the disk refuses writes (probing it first: a change is made only when its record can follow), or since a rollback failed. */
  checkWritable(): void {
    if (this.stoppedBy) throw this.stoppedBy;
    if (!this.failure) return;
    try {
      this.appender!.appendNow(Buffer.from(JSON.stringify({ t: this.host.clock.now(), k: 'time' })));
      this.failure = null;
    } catch {
      throw this.failure;
    }
  }

  /** Records operation `record` (group commit); `durable()` settles when it is on disk. */
  record(record: OpRecord): void {
    this.append(record);
  }

  /** Nothing to do: every operation is on disk before its answer (the route helper waits for `durable()`). */
  promised(): void {}

  /** Nothing to do: the new base is in the folder (worldReplaced) before anything is served. */
  keepNow(): void {}

  /** Where the running clock has taken the world, recorded now and then (a restart resumes there, not at the last operation); not during a move. */
  background(): void {
    if (this.timeMark || this.host.moving()) return;
    this.timeMark = setTimeout(() => {
      this.timeMark = null;
      this.append({ t: this.host.clock.now(), k: 'time' });
    }, TIME_MARK_MS);
    this.timeMark.unref();
  }

  /** Where a stepped clock move from `from` got to (`at`; the operations made between its days hold their own times). */
  moveEnded(from: number, at: number): void {
    if (at > from) this.append({ t: at, k: 'clock' });
  }

  /** Queues `record` (group commit); `durable()` settles when it is on disk. */
  private append(record: OpRecord): void {
    const a = this.appender;
    // While the disk refuses writes only an operation that passed checkWritable's probe is recorded
    // (a time mark or a move's end is not, and never races the probe's own write).
    if (!a || this.failure) return;
    void a.append(Buffer.from(JSON.stringify(record)));
    // By age only once the log holds something worth folding in: time marks alone never make a large world write itself whole.
    const old = Date.now() - this.logStarted > SNAPSHOT_LOG_AGE_MS && a.size > this.snapshotBytes / 64;
    if (!this.snapshotting && (a.size > this.snapshotBytes || old)) {
      this.snapshotting = true;
      void this.snapshotNow().finally(() => (this.snapshotting = false));
    }
  }

  /** Settles when every record queued so far is on disk; rejects with the 503 when the write failed (the world then rolled back). */
  async durable(): Promise<void> {
    // Taken now: a write that fails while the older logs are awaited must still reach this caller.
    const current = this.appender?.synced();
    if (this.retiring.length > 0) {
      const r = this.retiring;
      await Promise.all(r);
      this.retiring = this.retiring.filter((p) => !r.includes(p));
    }
    await current;
  }

  /**
   * A failed write: the world as the disk holds it, and the 503 every change not on disk answers. When
   * the disk cannot be read back either, the world stays the one before (each operation whole, never
   * half replayed) and the mock stops taking changes (`stopped`) until it is restarted.
   */
  private failed(err: unknown): ApiError {
    const path = this.appender?.path ?? this.dir;
    this.failures++;
    if (this.stoppedBy) return this.stoppedBy;
    const told = writeFailed(path, err);
    this.failure = told;
    this.lastFailure = told;
    const live = this.host.world;
    const numbered = this.host.numbering.before;
    try {
      const loaded = loadFolder(this.dir, false);
      if (!loaded) throw new Error(`the folder ${this.dir} holds no operation log`);
      this.host.world = loaded.world;
      this.host.numbering.before = loaded.ordersBefore;
      this.applyAll(loaded.records);
      this.host.replaced();
      return told;
    } catch (rollback) {
      this.host.world = live;
      this.host.numbering.before = numbered;
      this.host.replaced();
      const stopped = rollbackFailed(path, err, rollback);
      this.stoppedBy = stopped;
      this.failure = stopped;
      this.lastFailure = stopped;
      console.error(`mock: ${stopped.body.message}`);
      return stopped;
    }
  }

  /**
   * The world was replaced (a reset: `recipe`; a loaded snapshot: none): a new log begins from it, its
   * base on disk before this returns, so no record names a world that may be gone later.
   */
  worldReplaced(recipe?: SeedRecipe, t = this.host.clock.now()): void {
    if (this.stoppedBy) throw this.stoppedBy;
    const n = this.gen + 1;
    try {
      if (recipe) return this.startLog(n, { t, k: 'base', from: 'seed', recipe });
      // The listings' own steps the timeline has not yet written go into the text (timeline.ts).
      settleWorld(this.host.world);
      saveStateFile(inDir(this.dir, snapshotName(n)), this.host.world, t);
      this.startLog(n, { t, k: 'base', from: 'snapshot', cont: false });
    } catch (err) {
      // The log before stays in force (startLog changes nothing until its base is on disk): the caller puts its world back.
      throw writeFailed(inDir(this.dir, logName(n)), err);
    }
  }

  /**
   * Writes the world as the base of a new log: the text is taken at once (every record queued so far
   * in it), the new log begun (its records written only after the old log's last ones), the snapshot
   * written off the event loop; until it is whole (renamed into place), the log before stays the
   * base. Older generations are deleted after.
   */
  private async snapshotNow(): Promise<void> {
    if (this.failure || !this.appender) return;
    const n = this.gen + 1;
    const t = this.host.clock.now();
    try {
      settleWorld(this.host.world);
      const text = serializeState(this.host.world, t);
      const old = this.appender;
      // A new log that cannot be begun (a full disk, no file handles) leaves the current one in force: nothing to undo.
      this.startLog(n, { t, k: 'base', from: 'snapshot', cont: true });
      this.appender.waitFor(old.synced());
      // The text holds the old log's last records: written only once they are on disk. When they fail (their changes
      // refused and rolled back), no base is written and the new log goes on from the old (`cont`); a base written
      // first would have brought the refused changes back at the next start.
      await old.synced();
      await writeStateFile(inDir(this.dir, snapshotName(n)), text);
      this.dropBefore(n);
    } catch (err) {
      // After abandon (the tests' crash) the next mock may already have swept its temporary file.
      if (this.appender) console.error('mock: cannot write a base snapshot; the log before it stays in force', err);
    }
  }

  /** A clean stop: every record on disk, then the world written as the base of a fresh log (a quick start next time), and the lock let go. */
  async close(): Promise<void> {
    this.stopTimeMark();
    try {
      await this.durable().catch(() => undefined);
      // A base snapshot when it starts the next run sooner than replaying the log would: a small world
      // (reading it back is quick), or a long log. A large world with a short log starts faster from its
      // seed and the log (100,000 listings: a 250 MB snapshot takes seconds to read, a day of operations less).
      const a = this.appender;
      if (!this.failure && a && (this.host.world.listings.length <= CLOSE_SNAPSHOT_LISTINGS || a.size > this.snapshotBytes / 4)) {
        this.worldReplaced();
        await this.durable();
      }
    } finally {
      this.appender?.close();
      this.appender = null;
      this.lock?.release();
    }
  }

  /** Lets go of the folder without writing anything (what a kill leaves; the tests' crash). */
  abandon(): void {
    this.stopTimeMark();
    this.appender?.close();
    this.appender = null;
    this.lock?.abandon();
  }

  private stopTimeMark(): void {
    if (this.timeMark) clearTimeout(this.timeMark);
    this.timeMark = null;
  }
}
