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

/** The package (NAME, scoped or not) of a modules.json module name under node_modules/, or undefined for one of ours. */
const packageOf = (module: string): string | undefined => /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(module)?.[1];

/** A licence or notice file's name, as scripts/notices.mjs takes them. */
const LICENCE_FILE = /^(licen[cs]e|copying|notice|unlicense)([.-].*)?$/i;

/** The licence files from the folder of `module` up to its package's folder (undici's lib/web/fetch has its own). */
function licenceFilesOf(module: string, name: string): string[] {
  const top = join(ROOT, 'node_modules', name);
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
  for (const [folder, modules] of Object.entries(FOLDERS)) {
    it(`${folder}: each bundled package's version and licence text`, () => {
      const notices = readFileSync(join(ROOT, folder, 'THIRD-PARTY-NOTICES.txt'), 'utf8');
      const bundled = modules().filter((m) => packageOf(m) !== undefined);
      expect(bundled.length).toBeGreaterThan(0);
      const packages = new Set(bundled.map((m) => packageOf(m)!));
      for (const name of packages) {
        const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
          version: string;
          license: string;
        };
        expect(notices, name).toContain(`${name}@${pkg.version} (${pkg.license})`);
      }
      const licences = new Set(bundled.flatMap((m) => licenceFilesOf(m, packageOf(m)!)));
      for (const name of packages)
        expect(
          [...licences].some((f) => f.startsWith(join(ROOT, 'node_modules', name, '/'))),
          `${name} ships a licence file`,
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
