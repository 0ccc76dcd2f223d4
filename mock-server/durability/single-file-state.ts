/**
 * An earlier mock's single state file (`--state FILE` of an existing file), kept working as it did:
 * a change someone is told of is in the file before the answer goes out (one fsynced save of the whole
 * world covers every change made while the previous one ran), and background changes no one was told
 * of are saved shortly after. One mock at a time, through the lock `FILE.pid`.
 */
import type { HeldLock } from '../../src/os/exclusive-lock.js';
import type { ApiError } from '../kit/api-error.js';
import {
  loadStateFile,
  removeLeftoverTemps,
  saveStateFile,
  serializeState,
  stateWriteError,
  writeStateFile,
} from '../world/persistence.js';
import { settleWorld } from '../engine/settle.js';
import { takeLock } from '../world/state-dir.js';
import type { Durability, DurabilityHost } from './durability.js';

/** How long background changes (market ticks no one was told of) may wait before the state file is written. */
const LAZY_SAVE_MS = 250;

/** The single state file of one mock: what it keeps is the host's world and clock; saves wait for a stepped clock move's end. */
export class SingleFileState implements Durability {
  /** A save that fails is told to the answer waiting for it; the world is never rolled back, and never refuses changes. */
  readonly refusal: ApiError | null = null;
  readonly owes = true;
  /** Chosen only for a file that exists: its world is always the one restored. */
  readonly restored = { operations: 0 };
  private lazyTimer: NodeJS.Timeout | null = null;
  /** Changes to the world so far; the last one someone was (or is about to be) told of; the last one the file holds. */
  private changes = 0;
  private promisedAt = 0;
  private saved = 0;
  /** The save under way, if any. */
  private saving: Promise<void> | null = null;
  /** The folder's (or file's) lock while this mock holds it. */
  private lock: HeldLock | null = null;

  constructor(
    private readonly host: DurabilityHost,
    readonly path: string,
  ) {}

  /** Takes the lock, loads the file (a clear error when it is corrupt) and writes it back at once (a setup error when it cannot be). */
  open(): void {
    this.lock = takeLock(`${this.path}.pid`, this.path);
    try {
      // A save killed midway leaves its temporary file (of whichever process); the state file itself is whole.
      removeLeftoverTemps(this.path);
      const saved = loadStateFile(this.path)!;
      this.host.world = saved.world;
      if (saved.now > this.host.clock.now()) this.host.clock.set(saved.now);
      this.saveAtStart();
    } catch (err) {
      this.lock?.release();
      throw err;
    }
  }

  /** Notes a background change no one was told of: the file is written shortly. */
  background(): void {
    this.saveSoon(false);
  }

  /** Writes the file shortly, a change more (or, `noted`, one already counted). */
  private saveSoon(noted: boolean): void {
    if (!noted) this.changes++;
    // A save during a stepped move would write the whole world once a step; the move saves when it ends.
    if (this.lazyTimer || this.host.moving()) return;
    this.lazyTimer = setTimeout(() => {
      this.lazyTimer = null;
      this.saveUpTo(this.changes).catch((err: unknown) => console.error('mock: cannot write the state file', err));
    }, LAZY_SAVE_MS);
    this.lazyTimer.unref();
  }

  /** A stepped move ended: the saves it held back catch up. */
  moveEnded(): void {
    if (this.changes > this.saved) this.saveSoon(true);
  }

  /** Notes a change the caller is about to be told of: the next `durable()` waits until it is in the file. */
  promised(): void {
    this.promisedAt = ++this.changes;
  }

  /** Nothing to replay: the file holds the world whole. */
  replay(): void {}
  /** A change is always taken: its save is what the answer waits for. */
  checkWritable(): void {}
  /** The operation is in the world, saved whole with the next save (the route helper has promised it). */
  record(): void {}
  /** A new world is saved whole with the next save (the route helper has promised it). */
  worldReplaced(): void {}

  /** No rollbacks: a failed save is told through durable() alone. */
  mark(): number {
    return 0;
  }

  /** Never a rollback. */
  rolledBackSince(): ApiError | null {
    return null;
  }

  /** Writes the whole world now, synchronously (a start from a snapshot: nothing is served before it is in the file). */
  keepNow(): void {
    this.saveAtStart();
  }

  /** Resolves once every change noted with `promised` is in the file. */
  durable(): Promise<void> {
    return this.saveUpTo(this.promisedAt);
  }

  /** Saves until the file holds change number `target`; a save covers every change made before it began (group commit). */
  private async saveUpTo(target: number): Promise<void> {
    while (this.saved < target) {
      this.saving ??= this.saveNow().finally(() => {
        this.saving = null;
      });
      await this.saving;
    }
  }

  /** One save: the text is taken at once (a consistent world), then written and fsynced off the event loop. */
  private async saveNow(): Promise<void> {
    const covers = this.changes;
    // The listings' own steps the timeline has not yet written go into the text (timeline.ts).
    settleWorld(this.host.world);
    const text = serializeState(this.host.world, this.host.clock.now());
    await writeStateFile(this.path, text);
    this.saved = Math.max(this.saved, covers);
  }

  /** Writes the file at start, synchronously (nothing else runs yet): the world caught up after a restart. */
  private saveAtStart(): void {
    try {
      settleWorld(this.host.world);
      saveStateFile(this.path, this.host.world, this.host.clock.now());
    } catch (err) {
      // A missing or read-only folder, or a full disk: the setup's to fix (exit 2), not a bug (exit 1).
      throw stateWriteError(this.path, err);
    }
    this.saved = this.changes;
  }

  /** Writes every change not yet in the file, and lets the file go. */
  async close(): Promise<void> {
    if (this.lazyTimer) clearTimeout(this.lazyTimer);
    this.lazyTimer = null;
    try {
      await this.saveUpTo(this.changes);
    } finally {
      this.lock?.release();
    }
  }

  /** Lets the file go without writing (the tests' crash). */
  abandon(): void {
    if (this.lazyTimer) clearTimeout(this.lazyTimer);
    this.lazyTimer = null;
    this.lock?.abandon();
  }
}
