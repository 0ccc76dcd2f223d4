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

/** Knobs and injected pieces. */
export interface LockOptions {
  /** Give up after waiting this long. */
  timeoutMs?: number;
  /** A lock older than this is considered abandoned. */
  staleMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** The error when the lock stays taken past the timeout (default: exit 3, naming the file). */
  busy?: (path: string) => CliError;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isStale(path: string, staleMs: number, now: number): Promise<boolean> {
  try {
    const [pidText, atText] = (readRegularFile(path, 'the lock file') ?? '').split('\n');
    const pid = Number(pidText);
    const at = Number(atText);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid)) return true;
    return Number.isFinite(at) && now - at > staleMs;
  } catch (err) {
    // A FIFO or device where the lock should be is never stale, nor ever freed: say so now.
    if (err instanceof UsageError) throw err;
    return false;
  }
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
      if (await isStale(path, staleMs, now())) {
        await rm(path, { force: true });
        continue;
      }
      if (now() - started > timeoutMs) {
        throw opts.busy?.(path) ?? new CliError(`another mkt process holds ${path}`, EXIT.AUTH, 'wait for it to finish, or remove the file if no mkt process is running');
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
