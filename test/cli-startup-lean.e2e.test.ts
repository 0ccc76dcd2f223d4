/**
 * Start-up stays lean (issue 14, item 6), checked by what a run loads rather than by timing: `--version`
 * and help the build kept load nothing but the bin (no ES module, no commander); help rendered through
 * commander loads no renderer, settings reader, listing catalogue, other group, HTTP client or heavy
 * dependency; and a search with a handed-in token loads the HTTP client but no credential store.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

const RECORDER = pathToFileURL(resolve(import.meta.dirname, 'helpers/record-modules.mjs')).href;

/** A loaded module as a package name (`undici`, `@inquirer/core`) or a path of ours (`src/commands/root`). */
function moduleName(line: string): string {
  const path = line.startsWith('file:') ? fileURLToPath(line) : line;
  const pkg = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1]!;
  const ours = /\/(?:dist\/)?((?:src|mock-server|bin)\/.+)\.c?js$/.exec(path);
  return ours ? ours[1]! : path;
}

/** Runs mkt with the recorder: its result and the modules it loaded. */
async function loadedBy(args: string[], env: Record<string, string> = {}) {
  const home = tempHome();
  const out = join(home, 'modules.txt');
  const result = await runMkt(args, { home, env: { ...env, MKT_RECORD_MODULES: out }, nodeArgs: ['--import', RECORDER] });
  const modules = new Set(readFileSync(out, 'utf8').split('\n').filter(Boolean).map(moduleName));
  return { result, modules: [...modules] };
}

/** Dependencies only some actions need: HTTP, the mock, JMESPath, the keychain, tables, prompts, parsers, schemas. */
const HEAVY = /^(undici|msw|@mswjs\/.*|@jmespath-community\/.*|@github\/keytar|cli-table3|@inquirer\/.*|yaml|csv-parse|ajv|ajv-formats|@sinclair\/typebox|asciichart)$/;

/** Modules of ours that actions need and help does not: the catalogue, renderers, settings, client, credentials, the mock. */
const ACTION_ONLY = /^(src\/contract\/(listing-|bureau)|src\/output\/(render|table|select|sections|columns)|src\/config\/settings|src\/api\/|src\/auth\/|mock-server\/)/;

describe('what start-up loads', () => {
  it.each([[['--version']], [['--help']], [['listings', '--help']], [['listings', 'search', '--help']], [['order', 'submit', '-h']]])(
    'mkt %j: the bin and its help cache alone, no ES module of ours, no commander', async (args) => {
      const { result, modules } = await loadedBy(args);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(args[0] === '--version' ? /^\d+\.\d+\.\d+\n$/ : /^Usage: mkt /);
      // --version reads the version from package.json.
      expect(modules.filter((m) => !m.endsWith('/package.json')).sort()).toEqual(args[0] === '--version' ? ['bin/mkt'] : ['bin/help-cache', 'bin/mkt']);
    },
  );

  // Help at a width not kept yet (a fresh cache) goes through commander, and stays lean there too.
  const UNKEPT = { COLUMNS: '73' };

  it('mkt --help, not kept yet: commander and the root, no group, no action module, no heavy dependency', async () => {
    const { result, modules } = await loadedBy(['--help'], UNKEPT);
    expect(result.code).toBe(0);
    // The recorder sees both kinds of module: CommonJS (commander) and ES (ours).
    expect(modules).toEqual(expect.arrayContaining(['commander', 'src/commands/root']));
    expect(modules.filter((m) => HEAVY.test(m) || ACTION_ONLY.test(m))).toEqual([]);
    expect(modules.filter((m) => m.startsWith('src/commands/') && !/\/(groups|help|help-render|root|examples)$/.test(m))).toEqual([]);
  });

  it('mkt listings --help, not kept yet: the listings group alone, without the catalogue its search flags come from', async () => {
    const { result, modules } = await loadedBy(['listings', '--help'], UNKEPT);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('search [options]');
    expect(modules).toContain('src/commands/listings');
    expect(modules.filter((m) => HEAVY.test(m) || ACTION_ONLY.test(m))).toEqual([]);
    expect(modules.filter((m) => m.startsWith('src/commands/') && !/\/(groups|help|help-render|root|examples|listings|listings-commands)$/.test(m))).toEqual([]);
  });

  it('mkt listings search --help, not kept yet: the catalogue, to list the filter flags, and still no client or heavy dependency', async () => {
    const { result, modules } = await loadedBy(['listings', 'search', '--help'], UNKEPT);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--fico_score <value>');
    expect(modules).toEqual(expect.arrayContaining(['src/commands/listings-actions', 'src/contract/listing-fields']));
    expect(modules.filter((m) => HEAVY.test(m) || /^(src\/api\/|src\/auth\/|src\/config\/settings|mock-server\/)/.test(m))).toEqual([]);
  });

  describe('against the mock', () => {
    let mock: TestMock;
    beforeAll(async () => {
      mock = await startMock({ listings: 50 });
    });
    afterAll(async () => {
      await mock.close();
    });

    it('mkt listings search with MKT_ACCESS_TOKEN: the HTTP client, and no credential store, keychain, prompt or JMESPath', async () => {
      const { result, modules } = await loadedBy(['listings', 'search', '--limit', '3', '-o', 'json'], mock.env);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).result).toHaveLength(3);
      expect(modules).toEqual(expect.arrayContaining(['undici', 'src/api/http', 'src/output/render']));
      const unneeded = /^(msw|@github\/keytar|@inquirer\/.*|@jmespath-community\/.*|cli-table3|src\/auth\/(session|stores|keychain-store|file-store|token-endpoint)|mock-server\/)$/;
      expect(modules.filter((m) => unneeded.test(m))).toEqual([]);
    });
  });
});
