// How a build replaces the one before it without touching what runs from that one (issue 42, item 1). A
// process started from a build keeps opening that build's files for as long as it runs: the CLI's bundles load
// their chunks lazily (the mock's OpenAPI document on its first GET /openapi.json), help texts are read at
// start, a page loads the browser bundle later. So no build is ever written where another one is:
//
//   .dist/next-PID-RAND/dist/   a build being made (scripts/build.mjs); left behind by a killed build, removed
//                               by a later one once PID is gone
//   .dist/b-STARTED-PID-RAND/   a finished build, never changed again (STARTED: ms since 1970 when it began,
//                               which bin/mkt.cjs compares with the sources' times under npx)
//   .dist/current               a link to the current build's dist/, replaced in one rename: the bin follows it,
//                               and Node names every module by its real path, so a running process goes on
//                               loading its own build's files after the link moves
//   dist/                       the current build again (hard links: no second copy), a real folder for
//                               `npm pack` (which leaves links out), package.json's exports and the tests;
//                               swapped in by two renames under the lock
//
// Two builds at once each make their own folder; the swap (link, dist/, removing old builds) runs under a
// kernel lock on .dist/lock, which dies with its holder, so the link and dist/ always name the same whole
// build. Old builds are removed by a later build: kept are the current one, the one before it and every build
// begun in the last day, for the processes still running from them.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

/** The folder of builds, beside dist/. */
export const BUILDS = '.dist';

/** How long a replaced build is kept for processes still running from it. */
const KEEP_MS = 24 * 60 * 60 * 1000;

/** A finished build's folder name, with the time it began. */
const FINISHED = /^b-(\d+)-(\d+)-[0-9a-f]+$/;

/** A folder or link a build is still writing (next-, mirror-, current-), with the process that writes it. */
const UNFINISHED = /^(?:next|mirror|current)-(\d+)-[0-9a-f]+$/;

/** Whether process `pid` exists (EPERM: it does, owned by another user). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** A new folder to build into: `dir` (.dist/next-…), whose `dist` the steps fill; `started` names the build later. */
export function stage(root) {
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const dir = join(root, BUILDS, `next-${tag}`);
  mkdirSync(join(dir, 'dist'), { recursive: true });
  return { dir, dist: join(dir, 'dist'), tag, started: Date.now() };
}

/**
 * Makes a staged build the current one: renamed to its final name, mirrored into dist/, then, under the lock,
 * the link and dist/ swapped and old builds removed. Returns the build's folder name. `pause` is awaited
 * between the link and dist/ (test/build-swap-interleavings.test.ts stops a build there).
 */
export async function publish(root, staged, pause = async () => {}) {
  const builds = join(root, BUILDS);
  const id = `b-${staged.started}-${staged.tag}`;
  renameSync(staged.dir, join(builds, id));
  const mirror = join(builds, `mirror-${staged.tag}`);
  mirrorTree(join(builds, id, 'dist'), mirror, join(root, 'dist'));
  const unlock = await lock(join(builds, 'lock'));
  try {
    const link = join(builds, `current-${staged.tag}`);
    symlinkSync(`${id}/dist`, link);
    renameSync(link, join(builds, 'current'));
    await pause('linked');
    swapDist(root, mirror, staged.tag);
    collect(root, Date.now());
  } finally {
    unlock();
  }
  return id;
}

/** The folder name of the current build, or undefined when there is none. */
export function current(root) {
  try {
    return readlinkSync(join(root, BUILDS, 'current')).split('/')[0];
  } catch {
    return undefined;
  }
}

/**
 * `to`: the files of `from` as hard links (a copy where the file system takes none), except source maps,
 * rewritten so that their sources are found from `final`, where the mirror will be (dist/ is two folders
 * higher than .dist/b-…/dist/).
 */
function mirrorTree(from, to, final) {
  mkdirSync(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const [src, dst, at] = [join(from, entry.name), join(to, entry.name), join(final, entry.name)];
    if (entry.isDirectory()) mirrorTree(src, dst, at);
    else if (entry.name.endsWith('.map')) {
      const map = JSON.parse(readFileSync(src, 'utf8'));
      map.sources = map.sources?.map((s) => relative(dirname(at), resolve(dirname(src), s)).replaceAll('\\', '/'));
      writeFileSync(dst, JSON.stringify(map));
    } else
      try {
        linkSync(src, dst);
      } catch {
        copyFileSync(src, dst);
      }
  }
}

/**
 * dist/ replaced by `mirror`: the old one moved into .dist/ (then removed), the new one renamed in. A folder
 * cannot be renamed over a full one, so these are two renames; between them only readers of dist/ itself
 * (not the bin) find nothing.
 */
function swapDist(root, mirror, tag) {
  const dist = join(root, 'dist');
  for (let attempt = 0; ; attempt++) {
    try {
      renameSync(mirror, dist);
      return;
    } catch (err) {
      if (!['ENOTEMPTY', 'EEXIST', 'EISDIR', 'ENOTDIR', 'EPERM'].includes(err.code) || attempt === 3) throw err;
    }
    try {
      renameSync(dist, join(root, BUILDS, `old-${tag}-${attempt}`));
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
  }
}

/**
 * Removes what no process can need: replaced dist/ folders, folders of builds whose process is gone, and
 * finished builds other than the current one and the one before it begun more than a day before `now`.
 */
export function collect(root, now) {
  const builds = join(root, BUILDS);
  const live = current(root);
  const names = readdirSync(builds);
  const finished = names.filter((n) => FINISHED.test(n)).sort((a, b) => Number(FINISHED.exec(b)[1]) - Number(FINISHED.exec(a)[1]));
  const previous = finished.find((n) => n !== live);
  for (const name of names) {
    const unfinished = UNFINISHED.exec(name);
    const done = FINISHED.exec(name);
    const gone =
      name.startsWith('old-')
      || (unfinished && !alive(Number(unfinished[1])))
      || (done && name !== live && name !== previous && now - Number(done[1]) > KEEP_MS);
    if (gone) rmSync(join(builds, name), { recursive: true, force: true });
  }
}

/**
 * Waits for the kernel's lock on `file` and returns its release. Without fs-native-extensions (a platform it
 * has no build for) there is no lock: each rename is still whole, only the link and dist/ of two builds
 * finishing together may name different builds until the next build.
 */
async function lock(file) {
  let locks;
  try {
    locks = createRequire(import.meta.url)('fs-native-extensions');
  } catch {
    return () => {};
  }
  const fd = openSync(file, 'a');
  try {
    await locks.waitForLock(fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return () => {
    try {
      locks.unlock(fd);
    } finally {
      closeSync(fd);
    }
  };
}
