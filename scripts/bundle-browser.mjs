#!/usr/bin/env node
// Build step (after bundle.mjs): the mock for a browser page, one ES module in dist/browser/mock.js with its
// source map (issue 40, item 3). msw is left to the page (its own copy: one set of msw's classes, the one its
// setupWorker knows). A module with a twin `X.browser.ts` beside it is bundled as the twin (the Node-only
// adapters: files, node:crypto), and the build fails when any module of the bundle still imports a Node
// builtin. dist/browser/modules.json names the modules bundled (test/browser-build.test.ts reads it).
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { rolldown } from 'rolldown';
import { writeNotices } from './notices.mjs';

const root = join(import.meta.dirname, '..');
// `--out DIR`: somewhere else (test/browser-build.test.ts builds into a folder of its own).
const outFlag = process.argv.indexOf('--out');
const out = outFlag > 0 ? resolve(process.argv[outFlag + 1]) : join(root, 'dist/browser');

/** The module the page imports: `mkt/mock`'s browser-safe entry (package.json exports `./mock` for the browser, `./mock/browser`). */
const ENTRY = 'mock-server/library/index.ts';

/** Left to the page: its msw (and what msw is made of), so that the handlers are of the classes its worker runs. */
const EXTERNAL = /^(msw|@mswjs|@bundled-es-modules)(\/|$)/;

/** Packages a page has no use for, bundled as a module of ours that refuses with a clear message. */
const STAND_INS = { undici: 'mock-server/webhooks/undici.browser.ts' };

/** A module's name: its path in this package, or from node_modules/ on for a dependency. */
const ours = (id) =>
  relative(root, id)
    .replaceAll('\\', '/')
    .replace(/^(?:.*\/)?node_modules\//, 'node_modules/');

const builtins = new Set(builtinModules);
/** Whether `source` names a Node builtin (`node:fs`, or `fs` without the scheme). */
const isBuiltin = (source) => source.startsWith('node:') || builtins.has(source.split('/')[0]);

/** Every Node builtin some bundled module asked for, with the module that asked (the build fails on any). */
const builtinImports = [];

/**
 * `./X.js` from one of our modules resolves to `./X.browser.ts` when that twin exists (a twin's own imports
 * are not redirected); the stand-ins replace their packages; a Node builtin is noted, and left out.
 */
const browserTwins = {
  name: 'mkt-browser-twins',
  resolveId(source, importer) {
    if (isBuiltin(source)) {
      builtinImports.push(`${importer ? ours(importer) : '(entry)'} imports ${source}`);
      return { id: source, external: true };
    }
    if (Object.hasOwn(STAND_INS, source)) return join(root, STAND_INS[source]);
    if (!importer || importer.includes('node_modules') || !source.startsWith('.') || !source.endsWith('.js')) return null;
    const twin = resolve(dirname(importer), `${source.slice(0, -'.js'.length)}.browser.ts`);
    return twin !== importer && existsSync(twin) ? twin : null;
  },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const bundle = await rolldown({
  input: join(root, ENTRY),
  platform: 'browser',
  cwd: root,
  tsconfig: join(root, 'tsconfig.build.json'),
  // Sources import each other as `.js` (NodeNext); the files are `.ts`.
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  external: (id) => EXTERNAL.test(id),
  plugins: [browserTwins],
  // The Buffers the answers are made of (search/listing-json.ts, route-helper/route.ts) come from the `buffer`
  // package, named by its file: the bare name `buffer` is Node's builtin.
  transform: { inject: { Buffer: [createRequire(import.meta.url).resolve('buffer/'), 'Buffer'] } },
  logLevel: 'warn',
});
const { output } = await bundle.write({
  file: join(out, 'mock.js'),
  format: 'esm',
  sourcemap: true,
  minify: true,
  // One file: the page loads one script, and the rare paths (the answer check) are twins that stay small.
  codeSplitting: false,
});
await bundle.close();
const modules = output
  .flatMap((c) => (c.type === 'chunk' ? c.moduleIds : []))
  .filter((id) => !id.startsWith('\0'))
  .map(ours)
  .sort();
const externals = [...new Set(output.flatMap((c) => (c.type === 'chunk' ? c.imports : [])))].sort();
for (const id of [...modules, ...externals]) if (isBuiltin(id)) builtinImports.push(`the bundle holds ${id}`);
if (builtinImports.length > 0) {
  rmSync(out, { recursive: true, force: true });
  throw new Error(
    `the browser build reaches Node builtins (give the module a *.browser.ts twin, or move the use onto kit/digest.ts):\n  ${[...new Set(builtinImports)].join('\n  ')}`,
  );
}
writeFileSync(join(out, 'modules.json'), `${JSON.stringify({ entry: ENTRY, externals, modules }, null, 1)}\n`);
writeNotices(out, output);
