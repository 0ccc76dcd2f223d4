/**
 * The dashboard's page script (mock-server/dashboard/page-script.ts) is checked by the compiler like
 * any source: `npm run typecheck` covers it, with the DOM library and the contract's types of the admin
 * JSON. These tests hold the two promises that make that worth something:
 * - its reads and writes are tied to those types: a misspelt field of an answer or of a request body is
 *   a type error (were the fetches typed `any`, it would not be);
 * - it refers to nothing outside itself but the browser's globals: it is served as its own source text,
 *   so a name of its module (erased types aside) or a Node global would be undefined in the page.
 * The page itself, in chromium: mock-dashboard-browser.test.ts (source) and mock-dashboard-built.e2e.test.ts (bundle).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { dashboardHtml } from '../mock-server/dashboard/page.js';

const ROOT = resolve(import.meta.dirname, '..');
const FILE = resolve(ROOT, 'mock-server/dashboard/page-script.ts');
const SOURCE = readFileSync(FILE, 'utf8');

/** The typecheck's compiler options (tsconfig.json). */
const OPTIONS = (() => {
  const config = ts.getParsedCommandLineOfConfigFile(
    resolve(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(String(d.messageText));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  return { ...config.options, noEmit: true };
})();

/** A program of the page script alone (and what it imports), its text replaced by `text`. */
function programOf(text: string, old?: ts.Program): ts.Program {
  const host = ts.createCompilerHost(OPTIONS);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    resolve(name) === FILE ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, ...rest);
  return ts.createProgram({ rootNames: [FILE], options: OPTIONS, host, ...(old ? { oldProgram: old } : {}) });
}

/** The compiler's errors in the page script, as `TS<code>: message`. */
function errorsOf(program: ts.Program): string[] {
  const file = program.getSourceFile(FILE)!;
  return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map(
    (d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
  );
}

const base = programOf(SOURCE);

describe('the dashboard page script', () => {
  it('type-checks as it is', () => {
    expect(errorsOf(base)).toEqual([]);
  });

  it('fails the typecheck when a field it reads or sends, or a route it reads, is misspelt', () => {
    const slips = [
      // [what, as written, misspelt, the compiler's complaint]
      [
        'a field of the request log page',
        "page.total_count + ' kept'",
        "page.total_cuont + ' kept'",
        "Property 'total_cuont' does not exist",
      ],
      ['a field of the state', 's.orders_queued', 's.orders_queue', "Property 'orders_queue' does not exist"],
      ['a field of a request log entry', 'e.duration_ms', 'e.durationMs', "Property 'durationMs' does not exist"],
      ['a field of a webhook attempt', 'a.error || a.status', 'a.error || a.code', "Property 'code' does not exist"],
      ['a field of the clock request it sends', '{ advance: by }', '{ advence: by }', "'advence' does not exist in type"],
      ['a route it reads', "refresh('outbox',", "refresh('outbx',", `'"outbx"' is not assignable`],
    ] as const;
    let text = SOURCE;
    for (const [what, right, wrong] of slips) {
      expect(text.split(right).length, what).toBe(2);
      text = text.replace(right, wrong);
    }
    // One program for all (a program of this file costs seconds); each slip is one error of its own.
    const errors = errorsOf(programOf(text, base));
    for (const [what, , , message] of slips)
      expect(
        errors.filter((e) => e.includes(message)),
        what,
      ).toHaveLength(1);
    expect(errors).toHaveLength(slips.length);
  });

  it("refers to nothing outside its function but the browser's globals (types aside, which are erased)", () => {
    const checker = base.getTypeChecker();
    const file = base.getSourceFile(FILE)!;
    const fn = file.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === 'dashboardScript');
    expect(fn?.body).toBeDefined();
    const outside: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isTypeNode(node)) return;
      if (ts.isIdentifier(node) && !isMemberName(node)) {
        const symbol = ts.isShorthandPropertyAssignment(node.parent)
          ? checker.getShorthandAssignmentValueSymbol(node.parent)
          : checker.getSymbolAtLocation(node);
        const declarations = symbol?.declarations ?? [];
        // `undefined` is the one global with no declaration.
        if (node.text === 'undefined' && symbol !== undefined && declarations.length === 0) return;
        const inside = declarations.some((d) => d.getSourceFile() === file && d.pos >= fn!.pos && d.end <= fn!.end);
        const browser = declarations.some(
          (d) => base.isSourceFileDefaultLibrary(d.getSourceFile()) && /lib\.(dom|es)/.test(d.getSourceFile().fileName),
        );
        if (!inside && !browser) outside.push(`${node.text} (line ${file.getLineAndCharacterOfPosition(node.getStart()).line + 1})`);
      }
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(fn!, visit);
    expect(outside).toEqual([]);
  });

  it('is served whole in its script element, its arguments inlined as JSON', () => {
    const page = dashboardHtml('/__mock');
    const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(
      /^\n\(function dashboardScript\(args\) \{[\s\S]*\}\)\(\{"statusNames":\{"2":"Active",[^\n]*"requestLogRows":25,"dashboardHeader":"x-mock-dashboard"\}\);\n$/,
    );
    expect(scripts[0]).not.toMatch(/<!--|<\/script/i);
  });
});

/** Whether `id` names a member (`a.b`'s b, an object literal's key, a parameter's label in a tuple), not a binding in scope. */
function isMemberName(id: ts.Identifier): boolean {
  const p = id.parent;
  return (
    (ts.isPropertyAccessExpression(p) && p.name === id)
    || (ts.isPropertyAssignment(p) && p.name === id)
    || (ts.isQualifiedName(p) && p.right === id)
  );
}
