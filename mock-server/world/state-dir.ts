/**
 * The folder `mock serve --state DIR` keeps the world in: generations of a base and an operation log
 * (`world-000001.log`, its base a seed or `world-000001.snapshot`), the lock `mock.pid` naming the
 * mock that holds the folder, and `snapshots/NAME.snapshot` (named snapshots, kept by their routes).
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { MockSetupError } from '../kit/setup-error.js';

/** The lock file of a state folder. */
export const LOCK_NAME = 'mock.pid';

/** The log of generation `n`. */
export const logName = (n: number): string => `world-${String(n).padStart(6, '0')}.log`;
/** The base snapshot of generation `n` (when its base is no seed). */
export const snapshotName = (n: number): string => `world-${String(n).padStart(6, '0')}.snapshot`;

/** The generations a folder holds, by number, oldest first: which have a log, which a snapshot. */
export function listGenerations(dir: string): { n: number; log: boolean; snapshot: boolean }[] {
  const found = new Map<number, { n: number; log: boolean; snapshot: boolean }>();
  for (const name of readdirSync(dir)) {
    const m = /^world-(\d{6,})\.(log|snapshot)$/.exec(name);
    if (!m) continue;
    const n = Number(m[1]);
    const g = found.get(n) ?? { n, log: false, snapshot: false };
    if (m[2] === 'log') g.log = true;
    else g.snapshot = true;
    found.set(n, g);
  }
  return [...found.values()].sort((a, b) => a.n - b.n);
}

/** A state folder another running mock holds. */
export class StateLockedError extends MockSetupError {
  constructor(readonly path: string, readonly pid: number) {
    super(`mock state ${path} is in use by another mock (pid ${pid}); stop that one first, or give this one another --state`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as { code?: string }).code === 'EPERM';
  }
}

/**
 * Takes the lock file `path` for this process: refused (StateLockedError) while the pid it names
 * runs; a lock left by a mock that died (kill -9) is taken over. Returns how to let it go.
 */
export function takeLock(path: string, what: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        try {
          if (Number(readFileSync(path, 'utf8').trim()) === process.pid) unlinkSync(path);
        } catch { /* gone already */ }
      };
    } catch (err) {
      if ((err as { code?: string }).code !== 'EEXIST') throw err;
    }
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    if (Number.isSafeInteger(pid) && pid > 0 && alive(pid)) throw new StateLockedError(what, pid);
    try { unlinkSync(path); } catch { /* another starter took it over first: try again */ }
  }
  throw new MockSetupError(`mock state ${what}: cannot take the lock ${path}`);
}

/** Makes the state folder `dir` (and no parents: a missing parent is the caller's to fix); throws what the file system said. */
export function ensureStateDir(dir: string): void {
  if (existsSync(dir) && statSync(dir).isDirectory()) return;
  mkdirSync(dir);
}

/** Whether --state names a file of the single-file format (an earlier mock's), not a folder. */
export function isStateFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `dir/name`. */
export const inDir = (dir: string, name: string): string => join(dir, name);

/** Makes a new or renamed entry of `dir` durable (fsync of the folder; not every platform can). */
export function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try { fsyncSync(fd); } finally { closeSync(fd); }
  } catch { /* as persistence.ts: the rename itself is still atomic */ }
}

/** Deletes the temporary files of base snapshots that a killed save left (never read: a snapshot is renamed into place whole). */
export function removeSnapshotTemps(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (/^\.world-\d{6,}\.snapshot\.\d+\.tmp$/.test(name)) {
      try { unlinkSync(join(dir, name)); } catch { /* gone already */ }
    }
  }
}
