/**
 * Named snapshots of the bundled mock's world (`mkt mock snapshot`, /__mock/snapshots): the rule a
 * name follows, checked alike by the CLI (before sending) and the mock (400), and what a listing shows.
 */

/** The longest name a snapshot may have. */
export const SNAPSHOT_NAME_MAX = 64;

/** What a snapshot listing shows of one snapshot. */
export interface SnapshotEntry {
  name: string;
  /** The world's virtual time when it was saved (null: the file cannot be read, `problem` says why). */
  now: string | null;
  /** Listings in the saved world, every status (null as for `now`). */
  listings: number | null;
  /** Size of the saved text in bytes. */
  bytes: number;
  /** When it was saved (real time). */
  saved_at: string;
  /** Why a snapshot file cannot be loaded (changed or damaged on disk), or null. */
  problem: string | null;
}

/** What the mock answers to a snapshot load (POST /__mock/snapshots/NAME/load). */
export interface SnapshotLoaded {
  /** The snapshot's name. */
  loaded: string;
  /** The virtual time it was saved at. */
  saved_now: string;
  /** The clock after the load: `saved_now`, unless `kept_clock` kept a later clock (the world brought forward to it). */
  now: string;
  /** Listings in the world loaded, every status. */
  listings: number;
  /** Whether the load kept the clock (`keep_clock`) instead of putting it back at `saved_now`. */
  kept_clock: boolean;
}

/**
 * What is wrong with `name` as a snapshot name, or null when it is fine: 1 to 64 letters, digits,
 * '.', '_' and '-', not starting with '.', without '..'. A name becomes a file name, so no path
 * separator may reach the file system (and no hidden or temporary file can be named).
 */
export function snapshotNameProblem(name: string): string | null {
  if (name.length === 0) return 'is empty';
  if (name.length > SNAPSHOT_NAME_MAX) return `is ${name.length} characters long; at most ${SNAPSHOT_NAME_MAX}`;
  if (/[/\\]/.test(name)) return "holds a path separator ('/' or '\\'); a name is not a path";
  if (name.includes('..')) return "holds '..'";
  const bad = /[^A-Za-z0-9._-]/u.exec(name);
  if (bad) return `holds ${JSON.stringify(bad[0])}; a name may hold only letters, digits, '.', '_' and '-'`;
  if (name.startsWith('.')) return "starts with '.'";
  return null;
}

/** Page limits of GET /__mock/snapshots. */
export const SNAPSHOT_PAGE = { default: 100, max: 1000 } as const;
