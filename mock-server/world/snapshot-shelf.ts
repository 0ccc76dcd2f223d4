/**
 * Named snapshots of the world (/__mock/snapshots, `mkt mock snapshot`): the text serializeState
 * writes, kept under a name. With --state, one file NAME.snapshot each in the folder snapshotsDir
 * names (written to a temporary file, fsynced, renamed, the folder fsynced; mode 0600), so they
 * outlive the mock; without it, in memory for the life of the mock (snapshot-memory.ts). Node only: the
 * browser build takes snapshot-shelf.browser.ts, the memory alone.
 */
import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { mkdir, open, readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeStateFile } from './persistence.js';
import { byName, EXISTS, MemoryShelf, type SnapshotInfo } from './snapshot-memory.js';
import { parseState, type SavedState } from './state-text.js';
import { isStateFile } from './state-dir.js';

export { EXISTS, type SnapshotInfo };

const SUFFIX = '.snapshot';
/** A temporary file of a save (`.NAME.snapshot.PID.tmp`): names never start with '.', so none is a snapshot's. */
const TEMP_RE = /^\..+\.snapshot\.\d+\.tmp$/;

/**
 * The folder of the named snapshots of a mock started with `--state STATE`, the one place that says
 * so: DIR/snapshots in a state folder; beside an earlier mock's single state file, STATE.snapshots.
 */
export function snapshotsDir(stateOption: string): string {
  return isStateFile(stateOption) ? `${stateOption}.snapshots` : join(stateOption, 'snapshots');
}

/** Named snapshots: in a folder (--state) or in memory. One operation at a time. */
export class SnapshotShelf {
  private readonly memory: MemoryShelf;
  /** What was read of each file, while its size and time stay the same (a listing parses each file once). */
  private readonly seen = new Map<string, { mtimeMs: number; size: number; info: SnapshotInfo }>();
  private queue: Promise<unknown> = Promise.resolve();

  /** `folder`: where the files go (created on the first save), or null to keep them in memory. */
  constructor(
    readonly folder: string | null,
    private readonly realNow: () => number = Date.now,
  ) {
    this.memory = new MemoryShelf(realNow);
    if (folder) removeLeftoverTemps(folder);
  }

  /** Runs `fn` after every operation before it: two saves of one name never share a temporary file. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private path(name: string): string {
    return join(this.folder!, `${name}${SUFFIX}`);
  }

  /**
   * Saves `text` (serializeState of a world at virtual time `now` with `listings` listings) as
   * `name`; EXISTS, and nothing written, when that name is taken and `replace` is false.
   */
  save(name: string, text: string, now: number, listings: number, replace: boolean): Promise<SnapshotInfo | typeof EXISTS> {
    return this.serial(async () => {
      if (!this.folder) return this.memory.save(name, text, now, listings, replace);
      const info: SnapshotInfo = { name, now, listings, bytes: Buffer.byteLength(text), savedAt: this.realNow(), problem: null };
      const path = this.path(name);
      if (!replace && (await exists(path))) return EXISTS;
      await mkdir(this.folder, { recursive: true, mode: 0o700 });
      await writeStateFile(path, text, join(this.folder, `.${name}${SUFFIX}.${process.pid}.tmp`));
      const st = await stat(path);
      const saved = { ...info, savedAt: st.mtimeMs };
      this.seen.set(name, { mtimeMs: st.mtimeMs, size: st.size, info: saved });
      return saved;
    });
  }

  /** The world saved as `name`, or null when there is none; a file that cannot be used throws StateFileError naming it. */
  read(name: string): Promise<SavedState | null> {
    return this.serial(async () => {
      if (!this.folder) return this.memory.read(name);
      const text = await readFile(this.path(name), 'utf8').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null;
        throw err;
      });
      return text === null ? null : parseState(text, this.path(name));
    });
  }

  /** As read, at start (nothing else runs yet). */
  readSync(name: string): SavedState | null {
    if (!this.folder) return null;
    let text: string;
    try {
      text = readFileSync(this.path(name), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return parseState(text, this.path(name));
  }

  /** Every snapshot, by name. */
  list(): Promise<SnapshotInfo[]> {
    return this.serial(async () => {
      if (!this.folder) return this.memory.list();
      const names = (await readdir(this.folder).catch(() => [] as string[]))
        .filter((f) => f.endsWith(SUFFIX) && !f.startsWith('.'))
        .map((f) => f.slice(0, -SUFFIX.length));
      const out: SnapshotInfo[] = [];
      for (const name of names) {
        const st = await stat(this.path(name)).catch(() => null);
        if (!st?.isFile()) continue;
        const known = this.seen.get(name);
        if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) {
          out.push(known.info);
          continue;
        }
        const info = await this.describe(name, st.size, st.mtimeMs);
        this.seen.set(name, { mtimeMs: st.mtimeMs, size: st.size, info });
        out.push(info);
      }
      return out.sort(byName);
    });
  }

  /** A file's entry, read once (a snapshot saved by an earlier run of the mock, or changed by hand). */
  private async describe(name: string, size: number, mtimeMs: number): Promise<SnapshotInfo> {
    const base = { name, bytes: size, savedAt: mtimeMs };
    try {
      const saved = parseState(await readFile(this.path(name), 'utf8'), this.path(name));
      return { ...base, now: saved.now, listings: saved.world.listings.length, problem: null };
    } catch (err) {
      return { ...base, now: null, listings: null, problem: (err as Error).message };
    }
  }

  /** Deletes `name`; false when there was none. */
  remove(name: string): Promise<boolean> {
    return this.serial(async () => {
      if (!this.folder) return this.memory.remove(name);
      this.seen.delete(name);
      try {
        await unlink(this.path(name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw err;
      }
      await syncFolder(this.folder);
      return true;
    });
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Makes a rename or unlink durable; some platforms cannot fsync a folder (the rename is atomic still). */
async function syncFolder(folder: string): Promise<void> {
  try {
    const dir = await open(folder, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    /* see above */
  }
}

/** Deletes the temporary files of saves a kill -9 interrupted: never read, the snapshot they would have replaced is whole. */
function removeLeftoverTemps(folder: string): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return; // no folder yet
  }
  for (const name of names) {
    if (TEMP_RE.test(name))
      try {
        unlinkSync(join(folder, name));
      } catch {
        /* gone already */
      }
  }
}
