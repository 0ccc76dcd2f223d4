#!/usr/bin/env node
// Build step (after tsc): bundles the CLI into a few CommonJS files in dist/bundle/, grouped by the path a
// run takes, with source maps. Loading ~60 small ES modules and commander's files cost more than half of
// what `mkt listings search` adds to `node -e ''` (resolving, reading and linking each); a few CommonJS
// bundles cost a fraction of that (issue 25, item 6). dist/bundle/modules.json names the modules of each
// bundle, so that tests can tell which of ours a run loaded (test/cli-startup-lean.e2e.test.ts).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { rolldown, RolldownMagicString } from 'rolldown';
import { writeNotices } from './notices.mjs';

const root = join(import.meta.dirname, '..');
// `--out DIR`: the build's dist folder (scripts/build.mjs builds beside the current one); the bundles go to DIR/bundle.
const outFlag = process.argv.indexOf('--out');
const out = join(outFlag > 0 ? resolve(process.argv[outFlag + 1]) : join(root, 'dist'), 'bundle');

/**
 * Dependencies left to Node: each is needed by few commands, and a test names them when they load. undici's
 * Agent and request (src/api/undici.ts) and commander are bundled: every command that talks HTTP more than once needs them.
 * yaml is bundled too (with the invest commands, which alone read it): required from node_modules, its ~70 files cost
 * each `invest run` ~35-60 ms of CPU to resolve, read and compile, where a bundle is one file the bin's code cache keeps.
 */
const EXTERNAL =
  /^(msw|@mswjs|@bundled-es-modules|ajv|ajv-formats|@inquirer|@github\/keytar|csv-parse|@jmespath-community|cli-table3|asciichart|@sinclair\/typebox)(\/|$)/;

/** A module's name: its path in this package, or from node_modules/ on for a dependency (node_modules may be a link). */
const ours = (id) =>
  relative(root, id)
    .replaceAll('\\', '/')
    .replace(/^(?:.*\/)?node_modules\//, 'node_modules/');
const matching = (re) => (id) => re.test(ours(id));

/**
 * The bundles of the commands that must start fast, highest priority first; a module goes to the first
 * group that matches it or a module that imports it. Each is what one step of `mkt listings search` needs
 * on top of the ones before it, and what a help run stops at. Every other module is placed by the
 * bundler by the dynamic imports that reach it (the mock, login, orders, investing, the rarer commands):
 * a command loads no code that it did not load as ES modules, in a few files each.
 */
const GROUPS = [
  // Every command: commander, the program and its root help (and the few lines that require a CommonJS package late,
  // which the bundler placed with --query's reader).
  {
    name: 'core',
    test: matching(
      /^(node_modules\/(commander|@commander-js\/extra-typings)\/|src\/(main|cli|context|errors|io|version|clock|suggest|redact-url)\.ts$|src\/commands\/(groups|help|examples)\.ts$|src\/config\/keys\.ts$|src\/output\/formats\.ts$|src\/os\/require-common-js\.ts$)/,
    ),
    priority: 60,
  },
  // The listings group (`mkt listings --help`).
  { name: 'listings', test: matching(/^src\/(commands\/(listings|listings-commands)|contract\/(dates|enums))\.ts$/), priority: 55 },
  // Its actions and the filter catalogue their flags come from (`mkt listings search --help`).
  {
    name: 'catalogue',
    test: matching(
      /^src\/(commands\/(listings-actions|options)|contract\/(bureau|listing-(fields|filters|query))|output\/(columns|sections|table))\.ts$/,
    ),
    priority: 50,
  },
  // --query's reader, which imports JMESPath with import(): a file of its own, so that the client's holds no
  // import() and bin/code-cache.cjs can keep its compiled code (a vm.Script has no loader for import() on Node 20).
  { name: 'select', test: matching(/^src\/output\/select\.ts$/), priority: 45 },
  // What a command that talks to the marketplace needs: settings, output, the HTTP and API clients, a handed-in token.
  // Not undici: a command's first GET goes out over node:http (src/api/one-shot.ts); the pool is the next group's.
  {
    name: 'client',
    test: matching(
      /^src\/(api\/(client|errors|http|listings|market-clock|one-shot|pacer|pagination)|auth\/(index|token-provider)|config\/(settings|timeouts)|contract\/(decode-kit|decode|demo-client|errors|rate-limits|request-path)|output\/render|state-files)\.ts$/,
    ),
    priority: 40,
  },
  // The V8 flag setter the pool and the engine's commands share (src/os/v8-flags.ts): a file of its own, so that those
  // commands do not load undici for it (in the pool's file they did), nor a search Node's v8 module (~1 ms of a start).
  { name: 'v8-flags', test: matching(/^src\/os\/v8-flags\.ts$/), priority: 38 },
  // undici's Agent and request (src/api/undici.ts), loaded by a client's second request: a file of its own, so that
  // a command that sends one request does not read it (and the mock's undici, its whole index, builds on it).
  { name: 'pool', test: matching(/^src\/api\/undici\.ts$/), priority: 35 },
];

/**
 * undici's Client requires its HTTP/2 half (client-h2.js) as it loads, and with it Node's http2, tls and
 * crypto: about a third of all undici costs at start-up, for a protocol it speaks only when a dispatcher
 * sets `allowH2` and TLS agrees on h2, which ours never does. In the bundle that require runs when a
 * connection first needs it: the same behaviour, paid for only by a connection that speaks h2.
 */
const lazyHttp2 = {
  name: 'mkt-lazy-undici-h2',
  transform: {
    filter: { id: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ },
    handler(code) {
      const eager = "const connectH2 = require('./client-h2.js')";
      // A new undici that loads it otherwise fails the build rather than loading http2 unseen.
      if (code.split(eager).length !== 2) throw new Error(`undici's client.js no longer has \`${eager}\`: see scripts/bundle.mjs`);
      const at = code.indexOf(eager);
      // Through a magic string, so that the source map follows the edit.
      const edited = new RolldownMagicString(code);
      edited.overwrite(at, at + eager.length, "const connectH2 = (...args) => require('./client-h2.js')(...args)");
      return { code: edited };
    },
  },
};

/**
 * commander requires Node's child_process as it loads (with dgram, net's handles and more), for the one thing it
 * does with it: spawning an executable subcommand (`mkt-foo` for `mkt foo`), which mkt never declares. In the
 * bundle that require runs when a spawn is asked for: the same behaviour, and every command starts without it.
 */
const lazyChildProcess = {
  name: 'mkt-lazy-commander-child-process',
  transform: {
    filter: { id: /commander[\\/]lib[\\/]command\.js$/ },
    handler(code) {
      const eager = "const childProcess = require('node:child_process');";
      // A new commander that loads it otherwise fails the build rather than loading child_process unseen.
      if (code.split(eager).length !== 2 || code.split('childProcess.').length - 1 !== code.split('childProcess.spawn(').length - 1)
        throw new Error(`commander's command.js no longer has \`${eager}\` used for spawn alone: see scripts/bundle.mjs`);
      const at = code.indexOf(eager);
      const edited = new RolldownMagicString(code);
      edited.overwrite(at, at + eager.length, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };");
      return { code: edited };
    },
  },
};

/**
 * llhttp without SIMD, a 72 kB WebAssembly text that loads only on a CPU without SIMD: left to Node, so
 * that the bundle every HTTP command loads is that much smaller. It is data alone (a Buffer), no state.
 */
const plainLlhttp = {
  name: 'mkt-external-plain-llhttp',
  resolveId: {
    filter: { id: /^\.\.\/llhttp\/llhttp-wasm\.js$/ },
    handler: (source, importer) =>
      /undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/.test(importer ?? '')
        ? { id: 'undici/lib/llhttp/llhttp-wasm.js', external: true }
        : null,
  },
};

/**
 * msw from its CommonJS build. Its package's exports name the ES build first under `module-sync`, which Node takes for a
 * `require` too wherever it can require ES modules (20.19 and later): the mock's start then ran msw's ES graph through
 * Node's ES module loader (reading each CommonJS file it imports twice, once to find its exports), and the bin's code
 * cache, which keeps compiled CommonJS files on Node 20, had none of it. Here `msw` is the file its exports give a
 * `require` without `module-sync` (read from its package.json when the build runs), found beside its package.json when
 * the bundle runs (the path is not exported by name), or `msw` as Node resolves it where that file is not there. Its
 * own graph then loads as CommonJS; the few ES-only packages it requires (rettime, until-async, …) still load as ES
 * modules. The CLI's process holds no other copy: the `mkt/mock` library (dist/mock-server, for other people's tests)
 * imports msw as they do.
 */
const mswEntry = (() => {
  const pkg = JSON.parse(readFileSync(join(root, 'node_modules/msw/package.json'), 'utf8'));
  // The first target for a require without module-sync, as Node resolves conditions: in order, nested.
  const pick = (target) => {
    if (typeof target === 'string') return target;
    if (target === null || typeof target !== 'object') return undefined;
    for (const [condition, next] of Object.entries(target))
      if (['node', 'require', 'default'].includes(condition)) {
        const found = pick(next);
        if (found !== undefined) return found;
      }
    return undefined;
  };
  const entry = pick(pkg.exports?.['.']);
  if (!entry?.endsWith('.js') || !existsSync(join(root, 'node_modules/msw', entry)))
    throw new Error(`msw's exports give no CommonJS file for a require (${entry}): see scripts/bundle.mjs mswCommonJs`);
  return entry;
})();
const MSW_COMMONJS = '\0msw-commonjs';
const mswCommonJs = {
  name: 'mkt-msw-commonjs',
  resolveId: { filter: { id: /^msw$/ }, handler: () => MSW_COMMONJS },
  load: {
    filter: { id: /^\0msw-commonjs$/ },
    // An msw installed later than the build that moved the file (a range in package.json allows it) is msw as Node gives it.
    handler: () =>
      [
        `const { dirname, join } = require('node:path');`,
        `const file = join(dirname(require.resolve('msw/package.json')), ${JSON.stringify(mswEntry)});`,
        `let msw;`,
        // Through a require of its own: the bundler would take a plain require('msw') for this module again.
        `try { msw = require(file); } catch (err) { if (err?.code !== 'MODULE_NOT_FOUND' || !String(err.message).includes(file)) throw err; msw = require('node:module').createRequire(__filename)('msw'); }`,
        `module.exports = msw;`,
        '',
      ].join('\n'),
  },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const bundle = await rolldown({
  input: {
    main: join(root, 'src/main.ts'),
    'help-render': join(root, 'src/help-render.ts'),
    // The thread a long clock move draws its arrivals on (mock-server/engine/arrivals-thread.ts starts it from this file).
    'arrivals-worker': join(root, 'mock-server/engine/arrivals-worker.ts'),
  },
  platform: 'node',
  cwd: root,
  tsconfig: join(root, 'tsconfig.build.json'),
  // Sources import each other as `.js` (NodeNext); the files are `.ts`.
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  // `msw` itself goes to mswCommonJs (its subpaths, and its dependencies, stay Node's).
  external: (id) => id !== 'msw' && EXTERNAL.test(id),
  plugins: [lazyHttp2, lazyChildProcess, plainLlhttp, mswCommonJs],
  logLevel: 'warn',
  // A module imported both statically and dynamically goes with its static importers: expected (a group
  // above holds a lazily imported module with the code that needs it anyway). Any other warning is shown.
  onLog: (level, log, handler) => (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' ? undefined : handler(level, log)),
});
const { output } = await bundle.write({
  dir: out,
  format: 'cjs',
  entryFileNames: '[name].cjs',
  chunkFileNames: '[name].cjs',
  sourcemap: true,
  // No comments (the source maps lead to them) and ASCII only: V8 reads and scans a smaller text, and one
  // non-ASCII character would make it hold the whole file as two-byte characters.
  comments: false,
  // Strict mode, as the ES modules it comes from ran in (a CommonJS file is sloppy unless it says so).
  strict: true,
  charset: 'ascii',
  codeSplitting: { groups: GROUPS },
});
await bundle.close();
const modules = {};
for (const c of output)
  if (c.type === 'chunk')
    modules[c.fileName] = c.moduleIds
      .filter((id) => !id.startsWith('\0'))
      .map(ours)
      .sort();
writeFileSync(join(out, 'modules.json'), `${JSON.stringify(modules, null, 1)}\n`);
writeNotices(out, output);
