/**
 * The README's "Use the mock in your own tests": its ```ts block is a vitest suite a reader copies, so it is
 * written as printed into a folder of this repository (where `mkt/mock` resolves through package.json
 * `exports`, as in a project that installed the package: test/mock-pack.e2e.test.ts checks that), run with
 * vitest and type-checked with tsc. And docs/mock-library.md, the reference the README links, names every
 * member of the `Marketplace` interface and every field of `MarketplaceOptions`, read from
 * mock-server/library/marketplace.ts with the compiler, so the page cannot lag behind the types.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SECTION = '## Use the mock in your own tests';

/** The first ```ts block of the README's section, as printed. */
function recipe(): string {
  const section = README.split(new RegExp(`^${SECTION}$`, 'm'))[1]?.split(/^## /m)[0];
  const block = section && /^```ts\n([\s\S]*?)^```/m.exec(section)?.[1];
  if (!block) throw new Error(`README.md has no \`\`\`ts block under "${SECTION}"`);
  return block;
}

mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
const dir = mkdtempSync(join(ROOT, 'test-artifacts', 'readme-mock-library-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs node with `args` in the folder of the recipe, with a plain environment (no VITEST_* of this run), bounded in time. */
function node(args: string[]): Promise<{ code: number | null; out: string }> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? dir, NO_COLOR: '1' };
  return new Promise((done) => {
    execFile(
      process.execPath,
      args,
      { cwd: dir, env, timeout: 120_000, killSignal: 'SIGKILL', maxBuffer: 16 << 20 },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, out: stdout + stderr }),
    );
  });
}

describe("the README's Node recipe, as printed", () => {
  const code = recipe();
  writeFileSync(join(dir, 'marketplace.test.ts'), code);
  // A config of its own: vitest would otherwise find the repository's, above the folder, and its include and setup.
  writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } };\n");

  it('runs with vitest: every test of it passes', async () => {
    const tests = [...code.matchAll(/^test\(/gm)].length;
    expect(tests).toBeGreaterThan(0);
    expect(code).toMatch(/from 'mkt\/mock'/);
    const r = await node([join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--reporter=json']);
    expect(r.code, r.out).toBe(0);
    const report = JSON.parse(r.out.slice(r.out.indexOf('{'))) as { success: boolean; numTotalTests: number; numPassedTests: number };
    expect(report).toMatchObject({ success: true, numTotalTests: tests, numPassedTests: tests });
  });

  it('type-checks under strict NodeNext with the published declarations', async () => {
    const flags = ['--noEmit', '--strict', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022'];
    const r = await node([
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      ...flags,
      '--lib',
      'ES2023,DOM',
      '--types',
      'node',
      '--skipLibCheck',
      'marketplace.test.ts',
    ]);
    expect(r.code, r.out).toBe(0);
  });
});

/** The members of an interface of marketplace.ts; with `nested`, those of its object members dotted (`clock.advance`), those of a method's returned object as `account(…).notes`. */
function membersOf(interfaceName: string, nested = true): string[] {
  const file = join(ROOT, 'mock-server/library/marketplace.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const declaration = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === interfaceName,
  );
  if (!declaration) throw new Error(`marketplace.ts has no interface ${interfaceName}`);
  const names: string[] = [];
  const walk = (members: ts.NodeArray<ts.TypeElement>, prefix: string) => {
    for (const m of members) {
      if (!m.name || !ts.isIdentifier(m.name)) continue;
      const name = `${prefix}${m.name.text}`;
      names.push(name);
      if (!nested) continue;
      if (ts.isPropertySignature(m) && m.type && ts.isTypeLiteralNode(m.type)) walk(m.type.members, `${name}.`);
      if (ts.isMethodSignature(m) && m.type && ts.isTypeLiteralNode(m.type)) walk(m.type.members, `${name}(…).`);
    }
  };
  walk(declaration.members, '');
  return names;
}

describe('docs/mock-library.md keeps up with the types', () => {
  const page = readFileSync(join(ROOT, 'docs/mock-library.md'), 'utf8');

  it('names every member of Marketplace, as it is called', () => {
    const members = membersOf('Marketplace');
    expect(members).toEqual(expect.arrayContaining(['handlers', 'clock.advance', 'tokenFor', 'account(…).notes']));
    // `clock.advance(`, `account(id).notes(`: the page shows each as a call.
    // The groups (`clock`, `faults`, …) are not called; their members are.
    const called = members.filter((m) => !members.some((other) => other.startsWith(`${m}.`)));
    const missing = called.filter((m) => {
      const pattern = m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\\(…\\)', '\\([^)]*\\)');
      return !new RegExp(`\`(?:market\\.)?${pattern}\\(`).test(page);
    });
    expect(missing, 'members of Marketplace (mock-server/library/marketplace.ts) that docs/mock-library.md does not show').toEqual([]);
  });

  it('names every field of MarketplaceOptions in its options table', () => {
    const fields = membersOf('MarketplaceOptions', false);
    expect(fields).toContain('seed');
    const missing = fields.filter((f) => !page.includes(`| \`${f}\` |`));
    expect(missing, 'fields of MarketplaceOptions that docs/mock-library.md does not list').toEqual([]);
  });
});
