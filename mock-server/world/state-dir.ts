/**
 * The folder `mock serve --state DIR` keeps the world in: generations of a base and an operation log
 * (`world-000001.log`, its base a seed or `world-000001.snapshot`), the lock `mock.pid` naming the
 * mock that holds the folder (the kernel's lock on it; what it says names the holder), and `snapshots/NAME.snapshot` (named snapshots, kept by their routes).
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { alive, tryLock, type HeldLock, type LockAttempt } from '../../src/os/exclusive-lock.js';
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
  constructor(
    readonly path: string,
    readonly pid: number | undefined,
  ) {
    super(
      `mock state ${path} is in use by another mock${pid === undefined ? '' : ` (pid ${pid})`}; stop that one first, or give this one another --state`,
    );
  }
}

/**
 * Takes the lock file `path` for this process with the kernel's lock (src/os/exclusive-lock.ts):
 * refused (StateLockedError) while another mock holds it. A mock that died (kill -9) held nothing
 * once it was gone, so two mocks started together after it can never both hold the folder. Returns
 * how to let it go. Where the platform has no kernel lock, a lock naming a dead mock is refused too,
 * naming the file to remove.
 */
export function takeLock(path: string, what: string): HeldLock {
  let got: LockAttempt;
  try {
    got = tryLock(path);
  } catch (err) {
    throw new MockSetupError(`mock state ${what}: cannot take the lock ${path}: ${(err as Error).message}`);
  }
  if (got.held) return got.lock;
  if (got.holder && got.mechanism === 'file' && !alive(got.holder.pid)) {
    throw new MockSetupError(
      `mock state ${what}: the lock ${got.path} names pid ${got.holder.pid}, which is not running, and the kernel's lock does not serve here; remove ${got.path} if no mock runs on this folder`,
    );
  }
  throw new StateLockedError(what, got.holder?.pid);
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
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* as persistence.ts: the rename itself is still atomic */
  }
}

/** Deletes the temporary files of base snapshots that a killed save left (never read: a snapshot is renamed into place whole). */
export function removeSnapshotTemps(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (/^\.world-\d{6,}\.snapshot\.\d+\.tmp$/.test(name)) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        /* gone already */
      }
    }
  }
}
