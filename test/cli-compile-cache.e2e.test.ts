/**
 * V8's compile cache (bin/mkt.cjs `enableCompileCache`): on a Node that offers it (≥ 22.1) the bin keeps the
 * compiled code of its bundles in the user's cache directory, NODE_COMPILE_CACHE when set; Node 20 has none,
 * and then nothing is written. A cache directory that cannot be made changes nothing but the cache.
 * Real spawns of the built bin (`npm run build` first); CI runs this file under Node 20 and Node 24.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMkt, tempHome } from './helpers/cli.js';

/** Whether the running Node (the one the tests spawn the bin with) has a compile cache. */
// @types/node is Node 20's, which has no compile cache.
const offered = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/** Every file under `dir` (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** `mkt config list`: a command that runs the bundles (main, core, client) and needs no marketplace. */
const configList = (home: string, env: Record<string, string> = {}) => runMkt(['config', 'list', '-o', 'json'], { home, env });

describe('the compile cache', () => {
  it(`is kept in the user's cache directory (XDG_CACHE_HOME/mkt/compile-cache) ${offered ? 'and used again' : 'not at all on this Node'}`, async () => {
    const home = tempHome();
    const xdg = join(home, 'xdg');
    const first = await configList(home, { XDG_CACHE_HOME: xdg });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const kept = filesUnder(join(xdg, 'mkt', 'compile-cache'));
    if (offered) expect(kept.length).toBeGreaterThan(0);
    else expect(kept).toEqual([]);
    // Only there: not beside the bundles, not in HOME's default cache.
    expect(filesUnder(join(home, '.cache'))).toEqual([]);
    const written = kept.map((f) => statSync(f).mtimeMs);
    const second = await configList(home, { XDG_CACHE_HOME: xdg });
    expect(second).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    // Used, not made again: Node rewrites an entry only when V8 refused it or compiled more.
    expect(filesUnder(join(xdg, 'mkt', 'compile-cache'))).toEqual(kept);
    expect(kept.map((f) => statSync(f).mtimeMs)).toEqual(written);
  }, 60_000);

  it('goes to ~/.cache/mkt/compile-cache without XDG_CACHE_HOME, or with a relative one (the XDG rule), never the working directory', async () => {
    const home = tempHome();
    const relative = `mkt-test-relative-cache-${process.pid}`;
    try {
      const r = await configList(home, { XDG_CACHE_HOME: relative });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(existsSync(relative)).toBe(false);
      expect(filesUnder(join(home, '.cache', 'mkt', 'compile-cache')).length > 0).toBe(offered);
    } finally {
      rmSync(relative, { recursive: true, force: true });
    }
  }, 60_000);

  it("NODE_COMPILE_CACHE names the folder instead; NODE_DISABLE_COMPILE_CACHE=1 keeps nothing (Node's own switches)", async () => {
    const home = tempHome();
    const xdg = join(home, 'xdg');
    const chosen = join(home, 'chosen');
    const r = await configList(home, { XDG_CACHE_HOME: xdg, NODE_COMPILE_CACHE: chosen });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(filesUnder(chosen).length > 0).toBe(offered);
    expect(filesUnder(xdg)).toEqual([]);

    const off = await configList(home, { XDG_CACHE_HOME: xdg, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(off).toMatchObject({ code: 0, stdout: r.stdout, stderr: '' });
    expect(filesUnder(xdg)).toEqual([]);
  }, 60_000);

  it('that cannot be made (a file where its folder would be) leaves the command as it was: same output, no message', async () => {
    const home = tempHome();
    const plain = await configList(home, { XDG_CACHE_HOME: join(home, 'fine') });
    const blocked = join(home, 'blocked');
    mkdirSync(blocked);
    // A regular file named like the cache's folder: mkdir fails with ENOTDIR, even for root.
    writeFileSync(join(blocked, 'mkt'), 'not a folder');
    for (const run of [1, 2]) {
      const r = await configList(home, { XDG_CACHE_HOME: blocked });
      expect(r, `run ${run}`).toMatchObject({ code: 0, stdout: plain.stdout, stderr: '' });
    }
    expect(filesUnder(blocked)).toEqual([join(blocked, 'mkt')]);
  }, 60_000);
});
