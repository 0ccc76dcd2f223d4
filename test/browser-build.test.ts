/**
 * The browser build of the mock (scripts/bundle-browser.mjs, issue 40 item 3): built into a folder of its
 * own, it holds no module that imports a Node builtin and leaves msw to the page; the rooms a page runs
 * import no Node builtin but through the adapters named here (each with a `*.browser.ts` twin the bundle
 * takes instead, or reached only from Node); each twin offers its Node module's exports. Prints the size gzipped.
 */
import { execFileSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as NodeDigest from '../mock-server/kit/digest.js';
import type * as BrowserDigest from '../mock-server/kit/digest.browser.js';
import type * as NodeKeep from '../mock-server/durability/keep.js';
import type * as BrowserKeep from '../mock-server/durability/keep.browser.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MOCK = join(ROOT, 'mock-server');

/** The rooms a page runs (with the loose files app.ts and context.ts): no Node builtin but through the adapters below. */
const BROWSER_ROOMS = [
  'kit/',
  'world/',
  'search/',
  'engine/',
  'seed/',
  'views/',
  'offers/',
  'oauth/',
  'operations/',
  'routes/',
  'route-helper/',
  'request-log/',
  'dashboard/',
];
const BROWSER_FILES = ['app.ts', 'context.ts'];

/**
 * The Node-only adapters of those rooms, each with why a page never loads it: a twin the bundle takes in its
 * place, or the twin's Node module is its only importer.
 */
const NODE_ADAPTERS: Record<string, string> = {
  'kit/digest.ts': 'twin kit/digest.browser.ts',
  'world/snapshot-shelf.ts': 'twin world/snapshot-shelf.browser.ts',
  'world/persistence.ts': 'the state files: imported by durability/ and the Node shelf only',
  'world/state-dir.ts': 'the --state folder: imported by durability/ and the Node shelf only',
  'engine/arrivals-thread.ts':
    "a long move's arrivals on another thread: imported by library/server.ts (`mkt mock serve`) and library/node.ts (Node's entry) only",
  'engine/arrivals-worker.ts': "that thread's own file: started by arrivals-thread.ts, imported by no module",
  'engine/arrivals-job.ts': 'what the two threads share (types and constants): imported by arrivals-thread.ts and arrivals-worker.ts only',
};

const builtins = new Set(builtinModules);
const isBuiltin = (source: string): boolean => source.startsWith('node:') || builtins.has(source.split('/')[0]!);

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The modules `text` imports (static and dynamic, type imports left out: they are erased), comments left out. */
function runtimeImports(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

describe('the browser build', () => {
  let out: string;
  let built: { entry: string; externals: string[]; modules: string[] };
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'mkt-browser-build-'));
    execFileSync(process.execPath, [join(ROOT, 'scripts/bundle-browser.mjs'), '--out', out], { stdio: 'pipe', timeout: 120_000 });
    built = JSON.parse(readFileSync(join(out, 'modules.json'), 'utf8')) as typeof built;
  }, 150_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('bundles no module that imports a Node builtin, and leaves msw to the page', () => {
    expect(built.modules.filter(isBuiltin)).toEqual([]);
    expect(built.externals).toEqual(['msw']);
    // The twins are bundled, not their Node modules (nor what only those reach: the files of --state).
    for (const f of [
      'mock-server/kit/digest.ts',
      'mock-server/durability/keep.ts',
      'mock-server/durability/operation-log.ts',
      'mock-server/world/persistence.ts',
      'mock-server/http/answer-check.ts',
    ])
      expect(built.modules).not.toContain(f);
    expect(built.modules).toContain('mock-server/kit/digest.browser.ts');
    // Every bundled module of ours that imports a builtin would be named: none does (the script fails the build otherwise).
    for (const m of built.modules.filter((id) => id.startsWith('mock-server/') || id.startsWith('src/')))
      expect(runtimeImports(readFileSync(join(ROOT, m), 'utf8')).filter(isBuiltin), m).toEqual([]);
  });

  it('prints its size gzipped', () => {
    const code = readFileSync(join(out, 'mock.js'));
    const gzipped = gzipSync(code, { level: 9 }).length;
    console.log(
      `browser build: ${built.modules.length} modules, ${(code.length / 1024).toFixed(0)} KiB, ${(gzipped / 1024).toFixed(0)} KiB gzipped`,
    );
    expect(existsSync(join(out, 'mock.js.map'))).toBe(true);
  });
});

describe('the rooms a page runs', () => {
  it('import no Node builtin but through the Node-only adapters named', () => {
    const files = [...BROWSER_ROOMS.flatMap((room) => tsFiles(join(MOCK, room))), ...BROWSER_FILES.map((f) => join(MOCK, f))];
    const problems = files.flatMap((f) => {
      const name = relative(MOCK, f).replaceAll('\\', '/');
      if (name in NODE_ADAPTERS) return [];
      return runtimeImports(readFileSync(f, 'utf8'))
        .filter(isBuiltin)
        .map((s) => `mock-server/${name} imports ${s}`);
    });
    expect(problems).toEqual([]);
  });

  it('has a twin for each Node-only adapter that has one, offering its exports', async () => {
    // The function-only twins, checked by the compiler: a missing function or another signature fails the typecheck.
    const digest: typeof NodeDigest = {} as typeof BrowserDigest;
    const keep: typeof NodeKeep = {} as typeof BrowserKeep;
    expect([digest, keep]).toHaveLength(2);
    for (const twin of tsFiles(MOCK).filter((f) => f.endsWith('.browser.ts'))) {
      const name = relative(ROOT, twin);
      // undici's stand-in stands for a package, not a module of ours.
      if (name === 'mock-server/webhooks/undici.browser.ts') continue;
      const nodeModule = twin.replace(/\.browser\.ts$/, '.ts');
      expect(existsSync(nodeModule), `${name} has no ${relative(ROOT, nodeModule)}`).toBe(true);
      const [a, b] = await Promise.all([import(nodeModule), import(twin)]);
      expect(Object.keys(b as object).sort(), name).toEqual(Object.keys(a as object).sort());
    }
  });
});
