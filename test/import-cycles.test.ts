import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Relative modules a file loads at run time: static imports, re-exports and import() calls; type-only ones erased. */
function runtimeImports(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) if (!m[1]) found.push(m[2]!);
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found.filter((s) => s.startsWith('.'));
}

function resolveModule(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec).replace(/\.js$/, '');
  return [`${base}.ts`, join(base, 'index.ts')].find((f) => existsSync(f));
}

/** Every cycle in the import graph of `files`, each as the list of files around it. */
function importCycles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, runtimeImports(readFileSync(f, 'utf8')).map((s) => resolveModule(f, s)).filter((t): t is string => !!t)]));
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[][] = [];
  const path: string[] = [];
  const visit = (f: string): void => {
    state.set(f, 'open');
    path.push(f);
    for (const to of graph.get(f) ?? []) {
      if (state.get(to) === 'open') cycles.push(path.slice(path.indexOf(to)).map((p) => relative(ROOT, p)));
      else if (!state.has(to)) visit(to);
    }
    path.pop();
    state.set(f, 'done');
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return cycles;
}

describe('the import graph', () => {
  it('reads static, re-exported and dynamic imports, and leaves type-only ones out', () => {
    const text = [
      "import { a } from './a.js';", "import type { B } from './b.js';", 'import {\n  c,\n  type C,\n} from "./c.js";',
      "export { d } from './d.js';", "export type { E } from './e.js';", "import './f.js';", "import { g } from 'commander';",
      "const h = await import('./h.js');", "/** see import('./i.js') */", "// import { j } from './j.js';",
    ].join('\n');
    expect(runtimeImports(text)).toEqual(['./a.js', './c.js', './d.js', './f.js', './h.js']);
  });

  it('has no cycle through src/ and the mock it loads, dynamic import() included', () => {
    const files = [...tsFiles(join(ROOT, 'src')), ...tsFiles(join(ROOT, 'mock-server'))];
    expect(files.length).toBeGreaterThan(50);
    expect(importCycles(files)).toEqual([]);
  });
});
