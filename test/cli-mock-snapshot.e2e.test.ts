/**
 * `mkt mock snapshot save|load|list|rm` as a user runs them against a real mock over HTTP (a mock
 * without --state: its snapshots live in its memory), and the /__mock/snapshots routes' answers to bad
 * names, missing snapshots and callers without the admin token.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { startHttpServer } from '../mock-server/http-adapter.js';
import { serializeState } from '../mock-server/world/persistence.js';
import type { MockApp } from '../mock-server/app.js';
import { NOWHERE, runMkt } from './helpers/cli.js';
import { startMock, TEST_START, testMockApp, type TestMock } from './helpers/mock.js';
import { rawRequest } from './helpers/raw-http.js';

const DAY = 86_400_000;
const mocks: TestMock[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const m of mocks.splice(0)) await m.close();
  for (const c of closers.splice(0)) await c();
});

async function mock(): Promise<TestMock> {
  const m = await startMock({ listings: 60 });
  mocks.push(m);
  return m;
}

/** The whole world as the state file would hold it, hashed: equal digests, byte-equal worlds. */
function digest(app: MockApp): string {
  return createHash('sha256').update(serializeState(app.ctx.world, app.ctx.clock.now())).digest('hex');
}

/** The listing rows a client sees: every active listing, as the search answers it. */
async function listingRows(m: TestMock): Promise<unknown[]> {
  const res = await fetch(`${m.origin}/listingsvc/v2/listings/?limit=500`, {
    headers: { authorization: `Bearer ${m.env.MKT_ACCESS_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: unknown[] }).result;
}

describe('mkt mock snapshot', () => {
  test('save, list, load (the world back byte for byte), rm', async () => {
    const m = await mock();
    const before = digest(m.app);
    const rows = await listingRows(m);
    const saved = await runMkt(['mock', 'snapshot', 'save', 'before-run', '-o', 'json'], { env: m.env });
    expect(saved.code, saved.stderr).toBe(0);
    expect(JSON.parse(saved.stdout)).toMatchObject({
      name: 'before-run',
      now: '2026-06-01 12:00:00 +0000',
      listings: m.app.ctx.world.listings.length,
      problem: null,
    });
    expect(saved.stderr).toMatch(/^saved snapshot before-run: the world at 2026-06-01 12:00:00 UTC, \d+ listings, \d+ bytes$/m);

    // Change the world: an order, a withdrawn listing, a day of market.
    const [first] = rows as { listing_number: number }[];
    const withdraw = await fetch(`${m.origin}/__mock/listings/${first!.listing_number}/withdraw`, { method: 'POST' });
    expect(withdraw.status).toBe(200);
    const order = await fetch(`${m.origin}/v1/orders/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${m.env.MKT_ACCESS_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ bid_requests: [{ listing_id: (rows[1] as { listing_number: number }).listing_number, bid_amount: 25 }] }),
    });
    expect(order.status).toBe(200);
    expect(digest(m.app)).not.toBe(before);
    expect(await listingRows(m)).not.toEqual(rows);

    const table = await runMkt(['mock', 'snapshot', 'list', '-o', 'table'], { env: m.env });
    expect(table.code, table.stderr).toBe(0);
    const [header, row, ...rest] = table.stdout.trimEnd().split('\n');
    expect(header!.split(/\s{2,}/).map((h) => h.trim().toLowerCase())).toEqual(['name', 'now', 'listings', 'bytes', 'saved_at']);
    expect(row).toMatch(/^before-run\s+2026-06-01 12:00:00 \+0000\s+\d+\s+\d+\s+\d{4}-/);
    expect(rest).toEqual([]);

    const loaded = await runMkt(['mock', 'snapshot', 'load', 'before-run', '-o', 'json'], { env: m.env });
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(JSON.parse(loaded.stdout)).toMatchObject({
      loaded: 'before-run',
      saved_now: '2026-06-01 12:00:00 +0000',
      now: '2026-06-01 12:00:00 +0000',
    });
    expect(digest(m.app)).toBe(before);
    expect(await listingRows(m)).toEqual(rows);
    // The world loaded is a copy: changing it leaves the snapshot as saved, so a second load is the same world again.
    await fetch(`${m.origin}/__mock/listings/${first!.listing_number}/withdraw`, { method: 'POST' });
    expect((await runMkt(['mock', 'snapshot', 'load', 'before-run'], { env: m.env })).code).toBe(0);
    expect(digest(m.app)).toBe(before);

    const removed = await runMkt(['mock', 'snapshot', 'rm', 'before-run', '-o', 'json'], { env: m.env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ deleted: 'before-run' });
    const empty = await runMkt(['mock', 'snapshot', 'list', '-o', 'json'], { env: m.env });
    expect(JSON.parse(empty.stdout)).toMatchObject({ result: [], total_count: 0 });
  });

  test('a name taken is a 409 (exit 4, hint --replace) and nothing is written; --replace overwrites', async () => {
    const m = await mock();
    expect((await runMkt(['mock', 'snapshot', 'save', 'a'], { env: m.env })).code).toBe(0);
    m.app.ctx.clock.advance(DAY);
    const again = await runMkt(['mock', 'snapshot', 'save', 'a'], { env: m.env });
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/HTTP 409.*Snapshot 'a' exists/);
    expect(again.stderr).toContain('add --replace to overwrite it');
    const kept = JSON.parse((await runMkt(['mock', 'snapshot', 'list', '-o', 'json'], { env: m.env })).stdout) as {
      result: { now: string }[];
    };
    expect(kept.result.map((s) => s.now)).toEqual(['2026-06-01 12:00:00 +0000']);
    const replaced = await runMkt(['mock', 'snapshot', 'save', 'a', '--replace', '-o', 'json'], { env: m.env });
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(JSON.parse(replaced.stdout).now).toBe('2026-06-02 12:00:00 +0000');
  });

  test('save, clock advance 30d, load: the world and the clock are back at the saved time', async () => {
    const m = await mock();
    const rows = await listingRows(m);
    const before = digest(m.app);
    expect((await runMkt(['mock', 'snapshot', 'save', 'day0'], { env: m.env })).code).toBe(0);
    const [first] = rows as { listing_number: number }[];
    await fetch(`${m.origin}/__mock/listings/${first!.listing_number}/withdraw`, { method: 'POST' });
    expect((await runMkt(['mock', 'clock', 'advance', '30d'], { env: m.env })).code).toBe(0);
    expect(m.app.ctx.clock.now()).toBe(TEST_START + 30 * DAY);
    const loaded = await runMkt(['mock', 'snapshot', 'load', 'day0', '-o', 'json'], { env: m.env });
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(JSON.parse(loaded.stdout)).toMatchObject({
      saved_now: '2026-06-01 12:00:00 +0000',
      now: '2026-06-01 12:00:00 +0000',
      kept_clock: false,
    });
    expect(loaded.stderr).toContain('loaded snapshot day0: the world as saved at 2026-06-01 12:00:00 UTC, the clock set to it');
    expect(m.app.ctx.clock.now()).toBe(TEST_START);
    expect(digest(m.app)).toBe(before);
    expect(await listingRows(m)).toEqual(rows);
    const state = (await (await fetch(`${m.origin}/__mock/state`)).json()) as { now: string; invariants: { ok: boolean } };
    expect(state).toMatchObject({ now: '2026-06-01 12:00:00 +0000', invariants: { ok: true } });
  });

  test('load --keep-clock: the clock stays, the world is brought forward from the snapshot to it', async () => {
    const m = await mock();
    const rows = await listingRows(m);
    expect((await runMkt(['mock', 'snapshot', 'save', 'day0'], { env: m.env })).code).toBe(0);
    const [first] = rows as { listing_number: number }[];
    await fetch(`${m.origin}/__mock/listings/${first!.listing_number}/withdraw`, { method: 'POST' });
    expect((await runMkt(['mock', 'clock', 'advance', '2d'], { env: m.env })).code).toBe(0);
    const loaded = await runMkt(['mock', 'snapshot', 'load', 'day0', '--keep-clock', '-o', 'json'], { env: m.env });
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(JSON.parse(loaded.stdout)).toMatchObject({
      saved_now: '2026-06-01 12:00:00 +0000',
      now: '2026-06-03 12:00:00 +0000',
      kept_clock: true,
    });
    expect(loaded.stderr).toContain('brought forward to the clock at 2026-06-03 12:00:00 UTC');
    expect(m.app.ctx.clock.now()).toBe(TEST_START + 2 * DAY);
    // The market ran from the snapshot's hour to the clock's: the withdrawn listing is back (the snapshot's), the engine at the clock.
    expect(m.app.ctx.world.engine.lastTick).toBe(TEST_START + 2 * DAY);
    expect(m.app.ctx.world.listingByNumber.get(first!.listing_number)?.listing_status).not.toBe(7);
    const state = (await (await fetch(`${m.origin}/__mock/state`)).json()) as { invariants: { ok: boolean } };
    expect(state.invariants.ok).toBe(true);
  });

  test('bad names: exit 2 before anything is sent; the routes answer 400 naming what is wrong', async () => {
    for (const [i, [name, says]] of (
      [
        ['../x', /path separator/],
        ['a/b', /path separator/],
        ['a\\b', /path separator/],
        ['..', /'\.\.'/],
        ['.hidden', /starts with '\.'/],
        ['x'.repeat(65), /65 characters long; at most 64/],
        ['a b', /holds " "/],
        ['', /is empty/],
      ] as const
    ).entries()) {
      // Each verb checks the name the same way (one function); each name is tried with one of them, in turn.
      const verb = (['save', 'load', 'rm'] as const)[i % 3]!;
      const r = await runMkt(['mock', 'snapshot', verb, name], { env: NOWHERE });
      expect(r.code, `${verb} ${name}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(says);
    }
    const m = await mock();
    const post = async (body: unknown) =>
      fetch(`${m.origin}/__mock/snapshots`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const [body, says] of [
      [{ name: '../etc/passwd' }, /^name: "\.\.\/etc\/passwd" holds a path separator/],
      [{ name: 'x'.repeat(200) }, /at most 64/],
      [{}, /^name: must be a text/],
      [{ name: 'ok', replace: 'yes' }, /^replace: must be true or false/],
    ] as const) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(says);
    }
    // An escaped dot segment is a dot segment: the target is read as /__mock/, the dashboard's page, never a snapshot named '..'.
    const dotDot = await fetch(`${m.origin}/__mock/snapshots/%2E%2E`);
    expect(dotDot.status).toBe(200);
    expect(dotDot.headers.get('content-type')).toMatch(/^text\/html/);
    for (const target of ['/__mock/snapshots/a%2Fb', '/__mock/snapshots/x%2E%2E', '/__mock/snapshots/a%5Cb/load']) {
      const method = target.endsWith('/load') ? 'POST' : 'GET';
      const res = await fetch(`${m.origin}${target}`, { method });
      expect(res.status, target).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('VAL0001');
    }
    const list = (await (await fetch(`${m.origin}/__mock/snapshots`)).json()) as { total_count: number };
    expect(list.total_count).toBe(0);
  });

  test('a missing snapshot: 404 on each route, exit 4 from the CLI, the world unchanged', async () => {
    const m = await mock();
    const before = digest(m.app);
    for (const verb of ['load', 'rm']) {
      const r = await runMkt(['mock', 'snapshot', verb, 'nope'], { env: m.env });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/HTTP 404\): NOT_FOUND: No snapshot 'nope'/);
    }
    for (const [method, path] of [
      ['GET', 'nope'],
      ['DELETE', 'nope'],
      ['POST', 'nope/load'],
    ] as const) {
      expect((await fetch(`${m.origin}/__mock/snapshots/${path}`, { method })).status).toBe(404);
    }
    expect(digest(m.app)).toBe(before);
  });

  test('bound off loopback: every snapshot route is refused without the admin token, and works with it', async () => {
    const app = testMockApp({ seed: 7, listings: 20, frozen: true, start: TEST_START });
    const server = await startHttpServer(app, '0.0.0.0', 0, { adminToken: 'S3cret-token' });
    closers.push(async () => {
      await server.close();
      await app.close?.();
    });
    const env = { MKT_ROOT_URL: `http://127.0.0.1:${server.port}` };
    for (const [method, target] of [
      ['GET', '/__mock/snapshots'],
      ['POST', '/__mock/snapshots'],
      ['GET', '/__mock/snapshots/a'],
      ['DELETE', '/__mock/snapshots/a'],
      ['POST', '/__mock/snapshots/a/load'],
    ] as const) {
      const res = await rawRequest(
        server.port,
        method === 'POST' ? { method, target, headers: { 'content-type': 'application/json' }, body: '{"name":"a"}' } : { method, target },
      );
      expect(res.status, `${method} ${target}`).toBe(404);
      expect(res.text).toContain('No route for');
    }
    const refused = await runMkt(['mock', 'snapshot', 'save', 'a'], { env });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/HTTP 404/);
    expect((await app.ctx.snapshots.list()).length).toBe(0);
    const ok = await runMkt(['mock', 'snapshot', 'save', 'a', '--admin-token', 'S3cret-token'], { env });
    expect(ok.code, ok.stderr).toBe(0);
    const listed = await runMkt(['mock', 'snapshot', 'list', '-o', 'json'], { env: { ...env, MKT_MOCK_ADMIN_TOKEN: 'S3cret-token' } });
    expect(JSON.parse(listed.stdout).result.map((s: { name: string }) => s.name)).toEqual(['a']);
  });
});
