#!/usr/bin/env node
// Build step (after tsc): renders every command's `--help` through commander, as printed to a pipe
// (width 80, no colour), into dist/help/, and names the build in dist/help/BUILD (the version, a
// hash of the compiled code and commander's version), under which other widths are kept in the user's cache (bin/help-cache.cjs).
// `--out DIR`: the build's dist folder (scripts/build.mjs builds beside the current one), whose bundle renders.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');
const outFlag = process.argv.indexOf('--out');
const dist = outFlag > 0 ? resolve(process.argv[outFlag + 1]) : join(root, 'dist');
const BUILT = join(dist, 'help');
const cache = createRequire(import.meta.url)('../bin/help-cache.cjs');
// The bundle the bin runs (scripts/bundle.mjs), so that the kept texts are what it would print.
const { renderHelp, commandPaths } = createRequire(import.meta.url)(join(dist, 'bundle/help-render.cjs'));

/** A hash of every compiled file help could depend on: any change to the code makes a new build. */
function codeHash() {
  const hash = createHash('sha256');
  for (const dir of ['bundle', 'src', 'mock-server']) {
    const files = readdirSync(join(dist, dir), { recursive: true })
      .filter((f) => /\.c?js$/.test(f))
      .sort();
    for (const f of files)
      hash
        .update(`dist/${dir}/${f}\0`)
        .update(readFileSync(join(dist, dir, f)))
        .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

// The environment of a pipe: no COLUMNS, no colour forced either way.
for (const name of ['COLUMNS', 'NO_COLOR', 'FORCE_COLOR', 'CLICOLOR_FORCE']) delete process.env[name];
rmSync(BUILT, { recursive: true, force: true });
mkdirSync(BUILT, { recursive: true });
const width = cache.helpWidth(process.env, false, undefined);
for (const path of await commandPaths()) {
  const argv = [...path, '--help'];
  const { code, stdout, stderr } = await renderHelp(argv, width);
  if (code !== 0 || stderr !== '') throw new Error(`mkt ${argv.join(' ')} exited ${code}: ${stderr}`);
  writeFileSync(join(BUILT, cache.keyOf(argv, width, false)), stdout);
}
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Written last: a build interrupted above has no BUILD, and its help comes from commander.
writeFileSync(join(BUILT, 'BUILD'), `${version}-${codeHash()}+commander.${cache.commanderVersion()}\n`);
