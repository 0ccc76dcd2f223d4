'use strict';
// V8's code cache for the bundles on a Node without a compile cache of its own (Node 20 to 22.0; from 22.1 the bin
// turns on Node's, module.enableCompileCache). Without it every run parses and compiles the ~580 kB of bundles a
// listings search loads again: about a seventh of its CPU time on Node 20 (issue 43, item 5). Loaded by
// bin/mkt.cjs only there, before main, so that its modules are cached too.
//
// How: each file of the build's bundle folder is compiled as Node's loader would (the same wrapper, filename and
// `require`), through vm.Script with the code kept by an earlier run. A script whose code was missing or refused
// is written back once its run has compiled the functions it called: just before V8's flags change (src/os/v8-flags.ts
// emits 'mkt:v8-flags' before undici's --liftoff-only or `mkt mock serve`'s flags at its first long clock move;
// V8 refuses code made under other flags, so code made after that would be refused by every next run) or, for a run
// that never changes them, at exit.
// An entry written at a flags change holds only what its run compiled until then (a search that pages: what it ran
// before undici); it is marked so (its first byte, PARTIAL), and the next run that keeps V8's flags to its exit writes
// it again whole (COMPLETE), once.
// A run of `mkt mock serve` keeps entries of its own (`kind`, from bin/mkt.cjs): it runs other functions of the bundles
// it shares with the commands (core, client), and for long, so its entries, written at its exit or flags change, held
// little of what a search runs, and took the place of the search's.
// What keeps a stale entry out: the entry's name carries the file's size, modification time and inode and the
// build's folder (a build is a new folder, scripts/build-swap.mjs), and V8 itself refuses code made by another
// V8 version, under other flags or for a source of another length. Any failure costs only the cache.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

/** An entry's first byte, its mark: written at a flags change (what the run had compiled by then), or at exit. */
const PARTIAL = 0x50;
const COMPLETE = 0x43;

/**
 * Keeps the compiled code of the files under `bundleDir` in `cacheDir`. Not when source maps are on (--verbose):
 * Node reads a file's map in the loader step this replaces. Nor for a file that holds `import()` (a bundle that
 * imports an external package so): a vm.Script has no loader for it on Node 20 without an experimental flag, so
 * such a file is compiled as Node does (scripts/bundle.mjs keeps the one a search loads out of the others).
 */
function enable(bundleDir, cacheDir, kind = 'cli') {
  if (process.sourceMapsEnabled) return;
  const prefix = bundleDir + path.sep;
  const build = folderKey(bundleDir);
  // Scripts to write: a missing or refused entry at the first save; a partial one at exit only (after a flags
  // change, code made since would be refused, so it stays as it is).
  const pending = [];
  let frozen = false;
  const compile = Module.prototype._compile;
  Module.prototype._compile = function cachedCompile(content, filename) {
    if (!filename.startsWith(prefix) || !filename.endsWith('.cjs') || content.includes('import('))
      return compile.call(this, content, filename);
    const entry = entryPath(cacheDir, build, filename, kind);
    const kept = entry && readOrNothing(entry);
    const mark = kept?.[0];
    const cachedData = mark === PARTIAL || mark === COMPLETE ? kept.subarray(1) : undefined;
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    if (entry && !frozen) {
      if (cachedData === undefined || script.cachedDataRejected) pending.push({ script, entry, missing: true });
      else if (mark === PARTIAL) pending.push({ script, entry, missing: false });
    }
    const wrapper = script.runInThisContext({ displayErrors: true });
    const require = Module.createRequire(filename);
    return wrapper.call(this.exports, this.exports, require, this, filename, path.dirname(filename));
  };
  const save = (mark) => {
    frozen = true;
    for (const { script, entry, missing } of pending.splice(0)) if (mark === COMPLETE || missing) write(entry, script, mark);
  };
  process.once('mkt:v8-flags', () => save(PARTIAL));
  process.once('exit', () => save(COMPLETE));
}

/** A short, stable name for the build folder (FNV-1a of its path): entries of other builds never match. */
function folderKey(dir) {
  let h = 0x811c9dc5;
  for (let i = 0; i < dir.length; i++) h = Math.imul(h ^ dir.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}

/** The entry of one bundle file for runs of `kind`, named by the build, the file, its size, modification time and inode. */
function entryPath(cacheDir, build, filename, kind) {
  try {
    const s = fs.statSync(filename);
    return path.join(cacheDir, `${build}+${path.basename(filename)}+${s.size}+${Math.trunc(s.mtimeMs)}+${s.ino}+${kind}.v8`);
  } catch {
    return undefined;
  }
}

/** The file's bytes, or undefined when it cannot be read (none kept yet). */
function readOrNothing(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes the script's code, after its mark (PARTIAL or COMPLETE), to its entry through a temporary file and a rename, so
 * that a run reading it meanwhile finds the old entry or the new, never half of one; then removes the entries it
 * replaces (below).
 */
function write(entry, script, mark) {
  try {
    const dir = path.dirname(entry);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = `${entry}.${process.pid}.tmp`;
    fs.writeFileSync(temp, Buffer.concat([Buffer.of(mark), script.createCachedData()]));
    fs.renameSync(temp, entry);
    const ours = path.basename(entry);
    const [build, file, , , , kind] = ours.slice(0, -'.v8'.length).split('+');
    for (const name of fs.readdirSync(dir)) {
      if (!name.endsWith('.v8') || name === ours) continue;
      const [otherBuild, otherFile, , , , otherKind] = name.slice(0, -'.v8'.length).split('+');
      // Another build's, or this kind's for another version of the file (an installed package's dist/ is the same folder
      // after an upgrade), or one named before kinds: the other kind's entry of this build is its own.
      if (otherFile === file && (otherBuild !== build || otherKind === kind || otherKind === undefined))
        fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // Only the cache is lost.
  }
}

module.exports = { enable };
