/**
 * Never rebuild under a running job (issue 42, item 1), in a copy of the clone (its sources, scripts and bin,
 * node_modules linked): `npx mkt` with an npm cache and HOME that have never seen the clone runs the build
 * that is there and builds nothing (before, npm ran `prepare`, a full build in place, on every new cache);
 * a missing build, or under npx one older than the sources, is named with the command that makes it; and a
 * `mkt mock serve` started before a build of changed sources keeps answering from its own build, loading a
 * module it had not loaded yet (the OpenAPI document, on the first GET /openapi.json) after the swap.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const clone = realpathSync(mkdtempSync(join(tmpdir(), 'mkt-clone-')));
const homes = realpathSync(mkdtempSync(join(tmpdir(), 'mkt-clone-homes-')));
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const BUILD_MS = 300_000;
const TITLE = 'Investment marketplace API (mkt mock)';
const REBUILT = 'Investment marketplace API (mkt mock, rebuilt)';

const children: ChildProcess[] = [];

beforeAll(() => {
  for (const f of ['bin', 'src', 'mock-server', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'])
    cpSync(join(ROOT, f), join(clone, f), { recursive: true });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(clone, 'node_modules'));
});
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(clone, { recursive: true, force: true });
  rmSync(homes, { recursive: true, force: true });
});

/**
 * A user who has never run npm here: a new HOME and an empty npm cache (npx installs the clone into it),
 * offline (all traffic stays local), with mkt's own folders under that HOME.
 */
function newUser(): Record<string, string> {
  const home = mkdtempSync(join(homes, 'home-'));
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    MKT_CONFIG_DIR: join(home, 'config'),
    MKT_STATE_DIR: join(home, 'state'),
    npm_config_cache: join(home, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program in the copy, bounded in time. */
function run(cmd: string, args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

const mkt = (args: string[], env = newUser()) => run(process.execPath, [join(clone, 'bin', 'mkt.cjs'), ...args], env);
const npxMkt = (args: string[]) => run('npx', ['mkt', ...args], newUser(), 120_000);
const build = () => run('npm', ['run', 'build'], newUser(), BUILD_MS);

/** What a build leaves on disk, to tell whether another one ran: the folders, the bundle's file, the link. */
function builtState() {
  const link = join(clone, '.dist', 'current');
  const main = statSync(join(clone, 'dist', 'bundle', 'main.cjs'));
  return {
    link: existsSync(link) ? realpathSync(link) : undefined,
    dist: statSync(join(clone, 'dist')).ino,
    main: [main.ino, main.mtimeMs],
    unfinished: existsSync(join(clone, '.dist')) ? readdirSync(join(clone, '.dist')).filter((n) => n.startsWith('next-')) : [],
  };
}

describe('the build, and jobs running from it', () => {
  it('without a build, mkt and npx mkt name `npm run build` (exit 1), and npx builds nothing', async () => {
    for (const r of [await mkt(['listings', 'search']), await npxMkt(['listings', 'search'])]) {
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^mkt: no build of mkt here \(.*dist\/bundle\/main\.cjs is missing\): run `npm run build` in /);
      expect(r.stderr).toContain(clone);
      expect(r.stdout).toBe('');
    }
    expect(existsSync(join(clone, 'dist'))).toBe(false);
  }, 200_000);

  it(
    'npx mkt --version, for a user whose npm cache and HOME never saw the clone, runs the build that is there',
    async () => {
      const built = await build();
      expect(built.code, built.stderr).toBe(0);
      const before = builtState();
      const r = await npxMkt(['--version']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${version}\n`);
      expect(builtState()).toEqual(before);
    },
    2 * BUILD_MS,
  );

  it(
    'a running mock serve keeps answering from its own build while a build of changed sources is swapped in',
    async () => {
      const child = spawn(process.execPath, [join(clone, 'bin', 'mkt.cjs'), 'mock', 'serve', '--port', '0', '--listings', '20'], {
        cwd: clone,
        env: newUser(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let out = '';
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      const origin = await new Promise<string>((done, fail) => {
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) done(m[1]!);
        });
        void exited.then((code) => fail(new Error(`mock serve exited ${code}: ${err}`)));
      });

      // The sources change (as a `git pull` would change them), and the clone is built again under the mock.
      const document = join(clone, 'src/contract/openapi/document.ts');
      const text = readFileSync(document, 'utf8');
      expect(text).toContain(`'${TITLE}'`);
      writeFileSync(document, text.replace(`'${TITLE}'`, `'${REBUILT}'`));
      const built = await build();
      expect(built.code, built.stderr).toBe(0);

      // The mock loads the document's module now, for the first time: its own build's.
      const res = await fetch(`${origin}/openapi.json`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { info: { title: string } }).info.title).toBe(TITLE);
      // A new run gets the new build.
      const fresh = await mkt(['mock', 'openapi']);
      expect(fresh.code, fresh.stderr).toBe(0);
      expect((JSON.parse(fresh.stdout) as { info: { title: string } }).info.title).toBe(REBUILT);

      child.kill('SIGTERM');
      expect(await exited, err).toBe(0);
      expect(err).not.toMatch(/Error|Cannot find/);
    },
    2 * BUILD_MS,
  );

  it('npx mkt names a source changed after the build, with `npm run build`; mkt itself runs the build that is there', async () => {
    // Touched now, after the build began (as an editor's save would).
    const now = new Date();
    utimesSync(join(clone, 'src', 'cli.ts'), now, now);
    const r = await npxMkt(['mock', 'openapi']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^mkt: the build \(.*\) is older than src\/cli\.ts, changed since: run `npm run build` in /);
    expect(r.stdout).toBe('');
    const plain = await mkt(['mock', 'openapi']);
    expect(plain.code, plain.stderr).toBe(0);
  }, 200_000);
});
