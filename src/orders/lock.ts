/**
 * A per-profile lock so that two `mkt order submit` runs never overlap: an exclusive lock file
 * holding the owner's pid. A lock left by a process that no longer runs is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError, EXIT } from '../errors.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock at `path`, waiting up to `waitMs`; returns the function that releases it. */
export async function acquireLock(path: string, waitMs: number, sleep: (ms: number) => Promise<void>, what: string): Promise<() => void> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let owner = NaN;
    try {
      owner = Number(readFileSync(path, 'utf8').trim());
    } catch {
      continue; // released between our attempts
    }
    if (Number.isInteger(owner) && owner > 0 && !alive(owner)) {
      try {
        unlinkSync(path);
      } catch {
        // another waiter took it over first
      }
      continue;
    }
    if (Date.now() >= deadline) {
      throw new CliError(`another ${what} is running (pid ${Number.isNaN(owner) ? '?' : owner}); nothing was sent`, EXIT.USAGE, `wait for it to finish, or remove ${path} if that process is gone`);
    }
    await sleep(200);
  }
}
