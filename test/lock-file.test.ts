import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/errors.js';
import { withLock, type LockHolder } from '../src/lock-file.js';
import { tempHome } from './helpers/cli.js';

/** A lock file at a fresh path, held by `content` when given. */
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

describe('a lock with no time to wait', () => {
  it('gives up on the first try, handing the busy error the holder its file names', async () => {
    const path = lockPath(`${process.pid}\n12345\n`);
    const clock = fakeClock();
    let seen: LockHolder | null | undefined;
    const busy = (_: string, holder: LockHolder | null) => ((seen = holder), new CliError('busy', 2));
    let ran = false;
    await expect(withLock(path, async () => void (ran = true), { timeoutMs: 0, staleMs: Infinity, ...clock, busy })).rejects.toThrow('busy');
    expect(seen).toEqual({ pid: process.pid, since: 12345 });
    expect(clock.sleeps).toBe(0);
    expect(ran).toBe(false);
  });

  it('gives a file that names no holder yet a moment to be written, then says it names none', async () => {
    const path = lockPath('');
    const clock = fakeClock();
    let seen: LockHolder | null | undefined;
    const busy = (_: string, holder: LockHolder | null) => ((seen = holder), new CliError('busy', 2));
    await expect(withLock(path, async () => undefined, { timeoutMs: 0, staleMs: Infinity, ...clock, busy })).rejects.toThrow('busy');
    expect(seen).toBeNull();
    expect(clock.sleeps).toBeGreaterThan(0);
    expect(clock.t - 1_000_000).toBeLessThan(1000);
  });

  it('still breaks a lock whose holder died, and runs', async () => {
    const path = lockPath('999999999\n12345\n');
    expect(await withLock(path, async () => 'ran', { timeoutMs: 0, staleMs: Infinity, ...fakeClock() })).toBe('ran');
  });

  it('waits as long as asked for a live holder, sleeping on the clock it is given', async () => {
    const path = lockPath(`${process.pid}\n12345\n`);
    const clock = fakeClock();
    await expect(withLock(path, async () => undefined, { timeoutMs: 5000, staleMs: Infinity, ...clock })).rejects.toThrow(/another mkt process holds/);
    expect(clock.t - 1_000_000).toBeGreaterThanOrEqual(5000);
  });
});
