#!/usr/bin/env node
// `npm run build`, and `npm ci`'s prepare: tsc, the CLI's bundles, every command's help and the browser
// bundle, made in a folder of their own and swapped in whole (scripts/build-swap.mjs), so that a job running
// from the build before (a cron run, `mkt mock serve`, a test suite) keeps its files. A build that fails or
// is killed leaves the current one as it was.
//
// `--prepare` (package.json's prepare): npm runs prepare for `npm ci` and `npm install` in the clone, which
// should build, but also each time `npx mkt` meets an npm cache that has not seen the clone (another user,
// another HOME, a cron job), which should not: npx runs the build that is there, and the bin names a missing
// or stale one with the command that rebuilds it (bin/mkt.cjs).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { publish, stage } from './build-swap.mjs';

const root = join(import.meta.dirname, '..');

if (process.argv.includes('--prepare') && process.env.npm_command === 'exec') process.exit(0);

/** Runs one step with Node, its output shown; a failed step fails the build. */
function step(what, args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`build: ${what} failed (${r.signal ?? `exit ${r.status}`})`);
}

const staged = stage(root);
try {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  step('tsc', [tsc, '-p', 'tsconfig.build.json', '--outDir', staged.dist]);
  step('the CLI bundles', ['scripts/bundle.mjs', '--out', staged.dist]);
  step('the help texts', ['scripts/render-help.mjs', '--out', staged.dist]);
  step('the browser bundle', ['scripts/bundle-browser.mjs', '--out', join(staged.dist, 'browser')]);
} catch (err) {
  rmSync(staged.dir, { recursive: true, force: true });
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
await publish(root, staged);
