import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runMkt, tempHome } from './helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '..');
let serve: ChildProcess;
let banner = '';

beforeAll(async () => {
  serve = spawn(process.execPath, [BIN, 'mock', 'serve', '--port', '0', '--listings', '300', '--frozen', '--auto-approve', 'alice'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  serve.stdout!.setEncoding('utf8').on('data', (d: string) => (banner += d));
  for (let i = 0; i < 200 && !/try, in another terminal/.test(banner); i++) await new Promise((r) => setTimeout(r, 50));
});
afterAll(() => {
  serve?.kill('SIGTERM');
});

/** Runs a shell line in the clone as a user would type it, with a private home, npm cache and no network. */
function shell(
  line: string,
  home: string,
  onStderr: (all: string) => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    MKT_CONFIG_DIR: join(home, 'config'),
    MKT_STATE_DIR: join(home, 'state'),
    // npx installs the clone itself into its cache: a private cache, offline (all traffic stays local), and
    // without `prepare`, whose rebuild of dist/ would race the other test files (npm test has just built it).
    npm_config_cache: mkdtempSync(join(tmpdir(), 'mkt-npx-')),
    npm_config_offline: 'true',
    npm_config_ignore_scripts: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  return new Promise((done, fail) => {
    const child = spawn('sh', ['-c', line], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => onStderr((stderr += d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe('the banner of mkt mock serve', () => {
  it('its try: line works as printed in a clone, with npx, on a machine without a browser', async () => {
    const line = /try, in another terminal of this clone: (.+)$/m.exec(banner)?.[1];
    expect(line, banner).toMatch(/^export MKT_ROOT_URL=http:\/\/127\.0\.0\.1:\d+; npx mkt login --insecure-storage$/);
    const home = tempHome();
    // No DISPLAY and no browser: mkt follows the mock's auto-approval itself (a test playing the browser too
    // would race it for the key).
    const r = await shell(line!, home, () => undefined);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('approved at once');
    expect(r.stderr).toContain('Logged in');
    // And the commands after it reach the same mock with what login stored.
    const origin = /listening on (\S+)/.exec(banner)![1]!;
    const search = await runMkt(['listings', 'search', '--limit', '1', '-o', 'json'], { home, env: { MKT_ROOT_URL: origin } });
    expect(search.code, search.stderr).toBe(0);
    expect(search.stderr).not.toContain('plain file');
  }, 120_000);

  it('says how many active listings search shows and how many are whole loans it hides', async () => {
    const [, fractional, whole] =
      /of the active: (\d+) fractional \(what `mkt listings search` shows\), (\d+) whole-loan \(shown with --whole-loan\)/.exec(banner)
      ?? [];
    expect(Number(whole), banner).toBeGreaterThan(0);
    const origin = /listening on (\S+)/.exec(banner)![1]!;
    const active = Number(/(\d+) active listings/.exec(banner)![1]);
    const env = { MKT_ROOT_URL: origin };
    const home = tempHome();
    // alice, whom the mock approves at once, is whole-loan eligible, so both searches answer.
    const login = await shell(`export MKT_ROOT_URL=${origin}; node ${BIN} login --insecure-storage --timeout 20`, home, () => undefined);
    expect(login.code, login.stderr).toBe(0);
    const total = async (args: string[]) => {
      const r = await runMkt(['listings', 'search', '--limit', '1', '-o', 'json', ...args], { home, env });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { total_count: number }).total_count;
    };
    expect(await total([])).toBe(Number(fractional));
    expect(await total(['--whole-loan'])).toBe(Number(whole));
    expect(Number(fractional) + Number(whole)).toBe(active);
  }, 60_000);

  it('prints the dashboard URL, which answers the page', async () => {
    const origin = /listening on (\S+)/.exec(banner)![1]!;
    const url = /^ {2}dashboard (\S+) /m.exec(banner)?.[1];
    expect(url, banner).toBe(`${origin}/__mock/`);
    const res = await fetch(url!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain('<title>mkt mock dashboard</title>');
  });
});
