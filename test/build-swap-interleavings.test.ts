/**
 * Two faults at once for the build's swap (scripts/build-swap.mjs, issue 42 item 1): builds that finish
 * together, and a build killed before it publishes, as real processes (test/helpers/fake-build.mjs: the
 * real stage and publish, with steps that cost nothing). After any of them the link .dist/current and dist/
 * name one whole build, the same one; nothing a live build is writing is removed, and what a dead one left is.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const FAKE = resolve(import.meta.dirname, 'helpers/fake-build.mjs');
/** Files in each fake build: enough turns of the event loop for builds side by side to interleave. */
const FILES = 30;
const DAY = 24 * 60 * 60 * 1000;

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function freshRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'mkt-build-swap-'));
  roots.push(root);
  return root;
}

interface Built {
  child: ChildProcess;
  /** Resolves once the process has ended: its exit code and what it printed. */
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Resolves once it printed `line`. */
  printed(line: string): Promise<void>;
}

/** Starts a fake build of `root` (killed after 30 s at the latest); `--hang`, `--wait`, `--pause` as fake-build.mjs says. */
function build(root: string, mode?: '--hang' | '--wait' | '--pause'): Built {
  const child = spawn(process.execPath, [FAKE, root, String(FILES), ...(mode ? [mode] : [])], { stdio: ['pipe', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  let stdout = '';
  let stderr = '';
  const waiting: { line: string; done: () => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    for (const w of waiting) if (stdout.split('\n').includes(w.line)) w.done();
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((ok) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      ok({ code, stdout, stderr });
    }),
  );
  return { child, done, printed: (line) => new Promise((ok) => waiting.push({ line, done: ok })) };
}

/** The tag a build's files carry, from its folder name (b-STARTED-PID-RAND). */
const tagOf = (id: string) => id.replace(/^b-\d+-/, '');

/** The files of a build folder (`bundle/` and `help/BUILD`), each checked to name `tag`. */
function expectWhole(dist: string, tag: string): void {
  const bundle = readdirSync(join(dist, 'bundle')).filter((f) => f.endsWith('.cjs'));
  expect(bundle.length, dist).toBe(FILES);
  for (const f of bundle) expect(readFileSync(join(dist, 'bundle', f), 'utf8'), `${dist}/bundle/${f}`).toBe(tag);
  expect(readFileSync(join(dist, 'help', 'BUILD'), 'utf8')).toBe(tag);
}

/** The current build's folder name, after checking that the link and dist/ hold that whole build. */
function currentWhole(root: string): string {
  const id = readlinkSync(join(root, '.dist', 'current')).split('/')[0]!;
  expectWhole(join(root, '.dist', 'current'), tagOf(id));
  expectWhole(join(root, 'dist'), tagOf(id));
  return id;
}

describe('the build swap (scripts/build-swap.mjs)', () => {
  it('builds finishing together leave one whole build, the same in .dist/current and dist/, and no folder half made', async () => {
    const root = freshRoot();
    for (let round = 0; round < 5; round++) {
      // Each stages its build, then all publish at once: their swaps meet.
      const builds = [build(root, '--wait'), build(root, '--wait'), build(root, '--wait')];
      await Promise.all(builds.map((b) => b.printed('staged')));
      for (const b of builds) b.child.stdin!.write('go\n');
      const results = await Promise.all(builds.map((b) => b.done));
      for (const r of results) expect(r.code, r.stderr).toBe(0);
      const ids = results.map((r) => r.stdout.replace('staged\n', '').trim());
      expect(ids).toContain(currentWhole(root));
      // What is left: finished builds (all begun within the day: kept), the link and the lock.
      const names = readdirSync(join(root, '.dist'));
      expect(names.filter((n) => !/^b-\d+-\d+-[0-9a-f]+$/.test(n)).sort()).toEqual(['current', 'lock']);
      expect(names).toEqual(expect.arrayContaining(ids));
    }
  });

  it('a build that finishes while another is between its link and dist/ waits for it (the lock)', async () => {
    const root = freshRoot();
    const held = build(root, '--pause');
    await held.printed('paused');
    // The other build runs whole if nothing stops it; given a second, it must still be waiting for the lock.
    const other = build(root);
    const early = await Promise.race([other.done.then(() => true), new Promise<boolean>((ok) => setTimeout(() => ok(false), 1000))]);
    expect(early, 'the second build swapped while the first held the lock').toBe(false);
    held.child.stdin!.write('go\n');
    const [first, second] = await Promise.all([held.done, other.done]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    // The later swap wins both the link and dist/.
    expect(currentWhole(root)).toBe(second.stdout.trim());
  });

  it('a build killed before it publishes leaves the current build as it was; a later build removes what it left', async () => {
    const root = freshRoot();
    const first = await build(root).done;
    expect(first.code, first.stderr).toBe(0);
    const before = statSync(join(root, 'dist', 'bundle', 'f0.cjs')).ino;

    const killed = build(root, '--hang');
    await killed.printed('staged');
    killed.child.kill('SIGKILL');
    await killed.done;
    expect(currentWhole(root)).toBe(first.stdout.trim());
    expect(statSync(join(root, 'dist', 'bundle', 'f0.cjs')).ino).toBe(before);
    const left = `next-${killed.child.pid}-`;
    expect(readdirSync(join(root, '.dist')).some((n) => n.startsWith(left))).toBe(true);

    const next = await build(root).done;
    expect(next.code, next.stderr).toBe(0);
    expect(currentWhole(root)).toBe(next.stdout.trim());
    expect(readdirSync(join(root, '.dist')).some((n) => n.startsWith(left))).toBe(false);
  });

  it('a build killed between its link and dist/ leaves a whole build at each; the next build is not kept waiting by its lock', async () => {
    const root = freshRoot();
    const first = await build(root).done;
    expect(first.code, first.stderr).toBe(0);
    const killed = build(root, '--pause');
    await killed.printed('paused');
    killed.child.kill('SIGKILL');
    await killed.done;
    // The link names the killed build (whole: it was finished before it was linked), dist/ still the first.
    const linked = readlinkSync(join(root, '.dist', 'current')).split('/')[0]!;
    expect(linked).not.toBe(first.stdout.trim());
    expectWhole(join(root, '.dist', 'current'), tagOf(linked));
    expectWhole(join(root, 'dist'), tagOf(first.stdout.trim()));
    // The kernel's lock died with it.
    const next = await build(root).done;
    expect(next.code, next.stderr).toBe(0);
    expect(currentWhole(root)).toBe(next.stdout.trim());
    expect(readdirSync(join(root, '.dist')).filter((n) => n.includes(`-${killed.child.pid}-`) && !n.startsWith('b-'))).toEqual([]);
  });

  it("dist/ is the build's files as hard links, its source maps rewritten to find the clone's sources from dist/", async () => {
    const root = freshRoot();
    const r = await build(root).done;
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(join(root, 'dist', 'bundle', 'f1.cjs')).ino).toBe(statSync(join(root, '.dist', 'current', 'bundle', 'f1.cjs')).ino);
    const sources = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { sources: string[] }).sources;
    expect(sources(join(root, '.dist', 'current', 'bundle', 'f0.cjs.map'))).toEqual(['../../../../src/a.ts']);
    expect(sources(join(root, 'dist', 'bundle', 'f0.cjs.map'))).toEqual(['../../src/a.ts']);
  });

  it('keeps the current build, the one before it and any begun within a day; removes older ones and what dead builds left', async () => {
    const root = freshRoot();
    const now = Date.now();
    // A process that has ended: its pid names a dead build's folders.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const made = {
      oldest: `b-${now - 3 * DAY}-1-aa`,
      previous: `b-${now - 2 * DAY}-1-bb`,
      recent: `b-${now - DAY / 2}-1-cc`,
      deadNext: `next-${dead}-dd`,
      deadMirror: `mirror-${dead}-ee`,
      liveMirror: `mirror-${process.pid}-ff`,
      replaced: 'old-1-aa-0',
    };
    for (const name of Object.values(made)) mkdirSync(join(root, '.dist', name), { recursive: true });
    writeFileSync(join(root, '.dist', made.oldest, 'x'), '');
    const r = await build(root).done;
    expect(r.code, r.stderr).toBe(0);
    const names = readdirSync(join(root, '.dist'));
    expect(names).toEqual(expect.arrayContaining([r.stdout.trim(), made.recent, made.liveMirror]));
    // The one before the current is the newest other build: `recent`, so `previous` (two days old) goes too.
    for (const gone of [made.oldest, made.previous, made.deadNext, made.deadMirror, made.replaced]) expect(names).not.toContain(gone);
  });
});
