#!/usr/bin/env node
'use strict';
// The bin: answers `--version` and help without loading ES modules or commander (issue 14, item 6:
// an ES entry point and commander cost a third of `node -e ''` before anything is done), and hands
// everything else to main, setting the exit code it returns. Nothing under src/ calls process.exit.
// main is the CommonJS bundle of src/ (scripts/bundle.mjs): a few files by run path, not ~60 ES modules.
const argv = process.argv.slice(2);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // Scripts call this to probe for mkt. package.json's version is VERSION (test/http-client.test.ts).
  process.stdout.write(`${require('../package.json').version}\n`);
} else if (argv[0] === 'help' || argv.at(-1) === '--help' || argv.at(-1) === '-h') {
  // Help by its look alone, so that other commands do not load the cache module; it checks the rest.
  const help = require('./help-cache.cjs');
  const where = help.locate(argv);
  const kept = where && help.read(where);
  if (kept !== undefined) help.writeStdout(kept);
  else run(help, where).then((code) => (process.exitCode = code), crashed);
} else {
  run(undefined, undefined).then((code) => (process.exitCode = code), crashed);
}

/**
 * main reports its own failures and returns the exit code; a rejection here is a failure to run it at all
 * (dist/ missing or broken: a damaged install). Exit 1, an unexpected failure, with its stack, not left to
 * Node, whose --unhandled-rejections=warn or none would end the run with 0.
 */
function crashed(err) {
  process.stderr.write(`mkt: ${(err && err.stack) || String(err)}\n`);
  process.exitCode = 1;
}

/** Runs main; a help run (`where`) that commander answered cleanly is kept for the next time. */
async function run(help, where) {
  // Node ≥ 22.1 keeps the compiled code of mkt and its dependencies between runs (a V8 code cache in the
  // temporary directory); Node 20 has no such cache. Enabled before main is imported, so main's modules are cached too.
  require('node:module').enableCompileCache?.();
  // The bundles' stack traces name src/ files and lines through their source maps; reading the maps costs
  // start-up time, so only with --verbose, the flag that prints a stack (or with --enable-source-maps).
  if (argv.includes('--verbose')) process.setSourceMapsEnabled(true);
  if (where === undefined) return require('../dist/bundle/main.cjs').main(argv);
  const { renderHelp } = require('../dist/bundle/help-render.cjs');
  const { code, stdout, stderr } = await renderHelp(argv, where.width);
  help.writeStdout(stdout);
  process.stderr.write(stderr);
  if (code === 0 && stderr === '') help.keep(where, stdout);
  return code;
}
