// Build step helper: the licence notices of the packages a bundle holds, written beside the bundle. Their licences
// (MIT, ISC, BSD) ask that copies keep the copyright and licence text, and a bundle drops the comments and files
// they came with; dist/ is what the npm package ships. Every licence or notice file from a bundled module's folder up
// to its package's is kept (undici's lib/web/fetch has one of its own). The build fails on a bundled package with none.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The file's name in each bundle folder. */
export const NOTICES = 'THIRD-PARTY-NOTICES.txt';

/** A licence or notice file's name: LICENSE, LICENCE.md, LICENSE-MIT, COPYING, NOTICE, UNLICENSE, … */
const LICENCE_FILE = /^(licen[cs]e|copying|notice|unlicense)([.-].*)?$/i;

/** The folder of the package that holds module `id` (an absolute path), or undefined for one of ours. */
function packageDir(id) {
  const path = id.replaceAll('\\', '/');
  const at = path.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const rest = path.slice(at + '/node_modules/'.length).split('/');
  return path.slice(0, at + '/node_modules/'.length) + (rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]);
}

/** A package.json's licence: its `license`, or its older `licenses` list's types. */
function licenceName(pkg) {
  if (typeof pkg.license === 'string') return pkg.license;
  if (pkg.license?.type) return pkg.license.type;
  if (Array.isArray(pkg.licenses)) return pkg.licenses.map((l) => l.type ?? l).join(' OR ');
  return 'licence not named in package.json';
}

/** Writes `dir/THIRD-PARTY-NOTICES.txt`: each package the chunks of `output` (rolldown's) hold, its version, licence and licence texts. */
export function writeNotices(dir, output) {
  /** Each bundled package's folder, and the licence files from its modules' folders up to it. */
  const byPackage = new Map();
  const read = new Set();
  for (const id of output.flatMap((c) => (c.type === 'chunk' ? c.moduleIds : []))) {
    const top = packageDir(id);
    if (top === undefined) continue;
    const files = byPackage.get(top) ?? new Set();
    byPackage.set(top, files);
    // A folder read before had the folders above it read then too.
    for (let d = dirname(id.replaceAll('\\', '/')); d.startsWith(top) && !read.has(d); d = dirname(d)) {
      read.add(d);
      for (const f of readdirSync(d)) if (LICENCE_FILE.test(f)) files.add(join(d, f));
    }
  }
  const entries = [...byPackage].map(([top, files]) => {
    const pkg = JSON.parse(readFileSync(join(top, 'package.json'), 'utf8'));
    if (files.size === 0) throw new Error(`${pkg.name} is bundled but ships no licence file to keep beside the bundle`);
    const texts = [...files].sort().map((f) => {
      const where = relative(top, f).replaceAll('\\', '/');
      // A file of the package's top folder goes without its name; one deeper says where it applies.
      return `${where.includes('/') ? `(${where})\n\n` : ''}${readFileSync(f, 'utf8').replaceAll('\r\n', '\n').trimEnd()}\n`;
    });
    return { key: `${pkg.name}@${pkg.version}`, text: `${pkg.name}@${pkg.version} (${licenceName(pkg)})\n\n${texts.join('\n')}` };
  });
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const head = `The bundles in this folder hold code of the packages below, each under its own licence.\n`;
  writeFileSync(join(dir, NOTICES), [head, ...entries.map((e) => e.text)].join(`\n${'-'.repeat(72)}\n\n`));
}
