/**
 * Help answered from kept texts (bin/help-cache.cjs) is commander's help, byte for byte: for every
 * command and group, printed to a pipe (the texts the build rendered) and to a terminal of another
 * width (rendered through commander on first use, then kept), against the built main run without the
 * cache in front of it. A kept text that went stale, or a command whose help changed without a build,
 * fails here.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandPaths } from '../src/help-render.js';
import { BIN, tempHome } from './helpers/cli.js';

const REFERENCE = resolve(import.meta.dirname, 'helpers/run-main.mjs');
const BUILT = resolve(import.meta.dirname, '../dist/help');
const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

let argvs: string[][];
beforeAll(async () => {
  argvs = (await commandPaths()).map((path) => [...path, '--help']);
});

/**
 * Runs `node SCRIPT ARGV` for each argv in one shell, on a pipe or on a terminal `cols` wide (`script`
 * gives it one), and returns what each printed, with its exit code, in order.
 */
function transcript(script: string, runs: string[][], opts: { cols?: number; env?: Record<string, string> } = {}): string[] {
  const home = tempHome();
  const loop = runs.map((argv) => `"${process.execPath}" "${script}" ${argv.join(' ')}; echo "=== exit $?"`).join('\n');
  const shell = opts.cols === undefined ? loop : `stty cols ${opts.cols} rows 50; ${loop}`;
  const [cmd, args] = opts.cols === undefined ? ['sh', ['-c', shell]] : ['script', ['-qec', shell, '/dev/null']];
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CACHE_HOME: join(home, 'cache'), ...opts.env };
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', timeout: 240_000, maxBuffer: 64 << 20 });
  expect(r.status, r.stderr).toBe(0);
  const parts = r.stdout.split(/=== exit (\d+)\r?\n/);
  const out: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) out.push(`${parts[i]}(exit ${parts[i + 1]})`);
  expect(out).toHaveLength(runs.length);
  return out;
}

describe('kept help is commander help', () => {
  it('on a pipe: every command prints the text the build kept, which is what commander prints', () => {
    const reference = transcript(REFERENCE, argvs);
    const kept = transcript(BIN, argvs);
    argvs.forEach((argv, i) => {
      const what = `mkt ${argv.join(' ')}`;
      expect(reference[i], what).toMatch(/^Usage: mkt[\s\S]*\(exit 0\)$/);
      expect(kept[i], what).toBe(reference[i]);
      const file = join(BUILT, `${['mkt', ...argv].join('.')}.w80.txt`);
      expect(existsSync(file), `${what}: kept by the build`).toBe(true);
      expect(`${readFileSync(file, 'utf8')}(exit 0)`, what).toBe(reference[i]);
    });
    // The build keeps nothing else: one text per command, and the build's name.
    expect(readdirSync(BUILT).sort()).toEqual([...argvs.map((a) => `${['mkt', ...a].join('.')}.w80.txt`), 'BUILD'].sort());
  }, 300_000);

  it("with COLUMNS, colour forced or off, and in the help command's form: the same as commander, first and second time", () => {
    const runs = [
      ['--help'],
      ['-h'],
      ['help'],
      ['help', 'listings'],
      ['listings', 'search', '--help'],
      ['order', 'submit', '-h'],
      ['nosuch', '--help'],
    ];
    const envs: Record<string, string>[] = [{ COLUMNS: '61' }, { FORCE_COLOR: '1' }, { NO_COLOR: '1', COLUMNS: '200' }];
    for (const env of envs) {
      const reference = transcript(REFERENCE, runs, { env });
      // One home for both runs of the bin: the first renders through commander and keeps, the second reads.
      const home = tempHome();
      const cached = { ...env, HOME: home, XDG_CACHE_HOME: join(home, 'cache') };
      expect(transcript(BIN, runs, { env: cached }), JSON.stringify(env)).toEqual(reference);
      expect(transcript(BIN, runs, { env: cached }), JSON.stringify(env)).toEqual(reference);
    }
  }, 300_000);

  it.skipIf(!hasScript)(
    'on a 100-column terminal: every command, rendered and kept on first use, then read back',
    () => {
      const reference = transcript(REFERENCE, argvs, { cols: 100 });
      // Wrapped to the terminal, not to a pipe's 80.
      expect(reference[0]!.split('\n').some((l) => l.length > 81)).toBe(true);
      const home = tempHome();
      const env = { HOME: home, XDG_CACHE_HOME: join(home, 'cache') };
      expect(transcript(BIN, argvs, { cols: 100, env })).toEqual(reference);
      const [build] = readdirSync(join(home, 'cache/mkt/help'));
      expect(readdirSync(join(home, 'cache/mkt/help', build!))).toHaveLength(argvs.length);
      expect(transcript(BIN, argvs, { cols: 100, env })).toEqual(reference);
    },
    300_000,
  );

  it('a relative XDG_CACHE_HOME is ignored, as the XDG rule and the code cache ignore it: texts go to ~/.cache, never under the working directory', () => {
    const require = createRequire(import.meta.url);
    const { locate } = require('../bin/help-cache.cjs') as {
      locate: (argv: string[], dist: string, env: Record<string, string>) => { cached: string } | undefined;
    };
    const dist = resolve(import.meta.dirname, '../dist');
    const cached = (XDG_CACHE_HOME: string) => locate(['--help'], dist, { HOME: '/home/someone', XDG_CACHE_HOME })!.cached;
    expect(cached('relative/cache')).toMatch(/^\/home\/someone\/\.cache\/mkt\/help\//);
    expect(cached('')).toMatch(/^\/home\/someone\/\.cache\/mkt\/help\//);
    expect(cached('/elsewhere/cache')).toMatch(/^\/elsewhere\/cache\/mkt\/help\//);
  });

  it("a kept text is used only under its build's name, which names the commander that formats help", () => {
    // The commander that @commander-js/extra-typings (what mkt imports) loads.
    const require = createRequire(import.meta.url);
    const typings = require.resolve('@commander-js/extra-typings');
    const commander = JSON.parse(readFileSync(join(dirname(createRequire(typings).resolve('commander')), 'package.json'), 'utf8')).version;
    expect(require('../bin/help-cache.cjs').commanderVersion()).toBe(commander);
    // A copy of the package whose kept root help is a marker: shown under the right name, ignored under another.
    const root = tempHome();
    mkdirSync(join(root, 'bin'));
    mkdirSync(join(root, 'dist/help'), { recursive: true });
    for (const f of ['mkt.cjs', 'help-cache.cjs']) copyFileSync(resolve(import.meta.dirname, '../bin', f), join(root, 'bin', f));
    for (const f of ['package.json', 'node_modules', 'dist/bundle', 'dist/src', 'dist/mock-server'])
      symlinkSync(resolve(import.meta.dirname, '..', f), join(root, f));
    writeFileSync(join(root, 'dist/help/mkt.--help.w80.txt'), 'KEPT\n');
    const help = (build: string) => {
      writeFileSync(join(root, 'dist/help/BUILD'), `${build}\n`);
      const home = tempHome();
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CACHE_HOME: join(home, 'cache') };
      return spawnSync(process.execPath, [join(root, 'bin/mkt.cjs'), '--help'], { env, encoding: 'utf8' }).stdout;
    };
    expect(help(`0.1.0-x+commander.${commander}`)).toBe('KEPT\n');
    expect(help('0.1.0-x+commander.0.0.1')).toMatch(/^Usage: mkt \[options\] \[command\]\n/);
  });
});
