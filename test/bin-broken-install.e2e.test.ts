/**
 * The bin (bin/mkt.cjs) when main cannot run at all (a damaged install: dist/ missing, the bundle
 * broken): exit 1, "an unexpected failure" (README, exit codes), with the reason on stderr, whatever
 * Node is told to do with a rejection nobody handles. Before, the bin left the rejection to Node: with
 * NODE_OPTIONS=--unhandled-rejections=warn (or none) a run that did nothing exited 0.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
/** A package with the bin and package.json but no dist/: requiring the main bundle fails. */
const broken = mkdtempSync(join(tmpdir(), 'mkt-broken-'));
mkdirSync(join(broken, 'bin'));
for (const f of ['bin/mkt.cjs', 'bin/help-cache.cjs', 'package.json']) copyFileSync(join(ROOT, f), join(broken, f));
afterAll(() => rmSync(broken, { recursive: true, force: true }));

function run(args: string[], nodeOptions: string) {
  return spawnSync(process.execPath, [join(broken, 'bin/mkt.cjs'), ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { PATH: process.env.PATH, HOME: broken, NODE_OPTIONS: nodeOptions, XDG_CACHE_HOME: join(broken, 'cache') },
  });
}

describe('a bin whose main cannot load', () => {
  it.each(['', '--unhandled-rejections=warn', '--unhandled-rejections=none'])(
    'exits 1 and says why (NODE_OPTIONS=%j), for a command and for help',
    (nodeOptions) => {
      for (const args of [
        ['listings', 'search'],
        ['listings', 'search', '--help'],
      ]) {
        const r = run(args, nodeOptions);
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(1);
        expect(r.stderr).toMatch(/^mkt: /);
        expect(r.stderr).toContain('dist/bundle/');
        expect(r.stdout).toBe('');
      }
    },
  );
});
