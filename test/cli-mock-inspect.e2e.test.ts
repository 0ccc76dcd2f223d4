/**
 * `mkt mock requests` and `mkt mock outbox` as a user runs them against a real mock over HTTP, and
 * the outbox of `mkt mock serve --state` under kill -9: no message lost, none sent twice.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { RequestLogEntry, OutboxMessage } from '../src/contract/mock-inspect.js';
import { BIN, runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';
import { aliceToken, serveMock, type ServedMock } from './helpers/serve.js';

const mocks: TestMock[] = [];
const served: ServedMock[] = [];
afterEach(async () => {
  for (const m of mocks.splice(0)) await m.close();
  for (const m of served.splice(0)) m.child.kill('SIGKILL');
});

async function mock(): Promise<TestMock> {
  const m = await startMock({ listings: 60 });
  mocks.push(m);
  return m;
}

const ndjson = <T>(text: string): T[] =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

describe('mkt mock requests', () => {
  test('prints the journal newest first: a table, or one JSON line per request', async () => {
    const m = await mock();
    await fetch(`${m.origin}/v1/orders?limit=2`, { headers: { authorization: `Bearer ${m.env.MKT_ACCESS_TOKEN}` } });
    await fetch(`${m.origin}/no/such/route`);
    const lines = await runMkt(['mock', 'requests', '-o', 'ndjson'], { env: m.env });
    expect(lines.code, lines.stderr).toBe(0);
    const entries = ndjson<RequestLogEntry>(lines.stdout);
    expect(entries.map((e) => [e.method, e.path, e.status, e.account])).toEqual([
      ['GET', '/no/such/route', 404, null],
      ['GET', '/v1/orders', 200, 'alice-1'],
    ]);
    expect(lines.stdout).not.toContain(m.env.MKT_ACCESS_TOKEN);
    const table = await runMkt(['mock', 'requests', '-o', 'table', '--limit', '1'], { env: m.env });
    expect(table.code, table.stderr).toBe(0);
    const [header, row, ...rest] = table.stdout.trimEnd().split('\n');
    expect(header!.split(/\s+/)).toEqual(['time', 'method', 'path', 'status', 'ms', 'account']);
    expect(row).toMatch(/^\d{4}-\d\d-\d\dT\S+\s+GET\s+\/no\/such\/route\s+404\s+[\d.]+\s*$/);
    expect(rest).toEqual([]);
  });

  test('a part of the journal has a footer naming --offset, and --offset reads the next part', async () => {
    const m = await mock();
    for (const path of ['/one', '/two', '/three']) await fetch(`${m.origin}${path}`);
    const first = await runMkt(['mock', 'requests', '-o', 'table', '--limit', '2'], { env: m.env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr.trim()).toBe('2 of 3 — use --offset');
    const next = await runMkt(['mock', 'requests', '-o', 'ndjson', '--limit', '2', '--offset', '2'], { env: m.env });
    expect(next.code, next.stderr).toBe(0);
    expect(ndjson<RequestLogEntry>(next.stdout).map((e) => e.path)).toEqual(['/one']);
    const follow = await runMkt(['mock', 'requests', '--follow', '--offset', '2'], { env: m.env });
    expect(follow.code).toBe(2);
    expect(follow.stderr).toMatch(/--follow starts from the newest request/);
  });

  test('a bad --limit is exit 2 with nothing sent', async () => {
    const m = await mock();
    const res = await runMkt(['mock', 'requests', '--limit', '5000'], { env: m.env });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--limit must be at most 1000/);
    expect(m.app.requestLog.list(10).total).toBe(0);
  });

  test('--follow prints a request made after it started, and Ctrl-C ends it quietly with exit 130', async () => {
    const m = await mock();
    await fetch(`${m.origin}/before`);
    const home = tempHome();
    const child = spawn(process.execPath, [BIN, 'mock', 'requests', '--follow', '-o', 'ndjson'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        MKT_CONFIG_DIR: join(home, 'config'),
        MKT_STATE_DIR: join(home, 'state'),
        ...m.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    let waiting: { re: RegExp; resolve: () => void } | undefined;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (waiting?.re.test(out)) waiting.resolve();
    });
    const seen = (re: RegExp) =>
      new Promise<void>((resolve) => {
        waiting = { re, resolve };
        if (re.test(out)) resolve();
      });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await seen(/"path":"\/before"/);
    await fetch(`${m.origin}/after`);
    await seen(/"path":"\/after"/);
    child.kill('SIGINT');
    const code = await exited;
    clearTimeout(killer);
    expect(code).toBe(130);
    expect(err).toBe('');
    expect(ndjson<RequestLogEntry>(out).map((e) => e.path)).toEqual(['/before', '/after']);
  });
});

describe('mkt mock outbox and the outbox under kill -9', () => {
  function serveArgs(file: string): string[] {
    return ['--state', file, '--listings', '60', '--frozen', '--start', '2026-06-01T12:00:00Z', '--auto-approve', 'alice'];
  }

  async function serve(file: string): Promise<ServedMock> {
    const m = await serveMock(serveArgs(file));
    served.push(m);
    return m;
  }

  async function killAndRestart(m: ServedMock, file: string): Promise<ServedMock> {
    m.child.kill('SIGKILL');
    await m.exited;
    return serve(file);
  }

  async function messages(origin: string, orderId: string): Promise<OutboxMessage[]> {
    const res = await fetch(`${origin}/__mock/outbox?order_id=${orderId}`);
    return ((await res.json()) as { result: OutboxMessage[] }).result;
  }

  test('each email is sent exactly once across kills: processed, then completed; mkt mock outbox prints them', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mkt-outbox-kill-')), 'world.json');
    let m = await serve(file);
    const token = await aliceToken(m.origin);
    const listings = await fetch(`${m.origin}/listingsvc/v2/listings/?limit=20`, { headers: { authorization: `bearer ${token}` } });
    let orderId = '';
    let listing = 0;
    for (const l of ((await listings.json()) as { result: { listing_number: number }[] }).result) {
      const res = await fetch(`${m.origin}/v1/orders/`, {
        method: 'POST',
        headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ bid_requests: [{ listing_id: l.listing_number, bid_amount: 25 }] }),
      });
      if (res.ok) {
        orderId = ((await res.json()) as { order_id: string }).order_id;
        listing = l.listing_number;
        break;
      }
    }
    expect(orderId).not.toBe('');
    expect((await fetch(`${m.origin}/__mock/process`, { method: 'POST' })).status).toBe(200);
    m = await killAndRestart(m, file);
    expect((await messages(m.origin, orderId)).map((x) => x.kind)).toEqual(['order_processed']);
    await fetch(`${m.origin}/__mock/process`, { method: 'POST' });
    expect((await fetch(`${m.origin}/__mock/listings/${listing}/withdraw`, { method: 'POST' })).status).toBe(200);
    m = await killAndRestart(m, file);
    m = await killAndRestart(m, file);
    expect((await messages(m.origin, orderId)).map((x) => x.kind)).toEqual(['order_completed', 'order_processed']);

    const env = { MKT_ROOT_URL: m.origin };
    const lines = await runMkt(['mock', 'outbox', '--to', 'alice@investors.example', '-o', 'ndjson'], { env });
    expect(lines.code, lines.stderr).toBe(0);
    expect(ndjson<OutboxMessage>(lines.stdout).map((x) => [x.kind, x.order_id, x.to])).toEqual([
      ['order_completed', orderId, 'alice@investors.example'],
      ['order_processed', orderId, 'alice@investors.example'],
    ]);
    const table = await runMkt(['mock', 'outbox', '--limit', '1', '-o', 'table'], { env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^sent_at\s+to\s+kind\s+order_id\s+subject\n/);
    expect(table.stdout).toMatch(/alice@investors\.example\s+order_completed/);
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(2);
  });
});
