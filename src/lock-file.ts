/**
 * A cross-process lock file, so that concurrent `mkt` processes (cron jobs overlapping a terminal)
 * refresh tokens, write credentials and submit orders one at a time. `open(…, 'wx')` is atomic; a lock whose owner
 * died or that is older than `staleMs` is broken.
 */
import { open, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { systemClock } from './clock.js';
import { CliError, EXIT, UsageError } from './errors.js';
import { makeDirs, readRegularFile } from './state-files.js';

/** Who holds a lock, as its file says: the holder's pid and when it took the lock (epoch ms). */
export interface LockHolder {
  pid: number;
  /** Absent when the file's second line is not a time. */
  since?: number;
}

/** Knobs and injected pieces. */
export interface LockOptions {
  /** Give up after waiting this long (0: at once, after one try). */
  timeoutMs?: number;
  /** A lock older than this is considered abandoned. */
  staleMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** The error when the lock stays taken past the timeout, given its holder when the file names one (default: exit 3, naming the file). */
  busy?: (path: string, holder: LockHolder | null) => CliError;
}

/** How long a lock file that names no holder is given to be written before the busy error. */
const UNWRITTEN_GRACE_MS = 500;

/** Whether process `pid` exists (EPERM: it does, owned by another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The holder a lock file names, or null when it names none (gone, unreadable, or just created and not
 * yet written). A FIFO or device where the lock should be is never freed: that is thrown, said now.
 */
function readHolder(path: string): LockHolder | null {
  let text: string | undefined;
  try {
    text = readRegularFile(path, 'the lock file');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    return null;
  }
  const [pidText, atText] = (text ?? '').split('\n');
  const pid = Number(pidText);
  const since = Number(atText);
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  return Number.isFinite(since) ? { pid, since } : { pid };
}

function isStale(holder: LockHolder | null, staleMs: number, now: number): boolean {
  if (holder === null) return false;
  if (holder.pid !== process.pid && !alive(holder.pid)) return true;
  return holder.since !== undefined && now - holder.since > staleMs;
}

/** Runs `fn` while holding the lock file `path`. */
export async function withLock<T>(path: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const staleMs = opts.staleMs ?? 60_000;
  const sleep = opts.sleep ?? systemClock.sleep;
  const now = opts.now ?? systemClock.now;
  makeDirs(dirname(path), 'the lock directory');
  const started = now();
  for (let attempt = 0; ; attempt++) {
    try {
      const fh = await open(path, 'wx', 0o600);
      await fh.writeFile(`${process.pid}\n${now()}\n`);
      await fh.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readHolder(path);
      if (isStale(holder, staleMs, now())) {
        await rm(path, { force: true });
        continue;
      }
      // A file that names no holder yet is being written by one that just took it: a moment's grace, so the busy error names it.
      if (now() - started >= timeoutMs + (holder === null ? UNWRITTEN_GRACE_MS : 0)) {
        throw opts.busy?.(path, holder) ?? new CliError(`another mkt process holds ${path}`, EXIT.AUTH, 'wait for it to finish, or remove the file if no mkt process is running');
      }
      await sleep(Math.min(25 * 2 ** Math.min(attempt, 4), 250) + Math.random() * 25);
    }
  }
  try {
    return await fn();
  } finally {
    await rm(path, { force: true });
  }
}
