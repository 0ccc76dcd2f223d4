/**
 * The dashboard's page script (mock-server/dashboard/page-script.ts) and its panels' renderer
 * (panels.ts, which the server runs too) are checked by the compiler like any source: `npm run typecheck`
 * covers them, with the DOM library and the contract's types of the admin JSON. These tests hold the two
 * promises that make that worth something:
 * - their reads and writes are tied to those types: a misspelt field of an answer or of a request body is
 *   a type error (were the fetches typed `any`, it would not be);
 * - each function refers to nothing outside itself but the browser's globals: it is served as its own
 *   source text, so a name of its module (erased types aside) or a Node global would be undefined in the page.
 * The page itself, in chromium: mock-dashboard-browser.test.ts (source) and mock-dashboard-built.e2e.test.ts (bundle).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TEST_START, testMockApp } from './helpers/mock.js';

const ROOT = resolve(import.meta.dirname, '..');
const FILE = resolve(ROOT, 'mock-server/dashboard/page-script.ts');
const PANELS = resolve(ROOT, 'mock-server/dashboard/panels.ts');
/** The two files served as source text: the script and the panels' renderer. */
const SOURCES: Record<string, string> = { [FILE]: readFileSync(FILE, 'utf8'), [PANELS]: readFileSync(PANELS, 'utf8') };

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

/** A program of the page script and the panels (and what they import), their texts replaced by `texts`. */
function programOf(texts: Record<string, string>, old?: ts.Program): ts.Program {
  const host = ts.createCompilerHost(OPTIONS);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const text = texts[resolve(name)];
    return text !== undefined ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, ...rest);
  };
  return ts.createProgram({ rootNames: [FILE, PANELS], options: OPTIONS, host, ...(old ? { oldProgram: old } : {}) });
}

/** The compiler's errors in the page script and the panels, as `TS<code>: message`. */
function errorsOf(program: ts.Program): string[] {
  return [FILE, PANELS].flatMap((name) => {
    const file = program.getSourceFile(name)!;
    return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map(
      (d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
  });
}

const base = programOf(SOURCES);

describe('the dashboard page script', () => {
  it('type-checks as it is', () => {
    expect(errorsOf(base)).toEqual([]);
  });

  it('fails the typecheck when a field it reads or sends, or a route it reads, is misspelt', () => {
    const slips = [
      // [file, what, as written, misspelt, the compiler's complaint]
      [
        PANELS,
        'a field of the request log page',
        "page.total_count + ' kept'",
        "page.total_cuont + ' kept'",
        "Property 'total_cuont' does not exist",
      ],
      [
        PANELS,
        'a field of the state',
        "['orders queued', s.orders_queued]",
        "['orders queued', s.orders_queue]",
        "Property 'orders_queue' does not exist",
      ],
      [PANELS, 'a field of a request log entry', 'e.duration_ms', 'e.durationMs', "Property 'durationMs' does not exist"],
      [PANELS, 'a field of a webhook attempt', 'a.error || a.status', 'a.error || a.code', "Property 'code' does not exist"],
      [PANELS, 'a field of an order', 'b.bid_result', 'b.bid_reslt', "Property 'bid_reslt' does not exist"],
      [FILE, 'a field of the clock request it sends', '{ advance: by }', '{ advence: by }', "'advence' does not exist in type"],
      [FILE, 'a route it reads', "refresh('outbox',", "refresh('outbx',", `'"outbx"' is not assignable`],
    ] as const;
    const texts = { ...SOURCES };
    for (const [file, what, right, wrong] of slips) {
      expect(texts[file]!.split(right).length, what).toBe(2);
      texts[file] = texts[file]!.replace(right, wrong);
    }
    // One program for all (a program of these files costs seconds); each slip is one error of its own.
    const errors = errorsOf(programOf(texts, base));
    for (const [, what, , , message] of slips)
      expect(
        errors.filter((e) => e.includes(message)),
        what,
      ).toHaveLength(1);
    expect(errors).toHaveLength(slips.length);
  });

  it.each([
    [FILE, 'dashboardScript'],
    [PANELS, 'dashboardPanels'],
  ])("%s: %s refers to nothing outside its function but the browser's globals (types aside, which are erased)", (name, fnName) => {
    const checker = base.getTypeChecker();
    const file = base.getSourceFile(name)!;
    const fn = file.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === fnName);
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

  it('is served whole in its script element, its arguments inlined as JSON, the panels beside it', async () => {
    const app = testMockApp({ seed: 7, listings: 20, frozen: true, start: TEST_START });
    try {
      const page = await (await app.handle(new Request('http://127.0.0.1/__mock/'))).text();
      const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(scripts).toHaveLength(1);
      expect(scripts[0]).toMatch(
        /^\n\(function dashboardScript\(args, makePanels\) \{[\s\S]*\}\)\(\{"statusNames":\{"2":"Active",[^\n]*"rows":\{"requests":25,"orders":10,"outbox":20,"webhooks":20\},"bidRows":10,"dashboardHeader":"x-mock-dashboard"\}, function dashboardPanels\(args\) \{[\s\S]*\}\);\n$/,
      );
      expect(scripts[0]).not.toMatch(/<!--|<\/script/i);
    } finally {
      await app.close?.();
    }
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
