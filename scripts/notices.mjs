// Build step helper: the licence notices of the packages a bundle holds, written beside the bundle. Their licences
// (MIT, ISC, BSD) ask that copies keep the copyright and licence text, and a bundle drops the comments and files
// they came with; dist/ is what the npm package ships. The build fails on a bundled package with no licence file.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file's name in each bundle folder (test/bundle-notices.test.ts reads it). */
export const NOTICES = 'THIRD-PARTY-NOTICES.txt';

/** The folder of the package that holds module `id` (an absolute path), or undefined for one of ours. */
function packageDir(id) {
  const at = id.replaceAll('\\', '/').lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const rest = id.slice(at + '/node_modules/'.length).split(/[\\/]/);
  return id.slice(0, at + '/node_modules/'.length) + (rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]);
}

/** Writes `dir/THIRD-PARTY-NOTICES.txt`: each package of `moduleIds` (absolute paths), its version, licence and licence text. */
export function writeNotices(dir, moduleIds) {
  const dirs = [...new Set(moduleIds.map(packageDir).filter((d) => d !== undefined))];
  const entries = dirs.map((d) => {
    const pkg = JSON.parse(readFileSync(join(d, 'package.json'), 'utf8'));
    const file = readdirSync(d).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
    if (file === undefined) throw new Error(`${pkg.name} is bundled but ships no licence file to keep beside the bundle`);
    const text = readFileSync(join(d, file), 'utf8').replaceAll('\r\n', '\n').trimEnd();
    return { name: pkg.name, text: `${pkg.name}@${pkg.version} (${pkg.license})\n\n${text}\n` };
  });
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  const head = `The bundles in this folder hold code of the packages below, each under its own licence.\n`;
  writeFileSync(join(dir, NOTICES), [head, ...entries.map((e) => e.text)].join(`\n${'-'.repeat(72)}\n\n`));
}
