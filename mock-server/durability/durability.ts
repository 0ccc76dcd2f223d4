/**
 * How a mock keeps its world across restarts, one interface for its three ways (keep.ts chooses): nothing
 * to keep without --state (memory-only.ts), an earlier mock's single state file saved whole
 * (single-file-state.ts), or a --state folder's operation log replayed at start (operation-log.ts). The
 * engine tells it what happens to the world (`Keeper`), an operation is checked and recorded through it
 * (operations/perform.ts), and the route helper asks it what an answer must wait for or report
 * (route-helper/route.ts): none of them knows which way it is.
 */
import type { ApiError } from '../kit/api-error.js';
import type { VirtualClock } from '../kit/clock.js';
import type { Secrets } from '../kit/entropy.js';
import type { Keeper } from '../engine/engine.js';
import type { OrderNumbering } from '../engine/orders.js';
import type { World } from '../world/world.js';
import type { OpRecord } from './log-folder.js';

/** The world's keeping across restarts: what the engine tells it (Keeper), and what operations and routes ask of it. */
export interface Durability extends Keeper {
  /** Applies the operations kept after the world's base (once, at start, when every operation can run); nothing for the other ways. */
  replay(): void;
  /** The 503 every change gets until a restart (STATE_ROLLBACK_FAILED: a failed write whose rollback failed too), or null. */
  readonly refusal: ApiError | null;
  /** Throws the 503 when an operation made now could not be kept (probing a disk that failed): before it runs, so nothing changes. */
  checkWritable(): void;
  /** Keeps `record`, an operation just made (failed or not: a failure may have changed the world too). */
  record(record: OpRecord): void;
  /** Whether `durable()` can have anything to wait for: without it a caller skips its promise. */
  readonly owes: boolean;
  /**
   * Resolves once every change made or promised so far is kept. Every answer waits for it, so none acknowledges or
   * shows a change that a crash could still take back; rejects with the 503 when it could not be kept.
   */
  durable(): Promise<void>;
  /** A point to ask `rolledBackSince` about (taken before a request's body runs). */
  mark(): number;
  /**
   * The 503 of the last rollback since `mark` (a write failed, so the world was put back to what the disk holds, and
   * an answer made before may show a change that is gone), or null when none happened.
   */
  rolledBackSince(mark: number): ApiError | null;
  /** What `open` found kept (the operations a --state folder replays after its base; 0 for a single state file), or null: the world began from the seed. */
  readonly restored: { operations: number } | null;
  /** Keeps the whole world now, before anything is served (a start from a named snapshot): a single file is written; a log has it as its base already. */
  keepNow(): void;
}

/** What a durability keeps, and the rest of the mock it reaches: the world and clock, the engine's sync and numbering, the operations. */
export interface DurabilityHost {
  world: World;
  readonly clock: VirtualClock;
  /** Brings the world up to the clock (the engine's sync). */
  readonly sync: () => void;
  /** Whether a stepped clock move is under way (background writes wait for its end). */
  readonly moving: () => boolean;
  /** The world was replaced under the engine (a rollback): caches keyed by its version must go. */
  readonly replaced: () => void;
  /** Where order numbers stand: kept in each base record, so a replay draws the ids the live world drew. */
  readonly numbering: OrderNumbering;
  /** Applies a recorded operation (a replay), its secrets handed back by `secrets`; false for a kind this mock does not know. */
  readonly apply: (record: OpRecord, secrets: Secrets) => boolean;
}
