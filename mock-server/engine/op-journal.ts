/**
 * The world of `mock serve --state DIR` as operations: a base (a seed recipe or a snapshot) and a log
 * of every operation that changed the world since, each with its virtual time (world/op-log.ts,
 * world/state-dir.ts). The engine is deterministic per seed and clock, so replaying the operations at
 * their times rebuilds the world the mock had. A record is on disk (group commit) before the answer;
 * a failed write rolls the world back to what the disk holds and answers 503 until the disk takes
 * writes again. When the log grows past a size or an age, the world is written as a new base and a
 * new log begun (the previous base stays in force until the new one is whole).
 */
import { copyFileSync, existsSync, readFileSync, truncateSync, unlinkSync } from 'node:fs';
import { ApiError } from '../kit/api-error.js';
import type { VirtualClock } from '../kit/clock.js';
import { withSecrets } from '../kit/entropy.js';
import { MockSetupError } from '../kit/setup-error.js';
import { LogAppender, LogCorruptError, readLog, type LogIo, type LogRead } from '../world/op-log.js';
import { parseState, saveStateFile, serializeState, StateFileError, stateWriteError, writeStateFile } from '../world/persistence.js';
import { ensureStateDir, fsyncDir, inDir, listGenerations, LOCK_NAME, logName, removeSnapshotTemps, snapshotName, takeLock } from '../world/state-dir.js';
import type { Store } from '../world/store.js';
import { seedStore, type SeedHistory } from './seed.js';
import { settleWorld } from './settle.js';

/** One record: its virtual time, its kind, the operation's input, and the secrets it drew (kit/entropy.ts). */
export interface OpRecord {
  t: number;
  k: string;
  s?: string[];
  [field: string]: unknown;
}

/** What a seeded world is made from (a fresh folder's base, a reset's). */
export interface SeedRecipe {
  seed: number;
  listings: number;
  /** 'none': no seeded history (`mock serve --history none`); absent: the seeded history. */
  history?: SeedHistory;
  investor?: { id: string; cash: number };
}

/** The first record of every log: where its world begins (a snapshot beside it may be missing only when `cont`: then the log before it is the base). */
type BaseRecord = OpRecord & ({ k: 'base'; from: 'seed'; recipe: SeedRecipe } | { k: 'base'; from: 'snapshot'; cont: boolean });

/** Applies a recorded operation to the world, live or replayed (Engine.defineOp registers them). */
export type OpApplier = (record: OpRecord) => unknown;

/** What the journal keeps durable: the mock's world and clock, and how to bring the world up to the clock. */
export interface JournalHost {
  store: Store;
  readonly clock: VirtualClock;
  readonly sync: () => void;
  readonly appliers: ReadonlyMap<string, OpApplier>;
  /** The world was replaced under the engine (a rollback): caches keyed by its version must go. */
  readonly replaced: () => void;
}

/** A log past this many bytes, or this old and past a 64th of it, is followed by a new base snapshot. */
export const SNAPSHOT_LOG_BYTES = 64 * 1024 * 1024;
export const SNAPSHOT_LOG_AGE_MS = 60 * 60 * 1000;
/** A world of at most this many listings is written as a base snapshot at a clean stop whatever its log. */
const CLOSE_SNAPSHOT_LISTINGS = 20_000;

/** The 503 a change gets when its record cannot be written. */
function writeFailed(path: string, err: unknown): ApiError {
  const code = (err as { code?: string } | null)?.code ?? 'EIO';
  return new ApiError(503, {
    code: 'STATE_WRITE_FAILED',
    message: `the mock cannot write its operation log ${path} (${code}: ${(err as Error)?.message ?? err}); the change was not made, `
      + 'reads still work; free space or fix the folder and send it again',
  }, { 'retry-after': '5' });
}

/** The world as a folder holds it: base, records to replay, the newest log and where its whole records end. */
interface Loaded {
  store: Store;
  now: number;
  records: OpRecord[];
  gen: number;
  end: number;
}

/** The operation log of one state folder. */
export class OpJournal {
  private appender: LogAppender | null = null;
  private gen = 0;
  private releaseLock: () => void = () => undefined;
  private toReplay: OpRecord[] = [];
  private failure: ApiError | null = null;
  /** Writes that failed so far, and the 503 of the last: a request during which one failed may have shown what was rolled back. */
  failures = 0;
  lastFailure: ApiError | null = null;
  private logStarted = Date.now();
  private snapshotting = false;
  /** Logs replaced by a newer one whose last records may still be on their way to disk. */
  private retiring: Promise<void>[] = [];

  constructor(
    private readonly host: JournalHost,
    readonly dir: string,
    private readonly recipe: SeedRecipe,
    private readonly repair = false,
    private readonly snapshotBytes = SNAPSHOT_LOG_BYTES,
  ) {}

  /** Takes the folder (lock), loads its base and reads its log (replay() applies it), or begins a fresh one from `fresh`. */
  open(fresh: (t: number) => Store): void {
    try {
      ensureStateDir(this.dir);
      this.releaseLock = takeLock(inDir(this.dir, LOCK_NAME), this.dir);
    } catch (err) {
      throw err instanceof MockSetupError ? err : stateWriteError(this.dir, err);
    }
    try {
      removeSnapshotTemps(this.dir);
      const loaded = this.load();
      if (!loaded) {
        // Seeded at the time its base record names: a replay seeds at that time too (a running clock moves while seeding).
        const t = this.host.clock.now();
        this.host.store = fresh(t);
        this.startLog(1, { t, k: 'base', from: 'seed', recipe: this.recipe });
        return;
      }
      this.host.store = loaded.store;
      if (loaded.now > this.host.clock.now()) this.host.clock.set(loaded.now);
      this.toReplay = loaded.records;
      this.gen = loaded.gen;
      this.appender = new LogAppender(inDir(this.dir, logName(loaded.gen)), loaded.end, (err) => this.failed(err));
    } catch (err) {
      this.releaseLock();
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
        const apply = this.host.appliers.get(r.k);
        if (!apply) throw new MockSetupError(`mock state ${this.dir}: the log holds an operation this mock does not know (${r.k})`);
        // An operation that failed when it was made fails again here, changing what it changed then.
        withSecrets(r.s, () => apply(r));
      });
      last = Math.max(last, r.t);
    }
    if (last > clock.now()) clock.set(last);
  }

  /** Reads the folder: the newest usable base and every record after it; null when it holds no log. */
  private load(): Loaded | null {
    const logs = listGenerations(this.dir).filter((g) => g.log).map((g) => g.n);
    const chain: { n: number; read: LogRead; records: OpRecord[] }[] = [];
    for (let i = logs.length - 1; i >= 0; i--) {
      const n = logs[i]!;
      const read = this.readLogFile(n);
      const records = read.payloads.map((p) => JSON.parse(p.toString('utf8')) as OpRecord);
      if (records.length === 0) {
        // Made and killed before its base record: it never held anything (a newer log would have a base).
        if (chain.length === 0) unlinkSync(inDir(this.dir, logName(n)));
        continue;
      }
      chain.unshift({ n, read, records });
      const base = records[0] as BaseRecord;
      if (base.k !== 'base') throw new StateFileError(inDir(this.dir, logName(n)), 'does not begin with its base record');
      const world = this.baseWorld(n, base);
      if (world) {
        const newest = chain[chain.length - 1]!;
        return { ...world, records: chain.flatMap((c) => c.records.slice(1)), gen: newest.n, end: newest.read.end };
      }
    }
    if (chain.length === 0) return null;
    throw new StateFileError(this.dir, 'holds logs whose base snapshot is missing');
  }

  /** The world a base record names, or null for a snapshot not (yet) written after a log that goes on from the one before. */
  private baseWorld(n: number, base: BaseRecord): { store: Store; now: number } | null {
    if (base.from === 'seed') return { store: seedStore({ ...base.recipe, now: base.t }), now: base.t };
    const path = inDir(this.dir, snapshotName(n));
    if (existsSync(path)) return parseState(readFileSync(path, 'utf8'), path);
    if (base.cont) return null;
    throw new StateFileError(path, 'is missing, and the log beside it starts from it');
  }

  /** A log's records; a bad one before the end refuses (or, with --state-repair, cuts the log there, keeping a copy). */
  private readLogFile(n: number): LogRead {
    const path = inDir(this.dir, logName(n));
    try {
      return readLog(path);
    } catch (err) {
      if (!(err instanceof LogCorruptError) || !this.repair) throw err;
      const copy = `${path}.damaged-${Date.now()}`;
      copyFileSync(path, copy);
      truncateSync(path, err.offset);
      console.error(`mock: --state-repair cut ${path} at byte ${err.offset} (a bad record); the whole log is kept as ${copy}`);
      return readLog(path);
    }
  }

  /** Begins log `n` with its base record, on disk (and in the folder) before anything is written to it. */
  private startLog(n: number, base: BaseRecord): void {
    const appender = new LogAppender(inDir(this.dir, logName(n)), 0, (err) => this.failed(err));
    try {
      appender.appendNow(Buffer.from(JSON.stringify(base)));
      fsyncDir(this.dir);
    } catch (err) {
      appender.close();
      throw err;
    }
    const old = this.appender;
    this.appender = appender;
    this.gen = n;
    this.logStarted = Date.now();
    const before = n;
    const done = (old ? old.synced() : Promise.resolve()).catch(() => undefined).then(() => {
      old?.close();
      // A new base is in force: older generations are no longer read.
      if (base.from === 'seed' || !base.cont) this.dropBefore(before);
    });
    this.retiring.push(done);
  }

  private dropBefore(n: number): void {
    for (const g of listGenerations(this.dir)) {
      if (g.n >= n) continue;
      for (const name of [logName(g.n), snapshotName(g.n)]) {
        try { unlinkSync(inDir(this.dir, name)); } catch { /* not there */ }
      }
    }
  }

  /** Puts `io` in place of the disk for the current log (the tests' full disk). */
  useIo(io: LogIo): void {
    if (this.appender) this.appender.io = io;
  }

  /** Throws the 503 while the disk refuses writes (probing it first: a change is made only when its record can follow). */
  checkWritable(): void {
    if (!this.failure) return;
    try {
      this.appender!.appendNow(Buffer.from(JSON.stringify({ t: this.host.clock.now(), k: 'time' })));
      this.failure = null;
    } catch {
      throw this.failure;
    }
  }

  /** Queues `record` (group commit); `synced()` settles when it is on disk. */
  append(record: OpRecord): void {
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
  async synced(): Promise<void> {
    // Taken now: a write that fails while the older logs are awaited must still reach this caller.
    const current = this.appender?.synced();
    if (this.retiring.length > 0) {
      const r = this.retiring;
      await Promise.all(r);
      this.retiring = this.retiring.filter((p) => !r.includes(p));
    }
    await current;
  }

  /** A failed write: the world as the disk holds it, and the 503 every change not on disk answers. */
  private failed(err: unknown): ApiError {
    const told = writeFailed(this.appender?.path ?? this.dir, err);
    this.failure = told;
    this.failures++;
    this.lastFailure = told;
    try {
      const loaded = this.load();
      if (loaded) {
        this.host.store = loaded.store;
        this.applyAll(loaded.records);
        this.host.replaced();
      }
    } catch (rebuild) {
      console.error('mock: cannot roll the world back to its operation log', rebuild);
    }
    return told;
  }

  /**
   * The world was replaced (a reset: `recipe`; a loaded snapshot: none): a new log begins from it, its
   * base on disk before this returns, so no record names a world that may be gone later.
   */
  worldReplaced(recipe?: SeedRecipe, t = this.host.clock.now()): void {
    const n = this.gen + 1;
    try {
      if (recipe) return this.startLog(n, { t, k: 'base', from: 'seed', recipe });
      // The listings' own steps the timeline has not yet written go into the text (timeline.ts).
      settleWorld(this.host.store);
      saveStateFile(inDir(this.dir, snapshotName(n)), this.host.store, t);
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
      settleWorld(this.host.store);
      const text = serializeState(this.host.store, t);
      const old = this.appender;
      // A new log that cannot be begun (a full disk, no file handles) leaves the current one in force: nothing to undo.
      this.startLog(n, { t, k: 'base', from: 'snapshot', cont: true });
      this.appender.after = old.synced();
      await writeStateFile(inDir(this.dir, snapshotName(n)), text);
      await old.synced();
      this.dropBefore(n);
    } catch (err) {
      // After abandon (the tests' crash) the next mock may already have swept its temporary file.
      if (this.appender) console.error('mock: cannot write a base snapshot; the log before it stays in force', err);
    }
  }

  /** A clean stop: every record on disk, then the world written as the base of a fresh log (a quick start next time), and the lock let go. */
  async close(): Promise<void> {
    try {
      await this.synced().catch(() => undefined);
      // A base snapshot when it starts the next run sooner than replaying the log would: a small world
      // (reading it back is quick), or a long log. A large world with a short log starts faster from its
      // seed and the log (100,000 listings: a 250 MB snapshot takes seconds to read, a day of operations less).
      const a = this.appender;
      if (!this.failure && a && (this.host.store.listings.length <= CLOSE_SNAPSHOT_LISTINGS || a.size > this.snapshotBytes / 4)) {
        this.worldReplaced();
        await this.synced();
      }
    } finally {
      this.appender?.close();
      this.appender = null;
      this.releaseLock();
    }
  }

  /** Lets go of the folder without writing anything (what a kill leaves; the tests' crash). */
  abandon(): void {
    this.appender?.close();
    this.appender = null;
    this.releaseLock();
  }
}
