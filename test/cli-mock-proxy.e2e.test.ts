/**
 * `mkt mock proxy` as a user runs it (the built bin, its own process) in front of a second mock: the CLI
 * pointed at the proxy gets byte for byte what it gets from the mock directly, conforming traffic has
 * no violations, secrets never reach the proxy's journal, `mkt mock requests --violations` shows only
 * what differs, and SIGTERM prints the differences by endpoint and field and exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPassword } from '../mock-server/oauth/passwords.js';
import type { RequestLogEntry } from '../src/contract/mock-inspect.js';
import { answerCheckEnv, BIN, runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

/** A spawned `mkt mock proxy`, once it said where it listens. */
interface SpawnedProxy {
  child: ChildProcess;
  origin: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function spawnProxy(upstream: string): Promise<SpawnedProxy> {
  const home = tempHome();
  const child = spawn(process.execPath, [BIN, 'mock', 'proxy', '--upstream', upstream, '--port', '0'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      MKT_CONFIG_DIR: join(home, 'config'),
      MKT_STATE_DIR: join(home, 'state'),
      ...answerCheckEnv(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mkt mock proxy did not start: ${err}`));
    }, 15_000);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /^mkt mock proxy: (http:\/\/127\.0\.0\.1:\d+) -> /m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, origin: m[1]!, stderr: () => err, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`mkt mock proxy exited ${code}: ${err}`));
    });
  });
}

let mock: TestMock;
let proxy: SpawnedProxy;
let viaProxy: Record<string, string>;

beforeAll(async () => {
  mock = await startMock({ allowPasswordGrant: true });
  proxy = await spawnProxy(mock.origin);
  viaProxy = { ...mock.env, MKT_ROOT_URL: proxy.origin };
});
afterAll(async () => {
  if (proxy && proxy.child.exitCode === null) {
    proxy.child.kill('SIGKILL');
    await proxy.exited;
  }
  await mock?.close();
});

/** The proxy's journal as `mkt mock requests -o json` prints it. */
async function proxyJournal(...args: string[]): Promise<RequestLogEntry[]> {
  const r = await runMkt(['mock', 'requests', '--limit', '1000', '-o', 'json', ...args], { env: viaProxy });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { result: RequestLogEntry[] }).result;
}

function headerPairs(headers: Headers): [string, string][] {
  const pairs: [string, string][] = [];
  headers.forEach((value, name) => pairs.push([name, value]));
  return pairs;
}

describe('mkt mock proxy in front of a mock', () => {
  it('passes the CLI the same bytes as the mock gives it directly, and finds nothing wrong in them', async () => {
    for (const args of [
      ['listings', 'search', '--limit', '5', '-o', 'json'],
      ['account', '-o', 'json'],
      ['notes', 'list', '-o', 'csv'],
    ]) {
      const direct = await runMkt(args, { env: mock.env });
      const proxied = await runMkt(args, { env: viaProxy });
      expect(direct.code, direct.stderr).toBe(0);
      expect(proxied.code, proxied.stderr).toBe(0);
      expect(proxied.stdout).toBe(direct.stdout);
    }
    // On the wire too: the status, every header (the mock's own Date included) and the body bytes.
    for (const target of ['/listingsvc/v2/listings/?limit=3&fico_score=760-779', '/v1/accounts/platform', '/v1/nowhere']) {
      const headers = { authorization: `Bearer ${mock.env.MKT_ACCESS_TOKEN}` };
      const [a, b] = await Promise.all([fetch(`${mock.origin}${target}`, { headers }), fetch(`${proxy.origin}${target}`, { headers })]);
      expect(b.status).toBe(a.status);
      expect(headerPairs(b.headers)).toEqual(headerPairs(a.headers));
      expect(Buffer.from(await b.arrayBuffer()).equals(Buffer.from(await a.arrayBuffer()))).toBe(true);
    }
  });

  it('carries an order to the mock, and a token request, keeping every secret out of its journal', async () => {
    const now = mock.app.ctx.clock.now();
    const listing = mock.app.ctx.world.listings.find(
      (l) =>
        l.listing_status === 2
        && l.investment_typeid === 1
        && l.amount_remaining >= 100
        && !l.borrowerUserId
        && now - l.listing_creation_date > 2 * 86_400_000
        && l.listing_start_date < now
        && !l.mockRole
        && !l.authorizedUsers
        && !l.investmentTypeUnset,
    )!;
    const home = tempHome();
    const file = join(home, 'bids.csv');
    writeFileSync(file, `listing_id,bid_amount\n${listing.listing_number},25\n`);
    const orders = mock.app.ctx.world.orders.size;
    const r = await runMkt(['order', 'submit', file, '--yes'], { env: viaProxy, home });
    expect(r.code, r.stderr).toBe(0);
    expect(mock.app.ctx.world.orders.size).toBe(orders + 1);
    const password = userPassword(mock.app.ctx.options.seed, 'alice');
    const form = new URLSearchParams({
      grant_type: 'password',
      client_id: 'mkt-demo',
      client_secret: 'mkt-demo-secret',
      username: 'alice',
      password,
    });
    const tokenAnswer = await fetch(`${proxy.origin}/v1/security/oauth/token`, {
      method: 'POST',
      body: form,
      headers: { accept: 'application/json' },
    });
    expect(tokenAnswer.status).toBe(200);
    const issued = (await tokenAnswer.json()) as { access_token: string; refresh_token: string };
    // The test's token (`test-alice-1-…`, not shaped like a random credential) sent where no name says it
    // is a secret: the journal hides it all the same, as the proxy saw it pass as a bearer token.
    await fetch(`${proxy.origin}/v1/accounts/platform?note=${mock.env.MKT_ACCESS_TOKEN}`, {
      headers: { authorization: `Bearer ${issued.access_token}` },
    });
    const entries = await proxyJournal();
    expect(entries.map((e) => e.path)).toEqual(
      expect.arrayContaining(['/v1/orders', '/v1/security/oauth/token', '/listingsvc/v2/listings']),
    );
    const text = JSON.stringify(entries);
    for (const secret of [mock.env.MKT_ACCESS_TOKEN!, issued.access_token, issued.refresh_token, password, 'mkt-demo-secret'])
      expect(text).not.toContain(secret);
    expect(text).toContain('Bearer ***');
    // The query names the token's place with no secret-sounding name; the value is gone all the same.
    const noted = entries.find((e) => e.query.startsWith('note='))!;
    expect(noted.query).toBe('note=***');
    // The CLI's traffic conforms: the differences are the query parameter this test added, and the
    // path of the first test that no operation has (its 404 is as the document says an unknown path's is).
    const nowhere = entries.find((e) => e.path === '/v1/nowhere')!;
    expect(nowhere.violations).toEqual([
      { direction: 'request', operation: 'GET /v1/nowhere', field: '/path', problem: 'no path of the document' },
    ]);
    expect(entries.filter((e) => e !== noted && e !== nowhere).flatMap((e) => e.violations ?? [])).toEqual([]);
    expect(noted.violations).toEqual([
      {
        direction: 'request',
        operation: 'GET /v1/accounts/platform',
        field: '/query/note',
        problem: 'not a parameter of GET /v1/accounts/platform',
      },
    ]);
  });

  it('lists only what differs with --violations, and prints the differences by endpoint and field on SIGTERM, exit 0', async () => {
    const bad = await fetch(`${proxy.origin}/v1/notes/?limit=abc`, { headers: { authorization: `Bearer ${mock.env.MKT_ACCESS_TOKEN}` } });
    expect(bad.status).toBe(400); // the mock's own answer to it, forwarded: the proxy changes nothing
    const only = await proxyJournal('--violations');
    expect(only.map((e) => `${e.method} ${e.path}?${e.query}`)).toEqual([
      'GET /v1/notes?limit=abc',
      'GET /v1/accounts/platform?note=***',
      'GET /v1/nowhere?',
    ]);
    const table = await runMkt(['mock', 'requests', '--violations'], { env: viaProxy });
    expect(table.stdout).toContain('request /query/limit: must be integer');
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(0);
    const summary = proxy.stderr();
    expect(summary).toMatch(/proxy: \d+ exchange\(s\), 3 with differences from the OpenAPI document; by endpoint and field/);
    expect(summary).toContain(
      '  GET /v1/accounts/platform\n        1 × request /query/note: not a parameter of GET /v1/accounts/platform\n',
    );
    expect(summary).toContain('  GET /v1/notes/\n        1 × request /query/limit: must be integer\n');
    expect(summary).toContain('  GET /v1/nowhere\n        1 × request /path: no path of the document\n');
  });
});
