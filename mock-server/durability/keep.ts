/**
 * Which way a mock keeps its world (durability.ts), from how it was started (what it reads and the host it hands: kept-world.ts).
 * Node only (the files of --state): the browser build takes keep.browser.ts, the memory alone.
 */
import type { Secrets } from '../kit/entropy.js';
import { recipeFrom } from '../world/recipe.js';
import { isStateFile } from '../world/state-dir.js';
import type { Durability } from './durability.js';
import { hostOf, type KeptWorld } from './kept-world.js';
import type { OpRecord } from './log-folder.js';
import { MemoryOnly } from './memory-only.js';
import { OperationLog } from './operation-log.js';
import { SingleFileState } from './single-file-state.js';

/**
 * The durability of `kept`: none without --state; an earlier mock's single state file (kept working as it did);
 * or a --state folder's operation log, whose records `apply` replays (the operations, operations/perform.ts).
 * Not open yet: the engine opens it (Engine.open), and the log is replayed once every route can run (`replay`).
 */
export function keepWorld(kept: KeptWorld, apply: (record: OpRecord, secrets: Secrets) => boolean): Durability {
  const { options } = kept;
  const host = hostOf(kept, apply);
  const file = options.stateFile;
  if (!file) return new MemoryOnly(host, options.start);
  if (isStateFile(file)) return new SingleFileState(host, file);
  return new OperationLog(host, file, recipeFrom(options), options.stateRepair, options.snapshotLogBytes);
}

/** The operation log `durability` is, or null (the tests reach a --state folder's disk through it). */
export function operationLogOf(durability: Durability): OperationLog | null {
  return durability instanceof OperationLog ? durability : null;
}
