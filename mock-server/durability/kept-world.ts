/** What the choice of a durability reads of the mock (its context), and the host every way of keeping reaches it through. */
import type { VirtualClock } from '../kit/clock.js';
import type { Secrets } from '../kit/entropy.js';
import type { Engine } from '../engine/engine.js';
import type { SeedRecipe } from '../world/recipe.js';
import type { World } from '../world/world.js';
import type { DurabilityHost } from './durability.js';
import type { OpRecord } from './log-folder.js';

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

/** The host a durability of `kept` reaches the mock through; `apply` replays a recorded operation. */
export function hostOf(kept: KeptWorld, apply: (record: OpRecord, secrets: Secrets) => boolean): DurabilityHost {
  const { engine } = kept;
  return {
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
}
