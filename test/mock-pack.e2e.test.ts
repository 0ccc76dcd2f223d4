/**
 * `mkt/mock` as a user gets it: the repository packed with `npm pack` (the built dist/ that package.json
 * `files` ships), the tarball installed with no network into a project outside the repository, then a
 * script of that project imports `mkt/mock` and `msw/node`, runs a search through setupServer and prints
 * what it found, and the repository's tsc checks a .ts of that project against the published declarations.
 *
 * Offline: `npm install --offline` resolves nothing through the registry's metadata (which a fresh `npm ci`
 * leaves in the cache in a form `npm install` does not take: ENOTCACHED for the first dependency), so the
 * project starts with a lockfile holding the repository's own production entries, whose tarballs `npm ci`
 * cached; npm then fetches each by its integrity. Off CI a cache without them skips the file with the
 * reason; under CI (`.ci/run` ran `npm ci` first) that is a failure.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarketplace } from '../mock-server/library/index.js';
import { isCi } from './helpers/requirements.js';

const ROOT = resolve(import.meta.dirname, '..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
// realpath: on some machines the temporary folder is a symlink, and Node reports resolved paths.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'mkt-pack-')));
const project = join(work, 'consumer');
const SEARCH = '/listingsvc/v2/listings/?limit=500&platform_rating=A,B&amount_remaining_min=25';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program with a plain environment (npm's cache where the repository's `npm ci` filled it), bounded in time. */
function run(file: string, args: string[], cwd: string, timeoutMs: number): Promise<Ran> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? work, NO_COLOR: '1' };
  // A cache moved elsewhere (npm passes its own to the scripts it runs, `npm test` included) is the one `npm ci` filled.
  for (const [k, v] of Object.entries(process.env)) if (/^npm_config_cache$/i.test(k) && v) env[k] = v;
  return new Promise((done) => {
    execFile(file, args, { cwd, env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      done({ code, stdout, stderr });
    });
  });
}

/** Why the offline install could not run on this machine (off CI only), or null once the project is installed. */
let skipReason: string | null = null;

beforeAll(async () => {
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT, 120_000);
  expect(packed.code, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout) as [{ filename: string; integrity: string; files: { path: string }[] }];
  expect(info.files.map((f) => f.path)).toContain('dist/mock-server/library/node.d.ts');
  const tarball = join(work, info.filename);

  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  const production = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && !entry.dev);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
  writeFileSync(
    join(project, 'package-lock.json'),
    JSON.stringify({
      name: 'consumer',
      lockfileVersion: 3,
      requires: true,
      packages: { '': { name: 'consumer' }, ...Object.fromEntries(production) },
    }),
  );
  const installed = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], project, 180_000);
  if (installed.code !== 0 && /ENOTCACHED/.test(installed.stderr) && !isCi(process.env)) {
    skipReason = `npm's cache lacks a dependency of mkt (run npm ci in the repository first; under CI this is a failure): ${installed.stderr.match(/request to \S+/)?.[0] ?? installed.stderr.trim().split('\n')[0]}`;
    console.warn(`skipping the npm pack test: ${skipReason}`);
    return;
  }
  expect(installed.code, installed.stderr).toBe(0);
}, 320_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('npm pack: mkt/mock from a project outside the repository', () => {
  it('a script imports mkt/mock and msw/node and runs a search through setupServer', async (ctx) => {
    if (skipReason) ctx.skip(skipReason);
    writeFileSync(
      join(project, 'search.mjs'),
      [
        "import { setupServer } from 'msw/node';",
        "import { createMarketplace } from 'mkt/mock';",
        'const market = createMarketplace({ seed: 5, listings: 300 });',
        "const server = setupServer(...market.handlers('https://api.example.test'));",
        "server.listen({ onUnhandledRequest: 'error' });",
        "const token = await market.tokenFor('alice');",
        `const res = await fetch('https://api.example.test${SEARCH}', { headers: { authorization: 'bearer ' + token } });`,
        'const body = await res.json();',
        "console.log(JSON.stringify({ status: res.status, count: body.result.length, from: import.meta.resolve('mkt/mock') }));",
        'server.close();',
        'await market.close();',
      ].join('\n'),
    );
    const r = await run(process.execPath, ['search.mjs'], project, 60_000);
    expect(r.code, r.stderr).toBe(0);
    const printed = JSON.parse(r.stdout) as { status: number; count: number; from: string };
    // The installed copy, not the repository's source or its dist/.
    expect(printed.from).toBe(`file://${project}/node_modules/mkt/dist/mock-server/library/node.js`);
    // The packed library answers as the repository's own for the same seed and search.
    const market = createMarketplace({ seed: 5, listings: 300 });
    const res = await market.handle(
      new Request(`https://api.example.test${SEARCH}`, { headers: { authorization: `bearer ${await market.tokenFor('alice')}` } }),
    );
    const expected = ((await res.json()) as { result: unknown[] }).result.length;
    await market.close();
    expect(expected).toBeGreaterThan(0);
    expect(printed).toMatchObject({ status: 200, count: expected });
  }, 90_000);

  it("mkt/mock's types resolve under moduleResolution NodeNext", async (ctx) => {
    if (skipReason) ctx.skip(skipReason);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
        },
        files: ['uses.ts'],
      }),
    );
    writeFileSync(
      join(project, 'uses.ts'),
      [
        "import { createMarketplace, type Marketplace } from 'mkt/mock';",
        'export const market: Marketplace = createMarketplace({ seed: 1, listings: 0, history: "none" });',
        "export const later: Promise<Date> = market.clock.advance('15d');",
        "export const token: Promise<string> = market.tokenFor('alice', { scopes: ['read_write'] });",
        // Were the declarations missing, everything would be `any` and these lines would not be errors.
        '// @ts-expect-error history takes seeded or none',
        "createMarketplace({ history: 'some' });",
        '// @ts-expect-error no such method',
        'market.clock.rewind();',
      ].join('\n'),
    );
    const r = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], project, 120_000);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // tsc takes 4 s on a quiet machine and passed the 30 s default on a loaded one: the bound is the run's above.
  }, 150_000);
});
