/**
 * Start-up stays lean (issue 14, item 6), checked by what a run loads rather than by timing: `--version`
 * and help the build kept load nothing but the bin (no ES module, no commander); help rendered through
 * commander loads no renderer, settings reader, listing catalogue, other group, HTTP client or heavy
 * dependency; a search with a handed-in token loads the HTTP client but no credential store and no undici
 * (its one request goes out over node:http, issue 43 item 5); and a run that sends more loads of undici only
 * its HTTP/1.1 half: the HTTP/2 client (Node's http2, tls and crypto with it) loads only when a connection
 * speaks h2. The bin runs bundles (scripts/bundle.mjs, issue 25 item 6): a loaded bundle counts as every
 * module of ours or package it holds (test/helpers/loaded-modules.ts), so these say what code ran.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleContents, esModules, loadedBy } from './helpers/loaded-modules.js';
import { tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';
import { bidsFile } from './helpers/one-bid.js';

/** Dependencies only some actions need: HTTP, the mock, JMESPath, the keychain, tables, prompts, parsers, schemas. */
const HEAVY =
  /^(undici|msw|@mswjs\/.*|@jmespath-community\/.*|@github\/keytar|cli-table3|@inquirer\/.*|yaml|csv-parse|ajv|ajv-formats|@sinclair\/typebox|asciichart)$/;

/** Modules of ours that actions need and help does not: the catalogue, renderers, settings, client, credentials, the mock. */
const ACTION_ONLY =
  /^(src\/contract\/(listing-|bureau)|src\/output\/(render|table|select|sections|columns)|src\/config\/settings|src\/api\/|src\/auth\/|mock-server\/)/;

describe('what start-up loads', () => {
  it.each([[['--version']], [['--help']], [['listings', '--help']], [['listings', 'search', '--help']], [['order', 'submit', '-h']]])(
    'mkt %j: the bin and its help cache alone, no ES module of ours, no commander',
    async (args) => {
      const { result, modules } = await loadedBy(args);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(args[0] === '--version' ? /^\d+\.\d+\.\d+\n$/ : /^Usage: mkt /);
      // --version reads the version from package.json.
      expect(modules.filter((m) => !m.endsWith('/package.json')).sort()).toEqual(
        args[0] === '--version' ? ['bin/mkt'] : ['bin/help-cache', 'bin/mkt'],
      );
    },
  );

  // Help at a width not kept yet (a fresh cache) goes through commander, and stays lean there too.
  const UNKEPT = { COLUMNS: '73' };

  it('mkt --help, not kept yet: commander and the root, no group, no action module, no heavy dependency', async () => {
    const { result, modules, bundles } = await loadedBy(['--help'], UNKEPT);
    expect(result.code).toBe(0);
    // commander is bundled with the program (core.cjs); help-render.cjs is the bin's way in for help.
    expect(modules).toEqual(expect.arrayContaining(['commander', 'src/context']));
    expect(bundles).toEqual(['core.cjs', 'help-render.cjs', 'rolldown-runtime.cjs']);
    expect(modules.filter((m) => HEAVY.test(m) || ACTION_ONLY.test(m))).toEqual([]);
    expect(modules.filter((m) => m.startsWith('src/commands/') && !/\/(groups|help|examples)$/.test(m))).toEqual([]);
  });

  it('mkt listings --help, not kept yet: the listings group alone, without the catalogue its search flags come from', async () => {
    const { result, modules } = await loadedBy(['listings', '--help'], UNKEPT);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('search [options]');
    expect(modules).toContain('src/commands/listings');
    expect(modules.filter((m) => HEAVY.test(m) || ACTION_ONLY.test(m))).toEqual([]);
    expect(modules.filter((m) => m.startsWith('src/commands/') && !/\/(groups|help|examples|listings|listings-commands)$/.test(m))).toEqual(
      [],
    );
  });

  it('mkt listings search --help, not kept yet: the catalogue, to list the filter flags, and still no client or heavy dependency', async () => {
    const { result, modules } = await loadedBy(['listings', 'search', '--help'], UNKEPT);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--fico_score <value>');
    expect(modules).toEqual(expect.arrayContaining(['src/commands/listings-actions', 'src/contract/listing-fields']));
    expect(modules.filter((m) => HEAVY.test(m) || /^(src\/api\/|src\/auth\/|src\/config\/settings|mock-server\/)/.test(m))).toEqual([]);
  });

  it("no bundle imports a dependency with import(), which starts Node's ES module loader (6-12 ms of a run), but for prompts", () => {
    const imported = Object.keys(bundleContents()).flatMap((b) =>
      [
        ...readFileSync(resolve(import.meta.dirname, '../dist/bundle', b), 'utf8').matchAll(/\bimport\(\s*["']([^."'][^"']*)["']\s*\)/g),
      ].map((m) => `${b}: ${m[1]}`),
    );
    // @inquirer/prompts is an ES module package, loaded only to ask a person, who takes longer than the loader.
    expect(imported.filter((i) => !i.endsWith(': @inquirer/prompts'))).toEqual([]);
  });

  describe('against the mock', () => {
    let mock: TestMock;
    beforeAll(async () => {
      mock = await startMock({ listings: 50 });
    });
    afterAll(async () => {
      await mock.close();
    });

    it('mkt listings search with MKT_ACCESS_TOKEN: the HTTP client, and no undici, credential store, keychain, prompt or JMESPath', async () => {
      const { result, modules, bundles, builtins } = await loadedBy(['listings', 'search', '--limit', '3', '-o', 'json'], mock.env);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).result).toHaveLength(3);
      // commander's child_process is for executable subcommands, which mkt has none of (scripts/bundle.mjs).
      expect(builtins).not.toContain('child_process');
      // Node's v8 module is for the V8 flags a pool or an engine sets (src/os/v8-flags.ts, a file of its own): loading it
      // costs a start ~1 ms.
      expect(builtins).not.toContain('v8');
      expect(modules).toEqual(expect.arrayContaining(['src/api/http', 'src/api/one-shot', 'src/output/render']));
      // Its one request goes out alone over node:http (src/api/one-shot.ts): undici's pool is for a second. Of
      // undici only its timers, so that the one-shot's timeouts fire when undici's would.
      const undici = bundles.flatMap((b) => bundleContents()[b] ?? []).filter((m) => m.startsWith('node_modules/undici/'));
      expect(undici).toEqual(['node_modules/undici/lib/util/timers.js']);
      const unneeded =
        /^(src\/api\/undici|msw|@mswjs\/.*|ajv|ajv-formats|@sinclair\/typebox|yaml|@github\/keytar|@inquirer\/.*|@jmespath-community\/.*|cli-table3|src\/auth\/(session|stores|keychain-store|file-store|token-endpoint)|mock-server\/.*)$/;
      expect(modules.filter((m) => unneeded.test(m))).toEqual([]);
      // A few files, one per step of the run path: the program, the group, its catalogue, the client, and --query's
      // reader (its import() of JMESPath kept out of the client's file, whose code bin/code-cache.cjs keeps).
      expect(bundles).toEqual([
        'catalogue.cjs',
        'client.cjs',
        'core.cjs',
        'listings.cjs',
        'main.cjs',
        'rolldown-runtime.cjs',
        'select.cjs',
      ]);
    });

    it('mkt listings search --query: JMESPath from its CommonJS build, required (its ES build started the ES module loader)', async () => {
      const { result, files } = await loadedBy(
        ['listings', 'search', '--limit', '2', '--query', 'result[0].listing_number', '-o', 'json'],
        mock.env,
      );
      expect(result.code).toBe(0);
      expect(Number(result.stdout)).toBeGreaterThan(0);
      const jmespath = files.filter((f) => f.includes('/@jmespath-community/jmespath/'));
      expect(jmespath.map((f) => f.replace(/^.*\/@jmespath-community\/jmespath\//, ''))).toEqual(['dist/index.cjs']);
      expect(esModules(files)).toEqual([]);
    });

    it('mkt invest check: the YAML parser from the bundle that holds it, not as its ~70 files from node_modules', async () => {
      const strategy = join(tempHome(), 'strategy.yaml');
      writeFileSync(strategy, 'max_per_day: 100\nrules:\n  - name: a\n    filters:\n      platform_rating: [A]\n    amount: 25\n');
      const { result, modules, files } = await loadedBy(['invest', 'check', strategy], mock.env);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('ok (1 rule)');
      // Required from node_modules, its files cost a run ~35-60 ms of CPU to resolve, read and compile (bundled, the bin's
      // code cache keeps them compiled where Node has no compile cache of its own).
      expect(modules).toContain('yaml');
      expect(files.filter((f) => f.includes('/node_modules/yaml/'))).toEqual([]);
      expect(esModules(files)).toEqual([]);
    });

    it("mkt invest simulate: the in-process mock's msw from its CommonJS build, its own graph CommonJS", async () => {
      const strategy = join(tempHome(), 'strategy.yaml');
      writeFileSync(strategy, 'max_per_day: 100\nrules:\n  - name: a\n    filters:\n      platform_rating: [A, B]\n    amount: 25\n');
      const { result, files } = await loadedBy(['invest', 'simulate', strategy, '--months', '1', '--listings', '300', '-o', 'json']);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).months).toHaveLength(1);
      // msw's exports give its ES build first (module-sync), which Node 20.19+ takes for a require too: the mock's start ran
      // msw's whole graph as ES modules (scripts/bundle.mjs mswCommonJs). Now none of msw's own files is one; the few
      // ES-only packages its CommonJS build requires still are.
      const msw = files.filter((f) => f.includes('/node_modules/msw/'));
      expect(msw.map((f) => f.replace(/^.*\/node_modules\/msw\//, ''))).toContain('lib/core/index.js');
      expect(esModules(msw)).toEqual([]);
    });

    it("mkt order submit: the kernel's lock from the build fs-native-extensions ships (not through require-addon), csv-parse's CommonJS build, no ES module", async () => {
      const { result, modules, files } = await loadedBy(['order', 'submit', bidsFile(mock, tempHome()), '--yes', '-o', 'json'], mock.env);
      expect(result.code).toBe(0);
      // The CSV reader from csv-parse's CommonJS build: an import() of its ES build started Node's ES module loader. No ES
      // module loads in the run, imported or required.
      expect(files.filter((f) => f.includes('/csv-parse/')).map((f) => f.replace(/^.*\/csv-parse\//, ''))).toContain('dist/cjs/sync.cjs');
      expect(esModules(files)).toEqual([]);
      // The binding's file (prebuilds/PLATFORM-ARCH/) is the package's name here; its loader and that loader's resolver
      // took 14-16 ms of the run's CPU (src/os/exclusive-lock.ts loadKernelLocks).
      expect(modules).toContain('fs-native-extensions');
      expect(modules.filter((m) => /^(require-addon|bare-addon-resolve|bare-module-resolve|bare-semver|which-runtime)$/.test(m))).toEqual(
        [],
      );
    });

    it('mkt listings search --all over HTTP/1.1: undici for the pages after the first, without its HTTP/2 client, so no http2, tls or crypto', async () => {
      const { result, builtins, modules, bundles } = await loadedBy(
        ['listings', 'search', '--all', '--limit', '3', '-o', 'ndjson'],
        mock.env,
      );
      expect(result.code).toBe(0);
      expect(result.stdout.trim().split('\n').length).toBeGreaterThan(3);
      expect(modules).toEqual(expect.arrayContaining(['undici', 'src/api/undici']));
      expect(bundles).toContain('pool.cjs');
      // The recorder sees Node's modules: the HTTP/1.1 client's own are there.
      expect(builtins).toEqual(expect.arrayContaining(['http', 'net']));
      // undici's client-h2.js requires http2 as it loads, so its absence says the real module never ran.
      // tls comes with http2 (and with an https: origin, which the mock is not).
      expect(builtins.filter((b) => /^(http2|tls|crypto|internal\/http2\/.*)$/.test(b))).toEqual([]);
    });
  });

  // The bundle loads undici's HTTP/2 client when a connection speaks h2 (scripts/bundle.mjs): an Agent
  // with `useH2c` against a cleartext HTTP/2 server, in a process of its own that loads the bundle holding
  // src/api/undici.ts and nothing else before.
  describe('an HTTP/2 connection', () => {
    let server: Http2Server;
    beforeAll(async () => {
      server = createServer((req, res) => {
        res.setHeader('content-type', 'text/plain');
        res.end(`h2 answer to ${req.url}`);
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    });
    afterAll(async () => {
      await new Promise((done) => server.close(done));
    });

    it('loads the HTTP/2 client on first use and answers through it', async () => {
      const [holder] = Object.entries(bundleContents()).filter(([, inside]) => inside.includes('src/api/undici.ts'));
      const bundle = resolve(import.meta.dirname, '../dist/bundle', holder![0]);
      const script = `
        const { Agent, request } = require(${JSON.stringify(bundle)});
        const before = process.moduleLoadList.includes('NativeModule http2');
        const agent = new Agent({ allowH2: true, connect: { useH2c: true } });
        const res = await request(agent, new URL('http://127.0.0.1:${(server.address() as AddressInfo).port}/ping'), { method: 'GET' });
        const text = await res.body.text();
        await agent.close();
        console.log(JSON.stringify({ before, after: process.moduleLoadList.includes('NativeModule http2'), status: res.statusCode, text }));
      `;
      const child = spawn(process.execPath, ['-e', `(async () => {${script}})()`], { stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      const code = await new Promise((done) => child.on('close', done));
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toEqual({ before: false, after: true, status: 200, text: 'h2 answer to /ping' });
    });
  });
});
