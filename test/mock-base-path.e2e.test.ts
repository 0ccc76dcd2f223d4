/**
 * `mkt mock serve --base-path`: a mock behind a path prefix. Its banner gives the URLs with the
 * prefix, and the CLI pointed at them logs in, reads, orders and moves the mock's clock through it;
 * the CLI pointed at the bare origin meets the 404 that names the path, as against a wrong base URL
 * of the real service. A --base-path that is no path prefix is exit 2 before anything listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followWithoutBrowser, freePort, spawnLogin } from './helpers/auth-login.js';
import { BIN, runMkt, tempHome } from './helpers/cli.js';

const BASE = '/market/api';
let serve: ChildProcess;
let banner = '';
let client: { MKT_CLIENT_ID: string; MKT_REDIRECT_URI: string; MKT_CLIENT_SECRET: string };

beforeAll(async () => {
  // A client of the test's own on a free port: the demo client's fixed catcher port may be in use by another file.
  const redirect = `http://127.0.0.1:${await freePort()}/callback`;
  client = { MKT_CLIENT_ID: 'base-path-test', MKT_REDIRECT_URI: redirect, MKT_CLIENT_SECRET: 'base-path-secret' };
  serve = spawn(
    process.execPath,
    [
      BIN,
      'mock',
      'serve',
      '--port',
      '0',
      '--listings',
      '120',
      '--frozen',
      '--auto-approve',
      'alice',
      '--client',
      `base-path-test:base-path-secret:${redirect}`,
      '--base-path',
      `${BASE}/`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  serve.stdout!.setEncoding('utf8').on('data', (d: string) => (banner += d));
  for (let i = 0; i < 300 && !/try, in another terminal/.test(banner); i++) await new Promise((r) => setTimeout(r, 50));
}, 30_000);
afterAll(() => {
  serve?.kill('SIGTERM');
});

const origin = () => /listening on (http:\/\/\S+)/.exec(banner)![1]!;

describe('mkt mock serve --base-path', () => {
  it('prints base_url, root_url, auth_url and the try: line under the prefix', () => {
    const o = origin();
    expect(banner).toContain(`listening on ${o} under ${BASE}\n`);
    expect(banner).toContain(`  base_url  ${o}${BASE}/v1\n`);
    expect(banner).toContain(`  root_url  ${o}${BASE}\n`);
    expect(banner).toContain(`  auth_url  ${o}${BASE}\n`);
    expect(banner).toContain(`  dashboard ${o}${BASE}/__mock/ (`);
    expect(banner).toContain(`export MKT_ROOT_URL=${o}${BASE}; npx mkt login`);
  });

  it('serves the CLI pointed at the prefix: login, reads, an order, the admin clock and journal', async () => {
    const home = tempHome();
    const env = { MKT_ROOT_URL: `${origin()}${BASE}`, ...client };
    const login = spawnLogin(home, env, ['--insecure-storage', '--timeout', '20']);
    const url = await login.url;
    expect(url.startsWith(`${origin()}${BASE}/oauth?`)).toBe(true);
    await followWithoutBrowser(url);
    const done = await login.done;
    expect(done.code, done.stderr).toBe(0);

    const run = (args: string[], input?: string) =>
      runMkt([...args, '-o', 'json'], { home, env, ...(input === undefined ? {} : { input }) });
    const search = await run(['listings', 'search', '--limit', '2']);
    expect(search.code, search.stderr).toBe(0);
    const listing = (JSON.parse(search.stdout) as { result: { listing_number: number }[] }).result[0]!.listing_number;
    for (const args of [['account'], ['notes', 'list'], ['loans', 'list'], ['order', 'list']]) {
      const r = await run(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const order = await run(['order', 'submit', '-', '--yes'], `listing_id,bid_amount\n${listing},25\n`);
    expect(order.code, order.stderr).toBe(0);
    const clock = await run(['mock', 'clock', 'advance', '1h']);
    expect(clock.code, clock.stderr).toBe(0);
    expect(JSON.parse(clock.stdout).moved_ms).toBe(3_600_000);
    const seen = await run(['mock', 'requests', '--limit', '50']);
    expect(seen.code, seen.stderr).toBe(0);
    const journal = JSON.parse(seen.stdout) as { path: string }[] | { result: { path: string }[] };
    const paths = (Array.isArray(journal) ? journal : journal.result).map((e) => e.path);
    expect(paths).toContain(`${BASE}/v1/orders`);
    expect(
      paths.every((p) => p.startsWith(`${BASE}/`)),
      paths.join(' '),
    ).toBe(true);
  }, 90_000);

  it('answers the CLI pointed at the bare origin with the 404 naming the path, as a wrong base URL would get', async () => {
    const r = await runMkt(['listings', 'search', '--limit', '1'], { env: { MKT_ROOT_URL: origin(), MKT_ACCESS_TOKEN: 'x' } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('No route for GET /listingsvc/v2/listings');
  });

  it('refuses a --base-path that is no path prefix with exit 2, naming it', async () => {
    for (const [value, says] of [
      ['api', /--base-path must start with '\/', got 'api'/],
      ['/a/../b', /'\.\.' segment/],
      ['/__mock', /'__mock' segment/],
      ['/a?b', /without '\?' or '#'/],
      ['/[v6]', /'\['/],
    ] as const) {
      const r = await runMkt(['mock', 'serve', '--port', '0', '--listings', '5', '--base-path', value]);
      expect(r.code, `${value}: ${r.stderr}`).toBe(2);
      expect(r.stderr, value).toMatch(says);
    }
  });
});
