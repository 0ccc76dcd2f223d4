/** Which way a mock keeps its world (durability.ts), from how it was started, and the host that way reaches the mock through. */
import type { VirtualClock } from '../kit/clock.js';
import type { Secrets } from '../kit/entropy.js';
import type { Engine } from '../engine/engine.js';
import type { SeedRecipe } from '../world/recipe.js';
import { isStateFile } from '../world/state-dir.js';
import type { World } from '../world/world.js';
import type { Durability, DurabilityHost } from './durability.js';
import type { OpRecord } from './log-folder.js';
import { MemoryOnly } from './memory-only.js';
import { OperationLog } from './operation-log.js';
import { SingleFileState } from './single-file-state.js';

/** What the choice reads: the mock's world, clock, engine and options (its context). */
export interface KeptWorld {
  world: World;
  readonly clock: VirtualClock;
  readonly engine: Engine;
  readonly options: {
    readonly stateFile?: string;
    readonly stateRepair?: boolean;
    readonly snapshotLogBytes?: number;
    readonly start?: number;
  } & SeedRecipe;
}

/**
 * The durability of `kept`: none without --state; an earlier mock's single state file (kept working as it did);
 * or a --state folder's operation log, whose records `apply` replays (the operations, operations/perform.ts).
 * Not open yet: the engine opens it (Engine.open), and the log is replayed once every route can run (`replay`).
 */
export function keepWorld(kept: KeptWorld, apply: (record: OpRecord, secrets: Secrets) => boolean): Durability {
  const { engine, options } = kept;
  const host: DurabilityHost = {
    get world() {
      return kept.world;
    },
    set world(s: World) {
      kept.world = s;
    },
    clock: kept.clock,
    sync: () => engine.sync(),
    moving: () => engine.moving !== null,
    replaced: () => engine.changed(),
    numbering: engine.numbering,
    apply,
  };
  const file = options.stateFile;
  if (!file) return new MemoryOnly(host, options.start);
  if (isStateFile(file)) return new SingleFileState(host, file);
  const { seed, listings, investor, history } = options;
  const recipe: SeedRecipe = { seed, listings, ...(history ? { history } : {}), ...(investor ? { investor } : {}) };
  return new OperationLog(host, file, recipe, options.stateRepair, options.snapshotLogBytes);
}
