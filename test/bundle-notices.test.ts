/**
 * The bundles keep the licence notices of the packages they hold (scripts/notices.mjs): the bundles drop the
 * packages' comments and files, and their licences (MIT, ISC, BSD) ask that copies keep the copyright and licence
 * text. Every package a bundle folder's modules.json names is in that folder's THIRD-PARTY-NOTICES.txt, with its
 * version and the text of every licence file from a bundled module's folder up to its package's (undici's
 * lib/web/fetch has one of its own), and `npm pack` takes both files.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The folder of the package holding a modules.json module (`node_modules/NAME`, scoped or not, or the last such folder
 * of a package nested under another's `node_modules/`), or undefined for one of ours.
 */
const packageDirOf = (module: string): string | undefined =>
  /^(node_modules\/(?:.*\/node_modules\/)?(?:@[^/]+\/)?[^/]+)\//.exec(module)?.[1];

/** A licence or notice file's name, as scripts/notices.mjs takes them. */
const LICENCE_FILE = /^(licen[cs]e|copying|notice|unlicense)([.-].*)?$/i;

/** The licence files from the folder of `module` up to its package's folder `dir` (undici's lib/web/fetch has its own). */
function licenceFilesOf(module: string, dir: string): string[] {
  const top = join(ROOT, dir);
  const files: string[] = [];
  for (let d = dirname(join(ROOT, module)); d.startsWith(top); d = dirname(d))
    for (const f of readdirSync(d)) if (LICENCE_FILE.test(f)) files.push(join(d, f));
  return files;
}

const FOLDERS: Record<string, () => string[]> = {
  'dist/bundle': () =>
    Object.values(JSON.parse(readFileSync(join(ROOT, 'dist/bundle/modules.json'), 'utf8')) as Record<string, string[]>).flat(),
  'dist/browser': () => (JSON.parse(readFileSync(join(ROOT, 'dist/browser/modules.json'), 'utf8')) as { modules: string[] }).modules,
};

describe('the bundles keep the notices of the packages they hold', () => {
  it("a module's package is the last node_modules/ folder on its path", () => {
    expect(packageDirOf('src/main.ts')).toBeUndefined();
    expect(packageDirOf('node_modules/undici/lib/web/fetch/index.js')).toBe('node_modules/undici');
    expect(packageDirOf('node_modules/@inquirer/core/dist/index.js')).toBe('node_modules/@inquirer/core');
    expect(packageDirOf('node_modules/a/node_modules/@s/b/lib/x.js')).toBe('node_modules/a/node_modules/@s/b');
    expect(packageDirOf('node_modules/a/node_modules/b/node_modules/c/x.js')).toBe('node_modules/a/node_modules/b/node_modules/c');
  });

  for (const [folder, modules] of Object.entries(FOLDERS)) {
    it(`${folder}: each bundled package's version and licence text`, () => {
      const notices = readFileSync(join(ROOT, folder, 'THIRD-PARTY-NOTICES.txt'), 'utf8');
      const bundled = modules().filter((m) => packageDirOf(m) !== undefined);
      expect(bundled.length).toBeGreaterThan(0);
      const packages = new Set(bundled.map((m) => packageDirOf(m)!));
      for (const dir of packages) {
        const pkg = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
          name: string;
          version: string;
          license: string;
        };
        expect(notices, dir).toContain(`${pkg.name}@${pkg.version} (${pkg.license})`);
      }
      const licences = new Set(bundled.flatMap((m) => licenceFilesOf(m, packageDirOf(m)!)));
      for (const dir of packages)
        expect(
          [...licences].some((f) => f.startsWith(join(ROOT, dir, '/'))),
          `${dir} ships a licence file`,
        ).toBe(true);
      for (const file of licences) {
        const text = readFileSync(file, 'utf8').replaceAll('\r\n', '\n').trim();
        expect(notices.includes(text), `${file}'s text`).toBe(true);
      }
    });
  }

  it('the npm package ships both files', () => {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as { files: { path: string }[] }[];
    const paths = packed[0]!.files.map((f) => f.path);
    for (const folder of Object.keys(FOLDERS)) expect(paths).toContain(`${folder}/THIRD-PARTY-NOTICES.txt`);
  }, 60_000);
});
