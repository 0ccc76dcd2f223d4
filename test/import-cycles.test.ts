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

/**
 * Relative modules a file names: static imports, re-exports and import() calls, type-only ones
 * included (a type import ties two files as surely as a value import: one cannot be read without the other).
 */
function moduleImports(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found.filter((s) => s.startsWith('.'));
}

function resolveModule(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec).replace(/\.js$/, '');
  return [`${base}.ts`, join(base, 'index.ts')].find((f) => existsSync(f));
}

/** Each file of `files` with the files it imports. */
function importGraph(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((f) => [
      f,
      moduleImports(readFileSync(f, 'utf8'))
        .map((s) => resolveModule(f, s))
        .filter((t): t is string => !!t),
    ]),
  );
}

/** Every cycle in `graph`, each as the list of nodes around it. */
function cyclesIn(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[][] = [];
  const path: string[] = [];
  const visit = (f: string): void => {
    state.set(f, 'open');
    path.push(f);
    for (const to of graph.get(f) ?? []) {
      if (state.get(to) === 'open') cycles.push(path.slice(path.indexOf(to)));
      else if (!state.has(to)) visit(to);
    }
    path.pop();
    state.set(f, 'done');
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return cycles;
}

/** Every cycle in the import graph of `files`, each as the list of files around it. */
function importCycles(files: string[]): string[][] {
  return cyclesIn(importGraph(files)).map((c) => c.map((p) => relative(ROOT, p)));
}

/** The room of a file under `base`: its first folder ('api/'), or the file itself when it is loose ('cli.ts'). */
function roomOf(base: string, file: string): string {
  const inside = relative(base, file);
  return inside.includes('/') ? `${inside.slice(0, inside.indexOf('/'))}/` : inside;
}

/**
 * The knots of rooms under `base`: each set of two or more rooms that reach one another through their files'
 * imports (a strongly connected component of the room graph), sorted. Files need not import each other in a
 * circle for their rooms to: a layer table whose row holds two rooms lets them, and this check does not.
 */
function roomKnots(base: string, files: string[]): string[][] {
  const rooms = new Map<string, Set<string>>();
  for (const [from, targets] of importGraph(files)) {
    const edges = rooms.get(roomOf(base, from)) ?? rooms.set(roomOf(base, from), new Set()).get(roomOf(base, from))!;
    for (const to of targets)
      if (!relative(base, to).startsWith('..') && roomOf(base, to) !== roomOf(base, from)) edges.add(roomOf(base, to));
  }
  // Tarjan's algorithm: a room's `low` is the earliest room on the stack it reaches.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const knots: string[][] = [];
  const visit = (room: string): void => {
    index.set(room, index.size);
    low.set(room, index.get(room)!);
    stack.push(room);
    for (const to of rooms.get(room) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(room, Math.min(low.get(room)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(room, Math.min(low.get(room)!, index.get(to)!));
    }
    if (low.get(room) !== index.get(room)) return;
    const knot = stack.splice(stack.indexOf(room));
    if (knot.length > 1) knots.push(knot.sort());
  };
  for (const room of rooms.keys()) if (!index.has(room)) visit(room);
  return knots;
}

/**
 * The mock's layers, lowest first (docs/architecture.md gives each one's rule): a file imports only
 * from its own layer or lower ones. A folder ends in '/'; a file of mock-server/ on no row is an error.
 */
const MOCK_LAYERS: readonly (readonly string[])[] = [
  ['kit/'],
  ['world/'],
  ['search/'],
  ['engine/'],
  ['seed/'],
  ['views/'],
  ['audit/'],
  ['durability/'],
  ['http/'],
  ['oauth/', 'offers/'],
  ['operations/'],
  ['context.ts'],
  ['webhooks/', 'dashboard/'],
  ['request-log/'],
  ['route-helper/'],
  ['routes/'],
  ['proxy/'],
  ['app.ts', 'http-adapter.ts', 'http-exchange.ts', 'describe.ts'],
  ['library/'],
];

/**
 * The files of mock-server/ that src/ may import: the library's entries alone. `mkt/mock`'s public ones (index.ts,
 * node.ts: `mkt demo`, `invest simulate`), the server's (server.ts: `mkt mock serve` hosts the mock through it; proxy.ts: `mkt mock proxy`) and the flags' readers (flags.ts, light: a bad flag is refused before a mock loads). The CLI reaches
 * the mock through these alone, never a room of it.
 */
const MOCK_ENTRY_POINTS: readonly string[] = ['index.ts', 'node.ts', 'server.ts', 'proxy.ts', 'flags.ts'].map(
  (p) => `mock-server/library/${p}`,
);

/** The public entries of `mkt/mock` (package.json exports): all that `mkt demo` and `mkt invest simulate` may import of the mock. */
const LIBRARY_ENTRIES: readonly string[] = ['mock-server/library/index.ts', 'mock-server/library/node.ts'];

/**
 * The CLI's layers, lowest first (docs/architecture.md, "The CLI's layers", gives each one's rule): as the
 * mock's, a file imports only from its own layer or lower ones; a file of src/ on no row is an error. A loose
 * file is a room of its own.
 */
const SRC_LAYERS: readonly (readonly string[])[] = [
  ['version.ts', 'clock.ts', 'errors.ts', 'redact-url.ts', 'suggest.ts', 'os/'],
  ['contract/'],
  ['io.ts', 'state-files.ts', 'input.ts', 'lock-file.ts'],
  ['output/'],
  ['config/'],
  ['api/'],
  ['auth/', 'orders/', 'flows/'],
  ['portfolio/'],
  ['invest/', 'doctor/'],
  ['context.ts'],
  ['demo/'],
  ['commands/'],
  ['cli.ts'],
  ['main.ts', 'help-render.ts'],
];

/** The row of `file` (a path under the layers' folder) in `layers`, or -1. */
function layerOf(layers: readonly (readonly string[])[], file: string): number {
  return layers.findIndex((row) => row.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)));
}

/** Imports under `base` that break the layer rule, as 'from -> to'; files on no layer; imports from outside `base` but under none of `outside`. */
function layerProblems(base: string, files: string[], layers: readonly (readonly string[])[], outside: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [from, targets] of importGraph(files)) {
    const at = layerOf(layers, relative(base, from));
    if (at < 0) {
      problems.push(`${relative(ROOT, from)} is on no layer`);
      continue;
    }
    for (const to of targets) {
      const inside = relative(base, to);
      if (inside.startsWith('..')) {
        if (!outside.some((o) => relative(ROOT, to).startsWith(o)))
          problems.push(`${relative(ROOT, from)} -> ${relative(ROOT, to)} (outside the layers)`);
      } else if (layerOf(layers, inside) > at) problems.push(`${relative(ROOT, from)} -> ${relative(ROOT, to)}`);
    }
  }
  return problems;
}

describe('the import graph', () => {
  it('reads static, re-exported and dynamic imports, type-only ones included', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      'import {\n  c,\n  type C,\n} from "./c.js";',
      "export { d } from './d.js';",
      "export type { E } from './e.js';",
      "import './f.js';",
      "import { g } from 'commander';",
      "const h = await import('./h.js');",
      "/** see import('./i.js') */",
      "// import { j } from './j.js';",
    ].join('\n');
    expect(moduleImports(text)).toEqual(['./a.js', './b.js', './c.js', './d.js', './e.js', './f.js', './h.js']);
  });

  it('finds a cycle tied by a type import alone', () => {
    const dir = join(ROOT, 'test', 'fixtures', 'import-cycle');
    expect(importCycles(tsFiles(dir)).map((c) => c.map((f) => relative(dir, join(ROOT, f))).sort())).toEqual([['a.ts', 'b.ts']]);
  });

  it('finds a knot of rooms that no circle of files makes', () => {
    const base = join(ROOT, 'test', 'fixtures', 'room-knot');
    expect(importCycles(tsFiles(base))).toEqual([]);
    expect(roomKnots(base, tsFiles(base))).toEqual([['a/', 'b/']]);
  });

  it('has no cycle through src/ and the mock it loads, type imports and dynamic import() included', () => {
    const files = [...tsFiles(join(ROOT, 'src')), ...tsFiles(join(ROOT, 'mock-server'))];
    expect(files.length).toBeGreaterThan(50);
    expect(importCycles(files)).toEqual([]);
  });
});

describe("the mock's layers", () => {
  it('sees a file importing from a higher layer or from outside, and a file on no layer', () => {
    const base = join(ROOT, 'test', 'fixtures', 'layers');
    expect(layerProblems(base, tsFiles(base), [['low/'], ['high/']], []).sort()).toEqual(
      [
        'test/fixtures/layers/loose.ts is on no layer',
        'test/fixtures/layers/low/down.ts -> test/fixtures/layers/high/up.ts',
        'test/fixtures/layers/low/down.ts -> test/fixtures/import-cycle/a.ts (outside the layers)',
      ].sort(),
    );
  });

  it('has every file on a layer, importing only from its own layer or lower ones (and of src/ only src/contract/ and src/os/)', () => {
    const base = join(ROOT, 'mock-server');
    expect(layerProblems(base, tsFiles(base), MOCK_LAYERS, ['src/contract/', 'src/os/'])).toEqual([]);
  });

  it('leaves no file loose in mock-server/ but its entry points (at most six)', () => {
    const loose = readdirSync(join(ROOT, 'mock-server'), { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => e.name);
    expect(loose.length).toBeLessThanOrEqual(6);
    expect(loose.sort()).toEqual(
      MOCK_LAYERS.flat()
        .filter((p) => !p.endsWith('/'))
        .sort(),
    );
  });
});

describe("the CLI's layers", () => {
  it('has every file of src/ on a layer, importing only from its own layer or lower ones, and of mock-server/ only its entry points', () => {
    const base = join(ROOT, 'src');
    expect(layerProblems(base, tsFiles(base), SRC_LAYERS, MOCK_ENTRY_POINTS)).toEqual([]);
  });

  it('has `mkt demo` and `mkt invest simulate` reach the mock through the public `mkt/mock` entries alone', () => {
    const base = join(ROOT, 'src');
    const users = tsFiles(base).filter((f) => /^(demo|invest)\//.test(relative(base, f)));
    const reached: string[] = [];
    for (const [from, targets] of importGraph(users))
      for (const to of targets) {
        const target = relative(ROOT, to);
        if (target.startsWith('mock-server/') && !LIBRARY_ENTRIES.includes(target)) reached.push(`${relative(ROOT, from)} -> ${target}`);
      }
    expect(users.length).toBeGreaterThan(3);
    expect(reached).toEqual([]);
  });

  it('has no two rooms of src/ or of mock-server/ that take from each other, however far round (type imports counted)', () => {
    for (const tree of ['src', 'mock-server']) {
      const base = join(ROOT, tree);
      expect({ tree, knots: roomKnots(base, tsFiles(base)) }).toEqual({ tree, knots: [] });
    }
  });
});
