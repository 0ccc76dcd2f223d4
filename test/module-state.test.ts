/**
 * No module holds per-operation state: what an operation of the mock draws or changes is handed to it
 * (its world, its clock, its secrets: mock-server/kit/entropy.ts), never kept in a module's top level,
 * where a second operation, a second mock in the same process or a replay would find it. The scan reads
 * every module of mock-server/ and src/ with the TypeScript parser and reports each top-level `let` or
 * `var`, and each top-level `const` holding a container (a `new` object, an array or object literal, or one made by a
 * call on one or by `Array.from` and its kind)
 * that the module writes to (a mutating method, an assignment to one of its members, `Object.assign`).
 * What remains is listed below, each with why it carries nothing from one operation to the next.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Methods that change the array, Map, Set or typed array they are called on. */
const MUTATORS = new Set([
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
  'set',
  'add',
  'delete',
  'clear',
]);

/** `e` is written: the left side of an assignment, the operand of ++, -- or delete. */
function written(e: ts.Expression): boolean {
  const p = e.parent;
  if (ts.isBinaryExpression(p) && p.left === e)
    return p.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && p.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
  if (ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p))
    return p.operator === ts.SyntaxKind.PlusPlusToken || p.operator === ts.SyntaxKind.MinusMinusToken;
  return ts.isDeleteExpression(p);
}

/** Whether `use`, a reference to a module's binding, changes what the binding holds (through any chain of its members). */
function mutates(use: ts.Identifier): boolean {
  let e: ts.Expression = use;
  for (;;) {
    const p = e.parent;
    // `x[0]!`, `(x)`, `x as T`: the same object.
    if ((ts.isNonNullExpression(p) || ts.isParenthesizedExpression(p) || ts.isAsExpression(p)) && p.expression === e) {
      e = p;
      continue;
    }
    if (ts.isCallExpression(p) && p.arguments[0] === e && p.expression.getText() === 'Object.assign') return true;
    if (!((ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === e)) return false;
    if (ts.isPropertyAccessExpression(p) && MUTATORS.has(p.name.text) && ts.isCallExpression(p.parent) && p.parent.expression === p)
      return true;
    if (written(p)) return true;
    e = p;
  }
}

/** The calls that make a new array or object: `Array(n)`, `Array.from`, `Array.of`, `Object.fromEntries`, `Object.create`. */
const MAKERS = new Set(['Array', 'Array.from', 'Array.of', 'Object.fromEntries', 'Object.create']);

/**
 * A container a `const` can hold and still change: a `new` object, an array or object literal, a call that makes one
 * (MAKERS), or a method called on any of these (`new Float64Array(n).fill(NaN)`, `new Map().set(k, v)`, `[a, b].map(f)`:
 * such a method gives back the container or a new one); under `as`, `satisfies`, parentheses.
 */
function isContainer(init: ts.Expression | undefined): boolean {
  let e = init;
  while (e && (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e))) e = e.expression;
  if (!e) return false;
  if (ts.isNewExpression(e) || ts.isArrayLiteralExpression(e) || ts.isObjectLiteralExpression(e)) return true;
  if (!ts.isCallExpression(e)) return false;
  if (MAKERS.has(e.expression.getText())) return true;
  return ts.isPropertyAccessExpression(e.expression) && isContainer(e.expression.expression);
}

/** The names of the module-level state in the source `text`, each as 'name (why it is state)'. */
function moduleState(text: string, fileName = 'm.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const containers = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isClassDeclaration(statement)) {
      for (const m of statement.members) {
        const mods = ts.canHaveModifiers(m) ? (ts.getModifiers(m) ?? []) : [];
        const is = (k: ts.SyntaxKind): boolean => mods.some((x) => x.kind === k);
        if (ts.isPropertyDeclaration(m) && is(ts.SyntaxKind.StaticKeyword) && !is(ts.SyntaxKind.ReadonlyKeyword))
          found.push(`${statement.name?.text ?? 'class'}.${m.name.getText(source)} (a static field)`);
      }
    }
    if (!ts.isVariableStatement(statement)) continue;
    const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const d of statement.declarationList.declarations) {
      const name = d.name.getText(source);
      if (!constant) found.push(`${name} (a top-level let or var)`);
      else if (ts.isIdentifier(d.name) && isContainer(d.initializer)) containers.add(name);
    }
  }
  const changed = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (
      ts.isIdentifier(node)
      && containers.has(node.text)
      && !(ts.isVariableDeclaration(node.parent) && node.parent.name === node)
      && mutates(node)
    )
      changed.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found, ...[...changed].map((name) => `${name} (a top-level container the module changes)`)];
}

/**
 * What stays, by file and name, and why no operation leaves anything in it for the next. Every entry is
 * one of three kinds: scratch space (written before it is read by the one synchronous call that uses it),
 * a memo of a pure function of constant input (the same for every world, operation and mock), or a
 * module loaded once. An entry the scan no longer finds fails the test too, so the list stays true.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  'mock-server/engine/chance-processes.ts:scratchHours': 'scratch: set before fireAfter reads it, in one synchronous call',
  'mock-server/engine/seed-bureau.ts:b2Values':
    'scratch: every element written by drawBureau2 before its caller copies them out, in one synchronous call',
  'mock-server/engine/listing-place.ts:aheadHours':
    "scratch: a look ahead's copy of one listing's stream, written before it is read within one synchronous call",
  'mock-server/engine/listing-place.ts:aheadStates':
    "scratch: a look ahead's copy of one listing's stream, written before it is read within one synchronous call",
  'mock-server/http/document-check.ts:shared':
    'a memo: the OpenAPI document and its compiled validators, built from constant input once per process',
  'mock-server/kit/radix-order.ts:F64': 'scratch: one float written and read back as bits within one call',
  'mock-server/kit/radix-order.ts:count': 'scratch: cleared (fill(0)) before each pass of a sort reads it',
  'mock-server/search/listing-index.ts:getters':
    'a memo: the compiled getter of a field name from the catalogue, a pure function of the name',
  'mock-server/world/column-read.ts:loops':
    "a memo: the tight loops compiled once per kind of typed array from constant source text, a pure function of the array's kind",
  'mock-server/world/column-keys.ts:keyCodes':
    'scratch: the codes of the key being read, written before String.fromCharCode reads them in the same call',
  'src/api/undici.ts:baselineOnly':
    "a process's own fact: V8's --liftoff-only flag, set once before the first request, is set for the rest of the process",
  'src/contract/amortisation.ts:factorRate': 'a memo: the annuity factor in slots by rate and term, a pure function of them',
  'src/contract/amortisation.ts:factorMonths': 'a memo: the annuity factor in slots by rate and term, a pure function of them',
  'src/contract/amortisation.ts:factorValue': 'a memo: the annuity factor in slots by rate and term, a pure function of them',
  'src/contract/dates.ts:formatters': 'a memo: one Intl.DateTimeFormat per zone name, a pure function of the name',
  'src/contract/dates.ts:dayOffsets':
    "a memo: a zone's UTC offset for a UTC day (null on a day the offset changes), a pure function of zone and day (bounded per zone, cleared when full)",
  'src/contract/dates.ts:offsets': "a memo: a zone's UTC offset for an hour, a pure function of zone and hour (bounded, cleared when full)",
  'src/os/exclusive-lock.ts:native': 'a module loaded once (the native lock binding, or why it could not be)',
};

describe('module-level state', () => {
  it('sees a top-level let or var, a container a module changes (made by a call on one too), a static field; not a constant table, a local or an instance field', () => {
    const text = [
      'let recording: string[] | null = null;',
      'export var legacy = 1;',
      'const kept = new Map<string, number>();',
      'export function keep(k: string) { kept.set(k, 1); }',
      'const bag: string[] = [];',
      'function add() { bag.push("x"); }',
      'const seen = { count: 0, last: { at: 0 } };',
      'function see() { seen.last.at++; }',
      'const options = {} as Record<string, unknown>;',
      'Object.assign(options, { a: 1 });',
      'class Pool { static size = 0; static readonly MAX = 4; private readonly m = new Map(); }',
      'const TABLE = new Set(["a", "b"]);',
      'export const has = (x: string) => TABLE.has(x);',
      'const LIST = [1, 2, 3] as const;',
      'function sum() { let t = 0; for (const x of LIST) t += x; return t; }',
      'function local() { const m = new Map(); m.set(1, 2); let n = 0; n++; return [m, n]; }',
      'const filled = new Float64Array(8).fill(NaN);',
      'function fill(i: number) { filled[i] = i; }',
      'const chained = new Map<string, number>().set("a", 1);',
      'function chain() { chained.delete("a"); }',
      'const mapped = [1, 2].map((x) => [x]);',
      'function map() { mapped[0]!.push(3); }',
      'const made = Array.from({ length: 4 }, () => 0);',
      'function make() { made.fill(1); }',
      'const FROZEN = new Set(["a"]).has("a");',
      'const READ = Array.from("ab").join("");',
    ].join('\n');
    expect(moduleState(text).sort()).toEqual([
      'Pool.size (a static field)',
      'bag (a top-level container the module changes)',
      'chained (a top-level container the module changes)',
      'filled (a top-level container the module changes)',
      'kept (a top-level container the module changes)',
      'legacy (a top-level let or var)',
      'made (a top-level container the module changes)',
      'mapped (a top-level container the module changes)',
      'options (a top-level container the module changes)',
      'recording (a top-level let or var)',
      'seen (a top-level container the module changes)',
    ]);
  });

  it('no module of mock-server/ or src/ holds state an operation could leave for the next (each exception justified)', () => {
    const files = [...tsFiles(join(ROOT, 'mock-server')), ...tsFiles(join(ROOT, 'src'))];
    // Each as 'file:name (why it is state)'; the key of ALLOWED is what comes before the parenthesis.
    const found = files.flatMap((f) => moduleState(readFileSync(f, 'utf8'), f).map((s) => `${relative(ROOT, f)}:${s}`));
    const keyOf = (s: string): string => s.slice(0, s.indexOf(' ('));
    expect(found.filter((s) => !(keyOf(s) in ALLOWED))).toEqual([]);
    const present = new Set(found.map(keyOf));
    expect(Object.keys(ALLOWED).filter((k) => !present.has(k))).toEqual([]);
  });
});
