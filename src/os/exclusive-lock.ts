/**
 * An exclusive lock on a file that the kernel holds for the process: on Linux an open file description
 * locked with fcntl(F_OFD_SETLK), flock on macOS, LockFileEx on Windows (fs-native-extensions, prebuilt
 * in its package). The kernel lets it go when its holder closes it or dies, however it dies (kill -9, a
 * power cut), so there is no stale lock to break, and breaking one can never remove a live one: the lock
 * file is never removed at all. What the file says (pid and time, written once held) names the holder in
 * messages and is never used to decide anything.
 *
 * Where the native lock cannot load (a platform it has no build for), the lock is a file created whole
 * with link(2): it exists only written, only its holder removes it (checking its own nonce), and a lock
 * whose holder died is never broken automatically: the busy error names the dead pid and the file.
 *
 * Each protocol is written as steps (generators yielding before each system call), so that a test can
 * run several contenders one step at a time in every order (test/lock-interleavings.test.ts); `tryLock`
 * runs the steps straight through.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  ftruncateSync,
  linkSync,
  openSync,
  readFileSync,
  readSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';

/** Who holds a lock, as its file says: pid and when it took the lock (epoch ms). Advice for messages only. */
export interface LockHolder {
  pid: number;
  /** Absent when the file's second line is not a time. */
  since?: number;
}

/** A lock this process holds. */
export interface HeldLock {
  readonly path: string;
  /** Lets it go; only this holder's lock, and only once. */
  release(): void;
  /** Lets it go as a kill would: the file keeps naming this holder (tests of a crash). */
  abandon(): void;
}

/** What one attempt got: the lock, or the holder the file names (null when it names none, or one not running), and which mechanism on which file said so. */
export type LockAttempt =
  { held: true; lock: HeldLock } | { held: false; holder: LockHolder | null; mechanism: LockMechanism; path: string };

/** The name of each step: a point where another contender may run. */
export type LockStep = 'open' | 'lock' | 'write' | 'read' | 'link' | 'unlink' | 'clear' | 'unlock';

/** Which mechanism: the kernel's lock, or (where that cannot load) a file created whole. */
export type LockMechanism = 'kernel' | 'file';

/** The part of fs-native-extensions used here. */
interface KernelLocks {
  tryLock(fd: number, offset?: number, length?: number): boolean;
  unlock(fd: number, offset?: number, length?: number): void;
}

/**
 * What is locked: the whole file (macOS's flock knows no ranges), except on Windows, where LockFileEx's lock is
 * mandatory: there one byte far past the holder's text, so that a contender can still read who holds it.
 */
const RANGE: readonly [number, number] = process.platform === 'win32' ? [2 ** 32, 1] : [0, 0];

/** Errors of a file system that takes no kernel locks (some NFS, FUSE or SMB mounts): the file mechanism serves there. */
const NO_KERNEL_LOCKS = new Set(['ENOLCK', 'EINVAL', 'EOPNOTSUPP', 'ENOTSUP', 'ENOSYS']);

/** Loaded on first use; null where the platform has no build (the file mechanism is used then). */
const native: { locks?: KernelLocks | null; why?: string } = {};

function kernelLocks(): KernelLocks | null {
  if (native.locks === undefined) {
    try {
      native.locks = loadKernelLocks(createRequire(import.meta.url));
    } catch (err) {
      native.locks = null;
      native.why = err instanceof Error ? err.message : String(err);
    }
  }
  return native.locks;
}

/** The calls of fs-native-extensions' binding used here (its index.js wraps them: `exclusive` is its `!opts.shared`). */
interface KernelBinding {
  tryLock(fd: number, offset: number, length: number, exclusive: boolean): void;
  unlock(fd: number, offset: number, length: number): void;
}

/**
 * fs-native-extensions' lock calls: its binding read from the build its package ships for this platform
 * (prebuilds/PLATFORM-ARCH/, the file its own loader picks there), wrapped as its index.js wraps them; through the
 * package itself on Alpine (where its loader looks for builds named for musl, telling Alpine by the same file) and
 * where that file is missing or does not load (a platform it has no build for; a later version that moves or hides
 * it). The package finds its file with require-addon, a package resolver of its own whose loading and running took
 * 14-16 ms of CPU in each run that takes a lock (an `order submit` takes ~200); loading the file itself takes ~0.5 ms.
 */
export function loadKernelLocks(require: (id: string) => unknown, host = `${process.platform}-${process.arch}`): KernelLocks {
  let binding: KernelBinding | undefined;
  if (!existsSync('/etc/alpine-release')) {
    try {
      binding = require(`fs-native-extensions/prebuilds/${host}/fs-native-extensions.node`) as KernelBinding;
    } catch {
      binding = undefined;
    }
  }
  if (typeof binding?.tryLock !== 'function' || typeof binding.unlock !== 'function') return require('fs-native-extensions') as KernelLocks;
  const b = binding;
  return {
    tryLock(fd, offset = 0, length = 0) {
      try {
        b.tryLock(fd, offset, length, true);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return false;
        throw err;
      }
      return true;
    },
    unlock(fd, offset = 0, length = 0) {
      b.unlock(fd, offset, length);
    },
  };
}

/** The mechanism this platform uses, and why the kernel's is not used when it is not. */
export function lockMechanism(): { mechanism: LockMechanism; why?: string } {
  return kernelLocks() ? { mechanism: 'kernel' } : { mechanism: 'file', ...(native.why ? { why: native.why } : {}) };
}

/** Whether process `pid` exists (EPERM: it does, owned by another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder `text` names, or null when it names none. */
export function parseHolder(text: string): LockHolder | null {
  const [pidText = '', atText = ''] = text.split('\n');
  const pid = Number(pidText);
  const since = Number(atText);
  if (!/^\d+$/.test(pidText) || !Number.isSafeInteger(pid) || pid <= 0) return null;
  return atText !== '' && Number.isFinite(since) ? { pid, since } : { pid };
}

const holderText = (now: number, nonce = ''): string => `${process.pid}\n${now}\n${nonce}`;

/**
 * Opens the lock file for reading and writing, creating it (0600); never truncates (that would erase
 * what the holder wrote). Non-blocking and checked with fstat: a FIFO or device is thrown, never waited on.
 */
function openLockFile(path: string): number {
  // Never through a symbolic link: writing the holder's text would overwrite whatever file it points at.
  const fd = openSync(
    path,
    constants.O_RDWR | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOCTTY | (constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREG' });
  }
  return fd;
}

function readFd(fd: number): string {
  const buf = Buffer.alloc(256);
  const n = readSync(fd, buf, 0, buf.length, 0);
  return buf.toString('utf8', 0, n);
}

/** A held lock whose letting go is also a series of steps. */
export interface SteppedLock extends HeldLock {
  /** The steps release() runs straight through. */
  releaseSteps(): Generator<LockStep, void>;
  /** What the kernel holds for the kernel mechanism (closing it is what dying does); absent for the file one. */
  readonly fd?: number;
}

/** Runs a series of steps straight through, returning what it returns. */
export function straight<T>(steps: Generator<LockStep, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** A lock whose steps run once: release() after releaseSteps() or abandon() (or twice) does nothing. */
function heldLock(path: string, steps: () => Generator<LockStep, void>, fd?: number): SteppedLock {
  let released = false;
  const releaseSteps = function* (): Generator<LockStep, void> {
    if (released) return;
    released = true;
    yield* steps();
  };
  const abandon = (): void => {
    if (released) return;
    released = true;
    // What the kernel does when the holder dies: its file is closed, its lock with it; the file itself is left as it was.
    if (fd !== undefined) closeSync(fd);
  };
  return { path, ...(fd === undefined ? {} : { fd }), releaseSteps, release: () => straight(releaseSteps()), abandon };
}

/** The steps of one attempt at the kernel's lock on `path`. A file descriptor not handed over in a held lock is closed, whatever ends the steps. */
export function* kernelLockSteps(
  path: string,
  now: () => number,
  locks: KernelLocks = kernelLocks()!,
): Generator<LockStep, { held: true; lock: SteppedLock } | { held: false; holder: LockHolder | null }> {
  yield 'open';
  const fd = openLockFile(path);
  let handedOver = false;
  try {
    yield 'lock';
    if (!locks.tryLock(fd, ...RANGE)) {
      yield 'read';
      // The holder may not have written yet (or the file still names an earlier, dead one): advice only.
      const named = parseHolder(readFd(fd));
      return { held: false, holder: named && alive(named.pid) ? named : null };
    }
    yield 'write';
    ftruncateSync(fd, 0);
    writeSync(fd, holderText(now()), 0);
    handedOver = true;
    return {
      held: true,
      lock: heldLock(
        path,
        function* () {
          let closed = false;
          try {
            // What the file says is cleared while still held, so that it never names a holder that let go.
            yield 'clear';
            ftruncateSync(fd, 0);
            yield 'unlock';
            locks.unlock(fd, ...RANGE);
            closeSync(fd);
            closed = true;
          } finally {
            // Whatever stops the steps half-way, the file is closed: that alone lets the kernel's lock go.
            if (!closed) closeSync(fd);
          }
        },
        fd,
      ),
    };
  } finally {
    if (!handedOver) closeSync(fd);
  }
}

/**
 * The steps of one attempt at the file lock on `path`: the holder's text is written to a file of its own
 * first and linked into place whole (link fails when the lock exists), so the lock never exists unwritten.
 * Only its holder removes it, and only while it carries the holder's nonce.
 */
export function* fileLockSteps(
  path: string,
  now: () => number,
  nonce: string = randomBytes(12).toString('hex'),
): Generator<LockStep, { held: true; lock: SteppedLock } | { held: false; holder: LockHolder | null }> {
  const temp = `${path}.${process.pid}.${nonce}.tmp`;
  yield 'write';
  writeFileSync(temp, holderText(now(), nonce), { mode: 0o600 });
  yield 'link';
  let linked = true;
  try {
    linkSync(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
      unlinkSync(temp);
      throw err;
    }
    linked = false;
  }
  yield 'unlink';
  unlinkSync(temp);
  if (!linked) {
    yield 'read';
    let named: LockHolder | null = null;
    try {
      named = parseHolder(readFileSync(path, 'utf8'));
    } catch {
      /* gone since: the next attempt may take it */
    }
    // A dead holder is named too: the file mechanism never breaks a lock, so the person must.
    return { held: false, holder: named };
  }
  return {
    held: true,
    lock: heldLock(path, function* () {
      yield 'read';
      let text = '';
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        return;
      }
      if (text.split('\n')[2] !== nonce) return;
      yield 'unlink';
      unlinkSync(path);
    }),
  };
}

/**
 * The file the file mechanism locks for `path`: a name of its own, so that an empty file the kernel mechanism
 * left (it clears and keeps its file) never reads as a lock that names nobody and is never let go.
 */
export const fileLockPath = (path: string): string => `${path}.excl`;

/**
 * One attempt at the lock `path`, straight through, with the mechanism this platform has (or the one asked
 * for). A file system that takes no kernel locks gets the file mechanism: every contender on it fails alike,
 * so they all use the same one.
 */
export function tryLock(path: string, now: () => number = Date.now, mechanism: LockMechanism = lockMechanism().mechanism): LockAttempt {
  const byFile = (): LockAttempt => {
    const got = straight(fileLockSteps(fileLockPath(path), now));
    return got.held ? got : { ...got, mechanism: 'file', path: fileLockPath(path) };
  };
  if (mechanism === 'file') return byFile();
  try {
    const got = straight(kernelLockSteps(path, now));
    return got.held ? got : { ...got, mechanism: 'kernel', path };
  } catch (err) {
    if (!NO_KERNEL_LOCKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
    return byFile();
  }
}
