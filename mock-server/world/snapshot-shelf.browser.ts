/**
 * The browser build's twin of `snapshot-shelf.ts` (scripts/bundle-browser.mjs takes it in its place): the
 * named snapshots in memory only, as a mock without --state keeps them; a folder of snapshot files (--state)
 * is refused, since a page has no files.
 */
import { nodeOnly } from '../kit/setup-error.js';
import { EXISTS, MemoryShelf, type SnapshotInfo } from './snapshot-memory.js';
import type { SavedState } from './state-text.js';

export { EXISTS, type SnapshotInfo };

/** Refused: snapshot files live beside a --state folder, which the browser build has none of. */
export function snapshotsDir(stateOption: string): string {
  throw nodeOnly(`--state ${stateOption}`);
}

/** `fn`'s result as a promise (a failure as its rejection), after the calls made before it, as the Node shelf's queue runs them. */
const later = <T>(fn: () => T): Promise<T> => Promise.resolve().then(fn);

/** Named snapshots, in memory. */
export class SnapshotShelf {
  private readonly memory: MemoryShelf;

  /** `folder` must be null: a folder of files is the Node shelf's. */
  constructor(
    readonly folder: string | null,
    realNow: () => number = Date.now,
  ) {
    if (folder !== null) throw nodeOnly(`a snapshot folder (${folder})`);
    this.memory = new MemoryShelf(realNow);
  }

  /** Saves `text` as `name`; EXISTS, and nothing kept, when that name is taken and `replace` is false. */
  save(name: string, text: string, now: number, listings: number, replace: boolean): Promise<SnapshotInfo | typeof EXISTS> {
    return later(() => this.memory.save(name, text, now, listings, replace));
  }

  /** The world saved as `name`, or null when there is none. */
  read(name: string): Promise<SavedState | null> {
    return later(() => this.memory.read(name));
  }

  /** Null: a start from a named snapshot reads a file (--from-snapshot needs --state). */
  readSync(): SavedState | null {
    return null;
  }

  /** Every snapshot, by name. */
  list(): Promise<SnapshotInfo[]> {
    return later(() => this.memory.list());
  }

  /** Deletes `name`; false when there was none. */
  remove(name: string): Promise<boolean> {
    return later(() => this.memory.remove(name));
  }
}
