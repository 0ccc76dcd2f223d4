/**
 * The state file (--state): the whole world and the clock's time, written atomically (a temporary
 * file, fsync, rename, fsync of the folder) so a crash never leaves a torn file, and checked on load
 * (a header with the body's length and SHA-256: state-text.ts) so a torn or edited file is refused with
 * a clear error. Node only: the browser build keeps its worlds in memory.
 */
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MockSetupError } from '../kit/setup-error.js';
import type { World } from './world.js';
import { parseState, serializeState, StateFileError, type SavedState } from './state-text.js';

// The text of a saved world, where the files' callers (and the tests) have always found it.
export { parseState, serializeState, StateFileError, type SavedState };

/** A state file that cannot be written where --state puts it (a missing or read-only folder, a full disk). */
export class StateWriteError extends MockSetupError {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`mock state ${path} ${problem}; give --state a path in a folder that exists and can be written`);
  }
}

/**
 * A failed write of the state file at start as what it is: the setup's to fix (StateWriteError, naming
 * the path and why), when the file system refused it; anything else (a bug) as it was.
 */
export function stateWriteError(path: string, err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return err;
  const folder = dirname(path);
  const problem =
    code === 'ENOENT'
      ? `cannot be created: the folder ${folder} does not exist`
      : code === 'ENOTDIR'
        ? `cannot be created: ${folder} is not a folder`
        : code === 'EISDIR'
          ? 'is a folder, not a file'
          : code === 'EACCES' || code === 'EPERM'
            ? `cannot be written: no permission to write in ${folder}`
            : code === 'EROFS'
              ? `cannot be written: ${folder} is on a read-only file system`
              : code === 'ENOSPC' || code === 'EDQUOT'
                ? `cannot be written: no space left on the disk that holds ${folder}`
                : `cannot be written (${code}: ${(err as Error).message})`;
  return new StateWriteError(path, problem);
}

/** Loads `path`; null when there is no such file yet. */
export function loadStateFile(path: string): SavedState | null {
  if (!existsSync(path)) return null;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new StateFileError(path, `cannot be read (${(err as Error).message})`);
  }
  return parseState(text, path);
}

/** The temporary file a save of `path` by process `pid` writes before renaming it over `path`. */
function tempPath(path: string, pid = process.pid): string {
  return join(dirname(path), `.${basename(path)}.${pid}.tmp`);
}

/** Makes the rename durable: fsync of the folder. */
function fsyncFolder(path: string): void {
  try {
    const dir = openSync(dirname(path), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // Some platforms cannot fsync a folder; the rename itself is still atomic.
  }
}

/**
 * Deletes temporary files that saves of `path` by any process left behind when it was killed
 * mid-save (they are never read: the state file is only replaced by a complete, fsynced one).
 */
export function removeLeftoverTemps(path: string): void {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return; // no folder yet: nothing left over
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !/^\d+\.tmp$/.test(name.slice(prefix.length))) continue;
    try {
      unlinkSync(join(dirname(path), name));
    } catch {
      /* gone already */
    }
  }
}

/** Writes `world` to `path` atomically: temporary file, fsync, rename over the old one, fsync of the folder. */
export function saveStateFile(path: string, world: World, now: number): void {
  const data = Buffer.from(serializeState(world, now));
  const tmp = tempPath(path);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    for (let off = 0; off < data.length;) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, path);
  fsyncFolder(path);
}

/**
 * Like saveStateFile for text already serialised, but the write and fsyncs run off the event loop,
 * so requests keep arriving (and join the next save) while the disk works. One at a time per path;
 * `tmp`: the temporary file beside it (a caller that sweeps its own leftovers names it).
 */
export async function writeStateFile(path: string, text: string, tmp = tempPath(path)): Promise<void> {
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(text);
    await fh.sync();
  } catch (err) {
    await fh.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fh.close();
  await rename(tmp, path);
  try {
    const dir = await open(dirname(path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // As in fsyncFolder: not every platform can fsync a folder.
  }
}
