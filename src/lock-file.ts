/**
 * The CLI's cross-process locks, so that concurrent `mkt` processes (cron jobs overlapping a terminal)
 * refresh tokens, write credentials and submit orders one at a time. The lock is the kernel's
 * (src/os/exclusive-lock.ts): it dies with its holder, so a killed run leaves nothing to break and two
 * runs started together can never both hold it.
 */
import { dirname } from 'node:path';
import { systemClock } from './clock.js';
import { CliError, EXIT, systemErrorWords, UsageError } from './errors.js';
import { alive, lockMechanism, tryLock, type LockHolder, type LockMechanism } from './os/exclusive-lock.js';
import { checkRegularFile, makeDirs } from './state-files.js';

export type { LockHolder } from './os/exclusive-lock.js';

/** Knobs and injected pieces. */
export interface LockOptions {
  /** Give up after waiting this long (0: at once, after one try). */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** The error when the lock stays taken past the timeout, given the file locked, its holder when it names a running one, and the mechanism (default: exit 3, naming the file). */
  busy?: (path: string, holder: LockHolder | null, mechanism: LockMechanism) => CliError;
  /** The mechanism (tests); default the platform's. */
  mechanism?: LockMechanism;
}

/** What to say when a lock of the file mechanism names a holder that is not running: it is never broken for the person. */
function deadHolderError(path: string, holder: LockHolder): CliError {
  return new CliError(
    `${path} names pid ${holder.pid}, which is not running; without the kernel's lock here (${lockMechanism().why ?? 'this file system takes none'}), mkt never removes a lock it did not take`,
    EXIT.USAGE,
    `remove ${path} if no mkt process is running`,
  );
}

/** Runs `fn` while holding the lock file `path`. */
export async function withLock<T>(path: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const sleep = opts.sleep ?? systemClock.sleep;
  const now = opts.now ?? systemClock.now;
  const mechanism = opts.mechanism ?? lockMechanism().mechanism;
  makeDirs(dirname(path), 'the lock directory');
  // A FIFO or device where the lock should be is said now, by name (opening it would be refused anyway).
  checkRegularFile(path, 'the lock file');
  const started = now();
  for (let attempt = 0; ; attempt++) {
    let got;
    try {
      got = tryLock(path, now, mechanism);
    } catch (err) {
      throw new UsageError(
        `cannot use the lock file ${path}: ${systemErrorWords(err)}`,
        'remove it, or set MKT_STATE_DIR to a directory mkt may write to',
      );
    }
    if (got.held) {
      try {
        return await fn();
      } finally {
        got.lock.release();
      }
    }
    const holder = got.holder;
    if (got.mechanism === 'file' && holder && !alive(holder.pid)) throw deadHolderError(got.path, holder);
    if (now() - started >= timeoutMs) {
      throw (
        opts.busy?.(got.path, holder, got.mechanism)
        ?? new CliError(`another mkt process holds ${got.path}`, EXIT.AUTH, 'wait for it to finish')
      );
    }
    await sleep(Math.min(25 * 2 ** Math.min(attempt, 4), 250) + Math.random() * 25);
  }
}
