/**
 * Named snapshots kept in memory for the life of the mock (the text serializeState writes, under a name):
 * the shelf of a mock without --state, and of every mock in a browser (snapshot-shelf.browser.ts).
 */
import { parseState, type SavedState } from './state-text.js';

/** What a listing shows of one snapshot; `problem` says why a file on disk cannot be loaded. */
export interface SnapshotInfo {
  name: string;
  /** The world's virtual time when saved (null: the file cannot be read). */
  now: number | null;
  /** Listings in the saved world, every status (null: the file cannot be read). */
  listings: number | null;
  bytes: number;
  /** Real time of the save (for a file: its modification time). */
  savedAt: number;
  problem: string | null;
}

/** A save that would overwrite a snapshot without being told to. */
export const EXISTS = 'exists' as const;

/** Snapshots by name, in the order of their names. */
export const byName = (a: SnapshotInfo, b: SnapshotInfo): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The snapshots of one mock, in memory: each call done when it returns (nothing to wait for). */
export class MemoryShelf {
  private readonly kept = new Map<string, { text: string; info: SnapshotInfo }>();

  constructor(private readonly realNow: () => number) {}

  /** Keeps `text` (a world at virtual time `now` with `listings` listings) as `name`; EXISTS when that name is taken and `replace` is false. */
  save(name: string, text: string, now: number, listings: number, replace: boolean): SnapshotInfo | typeof EXISTS {
    if (!replace && this.kept.has(name)) return EXISTS;
    const info: SnapshotInfo = { name, now, listings, bytes: Buffer.byteLength(text), savedAt: this.realNow(), problem: null };
    this.kept.set(name, { text, info });
    return info;
  }

  /** The world saved as `name` (parsed anew: each load is a world of its own), or null. */
  read(name: string): SavedState | null {
    const kept = this.kept.get(name);
    return kept ? parseState(kept.text, `snapshot ${name}`) : null;
  }

  /** Every snapshot, by name. */
  list(): SnapshotInfo[] {
    return [...this.kept.values()].map((k) => k.info).sort(byName);
  }

  /** Deletes `name`; false when there was none. */
  remove(name: string): boolean {
    return this.kept.delete(name);
  }
}
