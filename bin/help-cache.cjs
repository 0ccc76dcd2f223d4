'use strict';
// Help without the command tree (issue 14, item 6): commander's own help text, kept in files keyed by
// everything it depends on, so that `mkt … --help` prints a file instead of loading ES modules and
// commander. CommonJS, because an ES entry point alone costs a fifth of `node -e ''`.
//
// The text is always commander's: `npm run build` renders every command's `--help` for a pipe (width 80,
// no colour) into dist/help/; any other help run (a terminal's width, colour, `help <group>`) renders
// through commander once and is kept in the user's cache directory under the build's identity.
// test/cli-help-cache.e2e.test.ts checks every command's kept text against commander's live output.
const fs = require('node:fs');
const path = require('node:path');

/** A word of a command path: nothing that could leave the cache directory or be an option. */
const WORD = /^[a-z0-9][a-z0-9-]*$/;

/**
 * The argv forms answered from a file: `PATH… --help|-h` and `help PATH…`, every other word a plain
 * command word. Anything else (options, values, `--`) goes to commander.
 */
function isHelpArgv(argv) {
  if (argv.length === 0) return false;
  const last = argv[argv.length - 1];
  const words = last === '--help' || last === '-h' ? argv.slice(0, -1) : argv[0] === 'help' ? argv : null;
  return words !== null && words.every((w) => WORD.test(w));
}

/** The width help wraps to, as src/commands/help.ts `helpWidth` finds it for stdout. */
function helpWidth(env, stdoutIsTTY, columns) {
  if (stdoutIsTTY && typeof columns === 'number' && columns > 0) return columns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}

/** Whether commander would keep colour in stdout's text (its `useColor` and `hasColors`). */
function hasColors(env, stdoutIsTTY) {
  if (env.NO_COLOR || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.FORCE_COLOR || env.CLICOLOR_FORCE !== undefined) return true;
  return stdoutIsTTY && process.stdout.hasColors();
}

/**
 * The file name of one help text: the argv, the width and the colour choice (`mkt.listings.--help.w80.txt`).
 * `-h` is `--help` (one option of commander's), so it reads the text the build kept for `--help`.
 */
function keyOf(argv, width, colour) {
  const words = argv.map((w) => (w === '-h' ? '--help' : w));
  return `${['mkt', ...words].join('.')}.w${width}${colour ? '.c' : ''}.txt`;
}

/**
 * The package.json of package `name` as Node would find it from `dir` (node_modules folders up the tree),
 * with the folder it is in; undefined when there is none. Read directly: require.resolve costs more here
 * than all the rest of a kept help.
 */
function findPackage(dir, name) {
  for (let d = dir; ; d = path.dirname(d)) {
    if (path.basename(d) !== 'node_modules') {
      const at = path.join(d, 'node_modules', name);
      try {
        return { dir: at, json: JSON.parse(fs.readFileSync(path.join(at, 'package.json'), 'utf8')) };
      } catch {
        // Not installed at this level.
      }
    }
    if (path.dirname(d) === d) return undefined;
  }
}

/** The version of the commander that formats help: the one @commander-js/extra-typings, which mkt imports, loads. */
function commanderVersion() {
  const typings = findPackage(path.join(__dirname, '..'), '@commander-js/extra-typings');
  // Node looks for a package's own dependencies from where its files really are (symlinks resolved).
  return typings && findPackage(fs.realpathSync.native(typings.dir), 'commander')?.json.version;
}

/**
 * The build's identity (`0.1.0-<hash of dist>+commander.14.0.3`), or undefined when the build rendered no
 * help, or with another commander than the one installed now (then every help goes to commander).
 */
function buildId(dist) {
  try {
    const build = fs.readFileSync(path.join(dist, 'help', 'BUILD'), 'utf8').trim();
    return build.endsWith(`+commander.${commanderVersion()}`) ? build : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The user's cache directory for this build's help texts: under XDG_CACHE_HOME when it is an absolute path (the XDG
 * rule, as bin/mkt.cjs reads it for the code cache), else ~/.cache; a relative one would put texts under the working directory.
 */
function userCacheDir(env, build) {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || require('node:os').homedir(), '.cache');
  return path.join(base, 'mkt', 'help', build);
}

/** Whether stdout is a terminal. node:tty (and net under it) is loaded only for a character device: a pipe or file needs neither. */
function stdoutIsTTY() {
  try {
    if (!fs.fstatSync(1).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return require('node:tty').isatty(1);
}

/**
 * Where one help run's text is, or would be kept: the build's own file first, then the user's cache. `dist`
 * is the build the bin runs (bin/mkt.cjs), read through its real path: a build swapped in meanwhile does not
 * mix its texts with this one's.
 */
function locate(argv, dist, env = process.env) {
  if (!isHelpArgv(argv)) return undefined;
  const build = buildId(dist);
  if (build === undefined) return undefined;
  const tty = stdoutIsTTY();
  const width = helpWidth(env, tty, tty ? process.stdout.columns : undefined);
  const key = keyOf(argv, width, hasColors(env, tty));
  return { width, built: path.join(dist, 'help', key), cached: path.join(userCacheDir(env, build), key) };
}

/** The kept text of `where`, or undefined. */
function read(where) {
  for (const file of [where.built, where.cached]) {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      // Not kept there.
    }
  }
  return undefined;
}

/** Keeps a text commander printed; a cache that cannot be written only costs speed. */
function keep(where, text) {
  try {
    fs.mkdirSync(path.dirname(where.cached), { recursive: true });
    // Written whole under a temporary name and renamed, so a concurrent run never reads half a text.
    const tmp = `${where.cached}.${process.pid}`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, where.cached);
  } catch {
    // A read-only home: help still works, from commander.
  }
}

/** Writes `text` to stdout synchronously; a reader that went away (`mkt --help | head -1`) ends it quietly. */
function writeStdout(text) {
  const buf = Buffer.from(text);
  let at = 0;
  while (at < buf.length) {
    try {
      at += fs.writeSync(1, buf, at);
    } catch (err) {
      if (err.code === 'EAGAIN') {
        // A non-blocking pipe that is full: let the stream wait for it.
        process.stdout.write(buf.subarray(at));
        return;
      }
      if (err.code === 'EPIPE') return;
      throw err;
    }
  }
}

module.exports = { isHelpArgv, helpWidth, keyOf, locate, read, keep, writeStdout, commanderVersion };
