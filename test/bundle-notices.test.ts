/**
 * The bundles keep the licence notices of the packages they hold (scripts/notices.mjs): the bundles drop the
 * packages' comments and files, and their licences (MIT, ISC, BSD) ask that copies keep the copyright and licence
 * text. Every package a bundle folder's modules.json names is in that folder's THIRD-PARTY-NOTICES.txt, with its
 * version and its licence file's text, and `npm pack` takes both files.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The packages (node_modules/NAME/…, NAME scoped or not) among a modules.json's module names. */
function packagesOf(moduleNames: string[]): string[] {
  const names = moduleNames.flatMap((m) => {
    const match = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(m);
    return match ? [match[1]!] : [];
  });
  return [...new Set(names)].sort();
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
      const packages = packagesOf(modules());
      expect(packages.length).toBeGreaterThan(0);
      for (const name of packages) {
        const dir = join(ROOT, 'node_modules', name);
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; license: string };
        expect(notices, name).toContain(`${name}@${pkg.version} (${pkg.license})`);
        const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
        expect(file, `${name} ships a licence file`).toBeDefined();
        const text = readFileSync(join(dir, file!), 'utf8').replaceAll('\r\n', '\n').trim();
        expect(notices.includes(text), `${name}'s licence text`).toBe(true);
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
