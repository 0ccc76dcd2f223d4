/**
 * V8's compile cache (bin/mkt.cjs `enableCompileCache`): on a Node that offers it (≥ 22.1) the bin keeps the
 * compiled code of its bundles in the user's cache directory, NODE_COMPILE_CACHE when set; on an older Node
 * bin/code-cache.cjs keeps the bundles' code there (in `v8-code-VERSION-ARCH`). A cache directory that cannot be
 * made changes nothing but the cache. Real spawns of the built bin (`npm run build` first); CI runs this file
 * under Node 20 and Node 24.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN, runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

/** Whether the running Node (the one the tests spawn the bin with) has a compile cache of its own. */
// @types/node is Node 20's, which has no compile cache.
const nodes = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';
/** Whether the bin keeps the bundles' code itself instead (bin/code-cache.cjs). */
const bins = !nodes;
/** Whether a run keeps compiled code at all. */
const offered = nodes || bins;

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
    // Used, not made again: Node (and bin/code-cache.cjs) rewrites an entry only when V8 refused it or compiled more.
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

/** Every entry with its modification time, by name. */
const entries = (dir: string) => Object.fromEntries(filesUnder(dir).map((f) => [f, statSync(f).mtimeMs]));

describe.runIf(bins)("the bin's own code cache (Node < 22.1)", () => {
  let mock: TestMock;
  beforeAll(async () => {
    mock = await startMock({ listings: 40 });
  });
  afterAll(async () => {
    await mock.close();
  });
  const SEARCH = ['listings', 'search', '--fico_score=760-779', '-o', 'json'];
  const search = (home: string, xdg: string, args = SEARCH) => runMkt(args, { home, env: { ...mock.env, XDG_CACHE_HOME: xdg } });

  // A search sends one request, over node:http (src/api/one-shot.ts): V8's flags never change and its bundles are
  // written at exit. Paging sends more, through undici: written before undici turns on --liftoff-only.
  it.each([
    ['one request: written at exit', SEARCH, ['core', 'catalogue', 'client']],
    [
      "pages through undici: written before V8's flags change (--liftoff-only), not at exit",
      ['listings', 'search', '--all', '--limit', '3', '-o', 'ndjson'],
      ['core', 'catalogue', 'client', 'pool'],
    ],
  ])(
    "keeps a request's bundles in a way the next run takes, %s",
    async (_what, args, bundles) => {
      const home = tempHome();
      const xdg = join(home, 'xdg');
      const folder = join(xdg, 'mkt', 'compile-cache', `v8-code-${process.version}-${process.arch}`);
      const first = await search(home, xdg, args);
      expect(first).toMatchObject({ code: 0, stderr: '' });
      const kept = entries(folder);
      // The bundles the run loads: core, the listings catalogue and the HTTP client among them.
      for (const bundle of bundles)
        expect(
          Object.keys(kept).some((f) => f.includes(`+${bundle}.cjs+`)),
          bundle,
        ).toBe(true);
      for (const run of [2, 3]) {
        const again = await search(home, xdg, args);
        expect(again, `run ${run}`).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
        // Code V8 refused (made under other flags) would be made and written again by every run.
        expect(entries(folder), `run ${run}`).toEqual(kept);
      }
    },
    60_000,
  );

  it("completes, once, the entries a run wrote when V8's flags changed: the next run that keeps them to its exit writes them whole", async () => {
    const home = tempHome();
    const xdg = join(home, 'xdg');
    const folder = join(xdg, 'mkt', 'compile-cache', `v8-code-${process.version}-${process.arch}`);
    // Paging turns on --liftoff-only: its entries hold what the run had compiled by then (as `mkt mock serve`'s do).
    const paged = await search(home, xdg, ['listings', 'search', '--all', '--limit', '3', '-o', 'ndjson']);
    expect(paged).toMatchObject({ code: 0, stderr: '' });
    const shared = Object.keys(entries(folder)).filter((f) => /\+(core|catalogue|client)\.cjs\+/.test(f));
    expect(shared).toHaveLength(3);
    for (const f of shared) expect(readFileSync(f)[0], f).toBe(0x50);
    // Written again means a new file renamed into place: a new inode (modification times may be whole seconds).
    const inodes = Object.fromEntries(shared.map((f) => [f, statSync(f).ino]));
    const first = await search(home, xdg);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const completed = entries(folder);
    for (const f of shared) {
      expect(statSync(f).ino, f).not.toBe(inodes[f]);
      expect(readFileSync(f)[0], f).toBe(0x43);
    }
    // Once: the next runs, of either kind, take the whole entries and write nothing.
    for (const args of [SEARCH, ['listings', 'search', '--all', '--limit', '3', '-o', 'ndjson']]) {
      const again = await search(home, xdg, args);
      expect(again).toMatchObject({ code: 0, stderr: '' });
      for (const f of shared) expect(entries(folder)[f], f).toBe(completed[f]);
    }
  }, 60_000);

  it("keeps mkt mock serve's entries apart: a search after a serve writes and takes its own", async () => {
    const home = tempHome();
    const xdg = join(home, 'xdg');
    const folder = join(xdg, 'mkt', 'compile-cache', `v8-code-${process.version}-${process.arch}`);
    const serve = spawn(process.execPath, [BIN, 'mock', 'serve', '--port', '0', '--listings', '40', '--frozen'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CACHE_HOME: xdg },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    serve.stdout.on('data', (d: Buffer) => (out += d.toString()));
    for (let i = 0; i < 2000 && !out.includes('listening on'); i++) await new Promise((r) => setTimeout(r, 5));
    expect(out).toContain('listening on');
    const exited = new Promise((r) => serve.once('exit', r));
    serve.kill('SIGTERM');
    await exited;
    // The serve wrote the bundles it shares with a search at its exit, as its own.
    const core = (kind: string) => Object.keys(entries(folder)).filter((f) => f.includes('+core.cjs+') && f.endsWith(`+${kind}.v8`));
    expect(core('serve')).toHaveLength(1);
    expect(core('cli')).toEqual([]);
    const served = entries(folder);
    const first = await search(home, xdg);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(core('cli')).toHaveLength(1);
    // Written beside the serve's, not over them; the next search takes its own and writes nothing.
    for (const [f, at] of Object.entries(served)) expect(entries(folder)[f], f).toBe(at);
    const kept = entries(folder);
    expect(await search(home, xdg)).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    expect(entries(folder)).toEqual(kept);
  }, 60_000);

  it("removes the entries one it writes replaces: another build's, this kind's for another version of the file, one named before kinds; not the other kind's", async () => {
    const home = tempHome();
    const xdg = join(home, 'xdg');
    const folder = join(xdg, 'mkt', 'compile-cache', `v8-code-${process.version}-${process.arch}`);
    expect(await search(home, xdg)).toMatchObject({ code: 0, stderr: '' });
    const core = Object.keys(entries(folder)).find((f) => f.includes('+core.cjs+'))!;
    const [build, file, size, mtime, ino] = basename(core).slice(0, -'.v8'.length).split('+');
    const planted = {
      otherBuild: join(folder, `x${build}+${file}+${size}+${mtime}+${ino}+cli.v8`),
      // An installed package's dist/ after an upgrade: the same folder (build), the file another size and inode.
      olderVersion: join(folder, `${build}+${file}+1+${mtime}+1+cli.v8`),
      beforeKinds: join(folder, `${build}+${file}+${size}+${mtime}+${ino}.v8`),
      otherKind: join(folder, `${build}+${file}+1+${mtime}+1+serve.v8`),
    };
    for (const f of Object.values(planted)) writeFileSync(f, 'stale');
    rmSync(core);
    expect(await search(home, xdg)).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(core)).toBe(true);
    expect(Object.fromEntries(Object.entries(planted).map(([k, f]) => [k, existsSync(f)]))).toEqual({
      otherBuild: false,
      olderVersion: false,
      beforeKinds: false,
      otherKind: true,
    });
  }, 60_000);

  it('takes a damaged entry for none: the same answer, no message, the entry made again', async () => {
    const home = tempHome();
    const xdg = join(home, 'xdg');
    const folder = join(xdg, 'mkt', 'compile-cache', `v8-code-${process.version}-${process.arch}`);
    const first = await search(home, xdg);
    const files = filesUnder(folder);
    for (const f of files) writeFileSync(f, 'not code at all'.repeat(100));
    const damaged = await search(home, xdg);
    expect(damaged).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    for (const f of files) expect(readFileSync(f).includes('not code at all'), f).toBe(false);
    // --query imports JMESPath (an external package) with import(): its bundle is compiled as Node does it.
    const queried = await runMkt(['listings', 'search', '--fico_score=760-779', '--query', 'result[0].listing_number'], {
      home,
      env: { ...mock.env, XDG_CACHE_HOME: xdg },
    });
    expect(queried).toMatchObject({ code: 0, stderr: '' });
    expect(queried.stdout).toBe(`${JSON.stringify(JSON.parse(first.stdout).result[0].listing_number)}\n`);
  }, 60_000);
});
