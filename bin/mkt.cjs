#!/usr/bin/env node
'use strict';
// The bin: answers `--version` and help without loading ES modules or commander (issue 14, item 6:
// an ES entry point and commander cost a third of `node -e ''` before anything is done), and hands
// everything else to main, setting the exit code it returns. Nothing under src/ calls process.exit.
// main is the CommonJS bundle of src/ (scripts/bundle.mjs): a few files by run path, not ~60 ES modules.
// The build is never made here (issue 42, item 1): `npx mkt` and a linked `mkt` run the build that is there,
// and one that is missing (or, under npx, older than the sources) is named with the command that makes it.
const fs = require('node:fs');
const path = require('node:path');

const argv = process.argv.slice(2);
const root = path.join(__dirname, '..');

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // Scripts call this to probe for mkt. package.json's version is VERSION (test/http-client.test.ts).
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  const dist = buildDir();
  const stale = process.env.npm_lifecycle_event === 'npx' ? staleBy(dist) : undefined;
  if (stale !== undefined) {
    process.stderr.write(`mkt: the build (${dist}) is older than ${stale}, changed since: ${rebuild()}\n`);
    process.exitCode = 1;
  } else if (argv[0] === 'help' || argv.at(-1) === '--help' || argv.at(-1) === '-h') {
    // Help by its look alone, so that other commands do not load the cache module; it checks the rest.
    const help = require('./help-cache.cjs');
    const where = help.locate(argv, dist);
    const kept = where && help.read(where);
    if (kept !== undefined) help.writeStdout(kept);
    else run(dist, help, where).then((code) => (process.exitCode = code), crashed);
  } else {
    run(dist, undefined, undefined).then((code) => (process.exitCode = code), crashed);
  }
}

/**
 * The build to run, by its real path: the one .dist/current links to (scripts/build-swap.mjs), so that every
 * module and text this run loads later is that build's, even once a newer build has been swapped in (Node names
 * modules by their real paths); dist/ where there is no .dist (a package installed from its tarball).
 */
function buildDir() {
  try {
    return fs.realpathSync.native(path.join(root, '.dist', 'current'));
  } catch {
    return path.join(root, 'dist');
  }
}

/** The command that makes the build: in a clone `npm run build` (`npm ci` first without the compiler), else a reinstall. */
function rebuild() {
  if (!fs.existsSync(path.join(root, 'scripts', 'build.mjs'))) return 'reinstall mkt';
  try {
    require.resolve('typescript/package.json', { paths: [root] });
  } catch {
    return `run \`npm ci\` in ${root}`;
  }
  return `run \`npm run build\` in ${root}`;
}

/**
 * Under npx, the first source file (src/, mock-server/, scripts/, package and tsconfig files) changed after
 * the build began, or undefined. Only a build scripts/build.mjs made says when it began (.dist/b-STARTED-…);
 * only npx pays for the look (a few ms against npx's few hundred): a cron job's `mkt` runs what is built.
 */
function staleBy(dist) {
  const began = /[\\/]\.dist[\\/]b-(\d+)-[^\\/]+[\\/]dist$/.exec(dist);
  if (!began || !fs.existsSync(path.join(root, 'src'))) return undefined;
  const started = Number(began[1]);
  const files = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
  for (const dir of ['src', 'mock-server', 'scripts'])
    for (const e of fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true }))
      if (e.isFile() && !e.name.endsWith('.md')) files.push(path.relative(root, path.join(e.parentPath, e.name)));
  return files.find((f) => (fs.statSync(path.join(root, f), { throwIfNoEntry: false })?.mtimeMs ?? 0) > started);
}

/**
 * main reports its own failures and returns the exit code; a rejection here is a failure to run it at all
 * (the bundle broken: a damaged install). Exit 1, an unexpected failure, with its stack, not left to
 * Node, whose --unhandled-rejections=warn or none would end the run with 0.
 */
function crashed(err) {
  process.stderr.write(`mkt: ${(err && err.stack) || String(err)}\n`);
  process.exitCode = 1;
}

/**
 * Runs main from the build in `dist`; a help run (`where`) that commander answered cleanly is kept for the next
 * time. No build there: exit 1, as for a damaged install, naming the command that makes one.
 */
async function run(dist, help, where) {
  const entry = path.join(dist, 'bundle', where === undefined ? 'main.cjs' : 'help-render.cjs');
  if (!fs.existsSync(entry)) {
    process.stderr.write(`mkt: no build of mkt here (${entry} is missing): ${rebuild()}\n`);
    return 1;
  }
  // The bundles' stack traces name src/ files and lines through their source maps; reading the maps costs
  // start-up time, so only with --verbose, the flag that prints a stack (or with --enable-source-maps).
  if (argv.includes('--verbose')) process.setSourceMapsEnabled(true);
  // Before main is required, so that main's modules are cached too.
  enableCompileCache(path.dirname(entry));
  if (where === undefined) return require(entry).main(argv);
  const { renderHelp } = require(entry);
  const { code, stdout, stderr } = await renderHelp(argv, where.width);
  help.writeStdout(stdout);
  process.stderr.write(stderr);
  if (code === 0 && stderr === '') help.keep(where, stdout);
  return code;
}

/**
 * Node ≥ 22.1 keeps the compiled code of mkt and its dependencies between runs (V8's compile cache: about a
 * tenth of `mkt listings search`'s CPU time on Node 24); on an older Node, code-cache.cjs keeps that of the
 * bundles (in the folder's `v8-code-VERSION-ARCH`: a tenth of the search's CPU time on Node 20; `mkt mock serve`'s
 * entries apart from the commands'). The cache is the user's:
 * NODE_COMPILE_CACHE when set (Node has then enabled it already), else `mkt/compile-cache` in the user's cache
 * directory (as help-cache.cjs finds it); never the package's folder, which may be read-only, nor the shared
 * temporary directory (Node's default), where another user's folder of the same name would refuse us.
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off (Node's own switch). A folder that cannot be made or written costs
 * only the cache: Node says so in its answer, it does not throw (and the try keeps it so).
 */
function enableCompileCache(bundleDir) {
  const { enableCompileCache: enable } = require('node:module');
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return;
  const folder = path.join(userCacheBase(process.env), 'mkt', 'compile-cache');
  try {
    if (typeof enable === 'function') enable(process.env.NODE_COMPILE_CACHE ? undefined : folder);
    else
      require('./code-cache.cjs').enable(
        bundleDir,
        path.join(process.env.NODE_COMPILE_CACHE || folder, `v8-code-${process.version}-${process.arch}`),
        // Global options may come first (`mkt --profile x mock serve`).
        argv.some((a, i) => a === 'mock' && argv[i + 1] === 'serve') ? 'serve' : 'cli',
      );
  } catch {
    // Only the cache is lost.
  }
}

/** The user's cache directory: XDG_CACHE_HOME when it is an absolute path (the XDG rule), else ~/.cache. */
function userCacheBase(env) {
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) return env.XDG_CACHE_HOME;
  return path.join(env.HOME || require('node:os').homedir(), '.cache');
}
