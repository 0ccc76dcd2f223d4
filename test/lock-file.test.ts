import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/errors.js';
import { withLock, type LockHolder } from '../src/lock-file.js';
import { fileLockPath, loadKernelLocks, lockMechanism, tryLock, type HeldLock } from '../src/os/exclusive-lock.js';
import { tempHome } from './helpers/cli.js';

/** A lock file at a fresh path, holding `content` when given. */
function lockPath(content?: string): string {
  const path = join(tempHome(), 'state', 'accounts', 'a', 'submit.lock');
  mkdirSync(join(path, '..'), { recursive: true });
  if (content !== undefined) writeFileSync(path, content);
  return path;
}

/** A clock that moves only when slept on, counting the sleeps. */
function fakeClock() {
  const c = { t: 1_000_000, sleeps: 0, now: () => c.t, sleep: async (ms: number) => void ((c.t += ms), c.sleeps++) };
  return c;
}

/** Takes `path` for a contender of this process (the kernel's lock is per open file, so it counts as another holder). */
function hold(path: string, at = 12345): HeldLock {
  const got = tryLock(path, () => at, 'kernel');
  if (!got.held) throw new Error(`${path} should be free`);
  return got.lock;
}

describe('the kernel lock on this platform', () => {
  it('loads (fs-native-extensions has a build for it)', () => {
    expect(lockMechanism()).toEqual({ mechanism: 'kernel' });
  });
});

describe("loading fs-native-extensions' lock calls", () => {
  const realRequire = createRequire(import.meta.url);
  /** A require that keeps the ids it is asked for, answered by the real one. */
  const recording = () => {
    const asked: string[] = [];
    return { asked, require: (id: string) => (asked.push(id), realRequire(id)) };
  };
  const host = `${process.platform}-${process.arch}`;
  const prebuilt = `fs-native-extensions/prebuilds/${host}/fs-native-extensions.node`;
  const shipped = (() => {
    try {
      return existsSync(realRequire.resolve(prebuilt)) && !existsSync('/etc/alpine-release');
    } catch {
      return false;
    }
  })();

  /** Two open file descriptions of one fresh file, closed after `fn`. */
  const twoOpenings = (fn: (a: number, b: number) => void) => {
    const path = lockPath();
    const a = openSync(path, 'w+');
    const b = openSync(path, 'r+');
    try {
      fn(a, b);
    } finally {
      closeSync(a);
      closeSync(b);
    }
  };

  /** What a second opening sees while the first holds the lock, and once it let it go. */
  const contended = (locks: ReturnType<typeof loadKernelLocks>) => {
    const seen: boolean[] = [];
    twoOpenings((a, b) => {
      seen.push(locks.tryLock(a));
      seen.push(locks.tryLock(b));
      locks.unlock(a);
      seen.push(locks.tryLock(b));
      locks.unlock(b);
    });
    return seen;
  };

  it.skipIf(!shipped)(`reads the build the package ships for ${host} itself, not through the package's loader (require-addon)`, () => {
    const r = recording();
    const locks = loadKernelLocks(r.require);
    expect(r.asked).toEqual([prebuilt]);
    // The kernel's lock through it: the second opening is refused while the first holds it (EAGAIN: false), then taken.
    expect(contended(locks)).toEqual([true, false, true]);
  });

  it.skipIf(!shipped)("goes through the package where there is no build of this platform's name (its loader's own choice)", () => {
    const r = recording();
    const locks = loadKernelLocks(r.require, 'nowhere-x0');
    expect(r.asked).toEqual(['fs-native-extensions/prebuilds/nowhere-x0/fs-native-extensions.node', 'fs-native-extensions']);
    expect(contended(locks)).toEqual([true, false, true]);
  });

  it.skipIf(!shipped)('throws what the kernel refuses other than a held lock (a closed descriptor), as the package does', () => {
    const direct = loadKernelLocks(realRequire);
    const viaPackage = realRequire('fs-native-extensions') as ReturnType<typeof loadKernelLocks>;
    const fd = openSync(lockPath(), 'w+');
    closeSync(fd);
    expect(() => direct.tryLock(fd)).toThrow(expect.objectContaining({ code: 'EBADF' }));
    expect(() => viaPackage.tryLock(fd)).toThrow(expect.objectContaining({ code: 'EBADF' }));
  });
});

describe('a lock with no time to wait', () => {
  it('gives up on the first try, handing the busy error the holder its file names', async () => {
    const path = lockPath();
    const other = hold(path);
    const clock = fakeClock();
    let seen: LockHolder | null | undefined;
    const busy = (_: string, holder: LockHolder | null) => ((seen = holder), new CliError('busy', 2));
    let ran = false;
    try {
      await expect(withLock(path, async () => void (ran = true), { timeoutMs: 0, ...clock, busy })).rejects.toThrow('busy');
    } finally {
      other.release();
    }
    expect(seen).toEqual({ pid: process.pid, since: 12345 });
    expect(clock.sleeps).toBe(0);
    expect(ran).toBe(false);
  });

  it('never takes a held lock whose file is not written yet (or was emptied): busy, naming no holder', async () => {
    const path = lockPath();
    const other = hold(path);
    writeFileSync(path, '');
    const busy = (_: string, holder: LockHolder | null) => new CliError(`busy ${JSON.stringify(holder)}`, 2);
    try {
      await expect(withLock(path, async () => 'ran', { timeoutMs: 0, ...fakeClock(), busy })).rejects.toThrow('busy null');
    } finally {
      other.release();
    }
  });

  it('takes at once a file that names a holder that died (the kernel let its lock go), and leaves the file in place', async () => {
    const path = lockPath('999999999\n12345\n');
    expect(await withLock(path, async () => readFileSync(path, 'utf8'), { timeoutMs: 0, ...fakeClock() })).toBe(
      `${process.pid}\n1000000\n`,
    );
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('takes at once a file that names a live process that does not hold it (its pid reused, or garbage)', async () => {
    for (const text of [`${process.pid}\n12345\n`, 'not a pid', '']) {
      const path = lockPath(text);
      expect(await withLock(path, async () => 'ran', { timeoutMs: 0, ...fakeClock() })).toBe('ran');
    }
  });

  it('waits as long as asked for a live holder, sleeping on the clock it is given', async () => {
    const path = lockPath();
    const other = hold(path);
    const clock = fakeClock();
    try {
      await expect(withLock(path, async () => undefined, { timeoutMs: 5000, ...clock })).rejects.toThrow(/another mkt process holds/);
    } finally {
      other.release();
    }
    expect(clock.t - 1_000_000).toBeGreaterThanOrEqual(5000);
  });

  it('runs once the holder lets go while it waits', async () => {
    const path = lockPath();
    const other = hold(path);
    const clock = { ...fakeClock(), sleep: async () => other.release() };
    expect(await withLock(path, async () => 'ran', { timeoutMs: 5000, now: () => 0, sleep: clock.sleep })).toBe('ran');
  });

  it('lets go when the work throws', async () => {
    const path = lockPath();
    await expect(
      withLock(
        path,
        async () => {
          throw new Error('boom');
        },
        { timeoutMs: 0 },
      ),
    ).rejects.toThrow('boom');
    expect(await withLock(path, async () => 'again', { timeoutMs: 0 })).toBe('again');
  });
});

describe('the file lock (where the kernel lock cannot load)', () => {
  it('is created whole in a file of its own, is refused to a second taker, and is removed by its holder only', async () => {
    const path = lockPath();
    const file = fileLockPath(path);
    const first = tryLock(path, () => 77, 'file');
    expect(first.held).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(new RegExp(`^${process.pid}\\n77\\n[0-9a-f]{24}$`));
    const second = tryLock(path, () => 78, 'file');
    expect(second).toEqual({ held: false, holder: { pid: process.pid, since: 77 }, mechanism: 'file', path: file });
    // No temporary file is left beside it by either attempt.
    expect(readdirSync(join(path, '..'))).toEqual(['submit.lock.excl']);
    // Another holder's lock in its place (as if the file had been removed and taken by hand): not removed by the first.
    writeFileSync(file, `${process.pid}\n79\nffffffffffffffffffffffff`);
    if (first.held) first.lock.release();
    expect(existsSync(file)).toBe(true);
  });

  it('never breaks a lock whose holder died: the busy error names the pid and the file to remove', async () => {
    const path = lockPath();
    writeFileSync(fileLockPath(path), '999999999\n12345\nabc');
    await expect(withLock(path, async () => 'ran', { timeoutMs: 5000, mechanism: 'file', ...fakeClock() })).rejects.toThrow(
      /submit\.lock\.excl names pid 999999999, which is not running/,
    );
    expect(readFileSync(fileLockPath(path), 'utf8')).toBe('999999999\n12345\nabc');
  });

  it('is not blocked by the empty file the kernel mechanism leaves behind', async () => {
    const path = lockPath('');
    expect(await withLock(path, async () => 'ran', { timeoutMs: 0, mechanism: 'file', ...fakeClock() })).toBe('ran');
  });
});

describe('the lock file itself', () => {
  it('is never opened through a symbolic link: the file it points at is left as it was', async () => {
    const path = lockPath();
    const target = join(path, '..', 'important');
    writeFileSync(target, 'important data\n');
    symlinkSync(target, path);
    await expect(withLock(path, async () => 'ran', { timeoutMs: 0, ...fakeClock() })).rejects.toThrow(/lock file/);
    expect(readFileSync(target, 'utf8')).toBe('important data\n');
  });
});
