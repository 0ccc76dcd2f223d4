/**
 * What a run of the bin loaded, as names: a package (`undici`, `@inquirer/core`) or a module of ours
 * (`src/context`, `mock-server/app`). The bin runs the bundles of dist/bundle/ (scripts/bundle.mjs),
 * so a loaded bundle stands for every module the build put in it (dist/bundle/modules.json): the names
 * are those of the sources, whichever file holds them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runMkt, tempHome, type RunResult } from './cli.js';

const BUNDLE = resolve(import.meta.dirname, '../../dist/bundle');
const RECORDER = pathToFileURL(resolve(import.meta.dirname, 'record-modules.mjs')).href;

let contents: Record<string, string[]> | undefined;

/** The modules the build put in each bundle, by file name (`core.cjs`). */
export function bundleContents(): Record<string, string[]> {
  contents ??= JSON.parse(readFileSync(resolve(BUNDLE, 'modules.json'), 'utf8')) as Record<string, string[]>;
  return contents;
}

/** A module's name: its package for a dependency, its path without extension for ours. */
function nameOf(path: string): string {
  const pkg = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1]!;
  const ours = /(?:^|\/)(?:dist\/)?((?:src|mock-server|bin)\/.+)\.(?:c?js|ts)$/.exec(path);
  return ours ? ours[1]! : path;
}

/** The names a loaded file (a path or a file: URL) stands for: a bundle's modules, or its own. */
export function moduleNames(line: string): string[] {
  const path = line.startsWith('file:') ? fileURLToPath(line) : line;
  const bundle = /\/dist\/bundle\/([^/]+\.cjs)$/.exec(path);
  if (bundle) {
    const inside = bundleContents()[bundle[1]!];
    if (inside === undefined) throw new Error(`${path}: not a bundle of this build (dist/bundle/modules.json)`);
    return inside.map(nameOf);
  }
  return [nameOf(path)];
}

/**
 * Runs mkt with the recorder (record-modules.mjs): its result, the names of what it loaded, the bundle
 * files among them, Node's own modules it loaded (`http2`), and the files as recorded (paths and file: URLs).
 */
export async function loadedBy(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ result: RunResult; modules: string[]; bundles: string[]; builtins: string[]; files: string[] }> {
  const home = tempHome();
  const out = resolve(home, 'modules.txt');
  const result = await runMkt(args, { home, env: { ...env, MKT_RECORD_MODULES: out }, nodeArgs: ['--import', RECORDER] });
  const lines = readFileSync(out, 'utf8').split('\n').filter(Boolean);
  const files = lines.filter((l) => !l.startsWith('builtin:'));
  const modules = new Set(files.flatMap(moduleNames));
  const bundles = [...new Set(files.map((l) => /\/dist\/bundle\/([^/]+\.cjs)$/.exec(l)?.[1]).filter((b) => b !== undefined))];
  const builtins = lines.filter((l) => l.startsWith('builtin:')).map((l) => l.slice('builtin:'.length));
  return { result, modules: [...modules], bundles: bundles.sort(), builtins, files };
}

/** Whether the nearest package.json above `path` says "type": "module" (its .js files are ES modules). */
function inModulePackage(path: string): boolean {
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = resolve(dir, 'package.json');
    if (existsSync(pkg)) return (JSON.parse(readFileSync(pkg, 'utf8')) as { type?: string }).type === 'module';
  }
  return false;
}

/**
 * The ES modules among a run's recorded files, each of which has Node's ES module loader at work: those its hooks saw
 * (file: URLs; not the recorder's own, nor the entry, which `--import` hands to that loader), and those a `require`
 * loaded as ES modules (Node 20.19+ requires them: .mjs files, .js files of a "type": "module" package).
 */
export function esModules(files: readonly string[]): string[] {
  return files.filter((f) =>
    f.startsWith('file:')
      ? !f.includes('/test/helpers/') && !f.endsWith('/bin/mkt.cjs')
      : f.endsWith('.mjs') || (f.endsWith('.js') && inModulePackage(f)),
  );
}
