/**
 * The browser build's twin of `keep.ts` (scripts/bundle-browser.mjs takes it in its place): a world in
 * memory only, as a mock without --state keeps it; --state (a folder or single file) is refused, since a
 * page has no files. The operation log and the single state file are never bundled.
 */
import type { Secrets } from '../kit/entropy.js';
import { nodeOnly } from '../kit/setup-error.js';
import type { Durability } from './durability.js';
import { hostOf, type KeptWorld } from './kept-world.js';
import type { OpRecord } from './log-folder.js';
import { MemoryOnly } from './memory-only.js';
import type { OperationLog } from './operation-log.js';

/** The durability of `kept`: none (memory only); a --state option is refused. */
export function keepWorld(kept: KeptWorld, apply: (record: OpRecord, secrets: Secrets) => boolean): Durability {
  const { options } = kept;
  if (options.stateFile) throw nodeOnly(`--state ${options.stateFile}`);
  return new MemoryOnly(hostOf(kept, apply), options.start);
}

/** Null: the browser build has no operation log. */
export function operationLogOf(_durability: Durability): OperationLog | null {
  return null;
}
