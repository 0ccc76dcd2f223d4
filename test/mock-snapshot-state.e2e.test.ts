/**
 * Named snapshots of `mkt mock serve --state FILE` (files beside the state, outliving the mock, whole
 * under kill -9), `--from-snapshot NAME`, and the empty worlds of `--listings 0` and `--history none`,
 * all through the built CLI against a spawned mock.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { snapshotsDir } from '../mock-server/world/snapshot-shelf.js';
import { runMkt } from './helpers/cli.js';
import { aliceToken, serveMock, type ServedMock } from './helpers/serve.js';

const START = '2026-06-01T12:00:00Z';
/** Kill -9 trials during a save (bounded). */
const KILL_TRIALS = 5;

const running: ServedMock[] = [];
afterEach(() => {
  for (const m of running.splice(0)) m.child.kill('SIGKILL');
});

async function serve(args: string[]): Promise<ServedMock> {
  const m = await serveMock(['--frozen', '--auto-approve', 'alice', ...args]);
  running.push(m);
  return m;
}

/** Stops a mock cleanly (SIGTERM: it writes its state) and waits for it. */
async function stop(m: ServedMock): Promise<void> {
  m.child.kill('SIGTERM');
  await m.exited;
}

const stateDir = (): string => mkdtempSync(join(tmpdir(), 'mkt-snap-'));
const mkt = (m: ServedMock, args: string[]) => runMkt(args, { env: { MKT_ROOT_URL: m.origin } });

/** The parts of GET /__mock/state these tests read. */
interface Summary {
  now: string;
  listings: number;
  listings_by_status: Record<string, number>;
  loans: number;
  notes: number;
  orders: number;
  accounts: { account_id: string; cash: number }[];
  invariants: { ok: boolean; violations: string[] };
}

async function state(m: ServedMock): Promise<Summary> {
  return (await (await fetch(`${m.origin}/__mock/state`)).json()) as Summary;
}

async function withdraw(m: ServedMock, listing: number): Promise<void> {
  expect((await fetch(`${m.origin}/__mock/listings/${listing}/withdraw`, { method: 'POST' })).status).toBe(200);
}

/** The first listing the search shows. */
async function someActiveListing(m: ServedMock, token: string): Promise<number> {
  const res = await fetch(`${m.origin}/listingsvc/v2/listings/?limit=1`, { headers: { authorization: `bearer ${token}` } });
  return ((await res.json()) as { result: { listing_number: number }[] }).result[0]!.listing_number;
}

/** Whether the listing is open for bids (the search shows only those). */
async function biddable(m: ServedMock, token: string, listing: number): Promise<boolean> {
  const res = await fetch(`${m.origin}/listingsvc/v2/listings/?listing_number=${listing}`, {
    headers: { authorization: `bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { total_count: number }).total_count === 1;
}

describe('mock serve --state: snapshots on disk', () => {
  test('saved beside the state (0600), listed and loaded after a restart; --from-snapshot starts from one, and the state keeps it', async () => {
    const dir = stateDir();
    const file = join(dir, 'world.json');
    let m = await serve(['--state', file, '--listings', '60', '--start', START]);
    const token = await aliceToken(m.origin);
    const listing = await someActiveListing(m, token);
    expect(await biddable(m, token, listing)).toBe(true);
    expect((await mkt(m, ['mock', 'snapshot', 'save', 'base'])).code).toBe(0);
    const path = join(snapshotsDir(file), 'base.snapshot');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await withdraw(m, listing);
    await stop(m);

    m = await serve(['--state', file, '--listings', '60', '--start', START]);
    expect(await biddable(m, token, listing)).toBe(false); // the state file kept the withdrawal
    const listed = await mkt(m, ['mock', 'snapshot', 'list', '-o', 'json']);
    expect(JSON.parse(listed.stdout).result).toEqual([
      expect.objectContaining({ name: 'base', now: '2026-06-01 12:00:00 +0000', bytes: statSync(path).size, problem: null }),
    ]);
    expect((await mkt(m, ['mock', 'snapshot', 'load', 'base'])).code).toBe(0);
    expect(await biddable(m, token, listing)).toBe(true);
    await withdraw(m, listing);
    await stop(m);

    m = await serve(['--state', file, '--listings', '60', '--start', START, '--from-snapshot', 'base']);
    expect(await biddable(m, token, listing)).toBe(true);
    m.child.kill('SIGKILL');
    await m.exited;
    // The snapshot the mock started from was in the state file before it served anything: a restart without the flag keeps it.
    m = await serve(['--state', file, '--listings', '60', '--start', START]);
    expect(await biddable(m, token, listing)).toBe(true);
  });

  test('a snapshot later than the clock moves the clock forward to its time', async () => {
    const later = stateDir();
    let m = await serve(['--state', join(later, 'w.json'), '--listings', '30', '--start', '2026-06-06T12:00:00Z']);
    expect((await mkt(m, ['mock', 'snapshot', 'save', 'june6'])).code).toBe(0);
    await stop(m);
    const dir = stateDir();
    mkdirSync(snapshotsDir(join(dir, 'w.json')), { recursive: true });
    copyFileSync(join(snapshotsDir(join(later, 'w.json')), 'june6.snapshot'), join(snapshotsDir(join(dir, 'w.json')), 'june6.snapshot'));
    m = await serve(['--state', join(dir, 'w.json'), '--listings', '30', '--start', START]);
    const loaded = await mkt(m, ['mock', 'snapshot', 'load', 'june6', '-o', 'json']);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(JSON.parse(loaded.stdout)).toMatchObject({ saved_now: '2026-06-06 12:00:00 +0000', now: '2026-06-06 12:00:00 +0000' });
    expect((await state(m)).now).toBe('2026-06-06 12:00:00 +0000');
  });

  test('save, advance 30d, load, kill -9: the restart is the saved-time world, and its start lines say restored from DIR', async () => {
    const dir = join(stateDir(), 'world');
    const args = ['--state', dir, '--listings', '40', '--start', START];
    let m = await serve(args);
    expect(m.banner).toContain(`  state kept in ${dir} (new: the world seeded)\n`);
    const token = await aliceToken(m.origin);
    const listing = await someActiveListing(m, token);
    expect((await mkt(m, ['mock', 'snapshot', 'save', 'day0'])).code).toBe(0);
    const saved = await state(m);
    await withdraw(m, listing);
    expect((await mkt(m, ['mock', 'clock', 'advance', '30d'])).code).toBe(0);
    expect((await state(m)).now).toBe('2026-07-01 12:00:00 +0000');
    const loaded = await mkt(m, ['mock', 'snapshot', 'load', 'day0', '-o', 'json']);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(JSON.parse(loaded.stdout)).toMatchObject({ saved_now: '2026-06-01 12:00:00 +0000', now: '2026-06-01 12:00:00 +0000' });
    expect(await state(m)).toEqual(saved);
    // Killed right after the answer: what it acknowledged (the world and the clock back) is on disk.
    m.child.kill('SIGKILL');
    await m.exited;

    m = await serve(args);
    expect(m.banner).toMatch(new RegExp(`^  restored from ${dir}: the world it kept`, 'm'));
    expect(m.banner).toContain('clock frozen at 2026-06-01T12:00:00.000Z');
    expect(await state(m)).toEqual(saved);
    expect(await biddable(m, token, listing)).toBe(true);
    await stop(m);

    m = await serve([...args, '--from-snapshot', 'day0']);
    expect(m.banner).toContain(
      `  restored from snapshot day0 (${join(dir, 'snapshots', 'day0.snapshot')}): the world and the clock as saved at 2026-06-01T12:00:00.000Z; kept in ${dir}\n`,
    );
    expect(await state(m)).toEqual(saved);
  });

  test('--from-snapshot: a missing snapshot, a bad name, or no --state is exit 2 naming it', async () => {
    const file = join(stateDir(), 'w.json');
    for (const [args, says] of [
      [['--state', file, '--from-snapshot', 'nope'], /no snapshot 'nope' in .*w\.json[/.]snapshots/],
      [['--state', file, '--from-snapshot', '../nope'], /snapshot name '\.\.\/nope' holds a path separator/],
      [['--from-snapshot', 'nope'], /--from-snapshot needs --state/],
    ] as const) {
      const r = await runMkt(['mock', 'serve', '--port', '0', '--listings', '5', ...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(says);
    }
  });

  test(`kill -9 during a save leaves the snapshot before it whole (${KILL_TRIALS} trials)`, async () => {
    const file = join(stateDir(), 'w.json');
    let m = await serve(['--state', file, '--listings', '3000', '--start', START]);
    expect((await mkt(m, ['mock', 'snapshot', 'save', 'a'])).code).toBe(0);
    /** The time of the world snapshot 'a' holds: before each trial, the one the last trial left. */
    let before = (await state(m)).now;
    for (let trial = 0; trial < KILL_TRIALS; trial++) {
      await fetch(`${m.origin}/__mock/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"advance":"1h"}',
      });
      const saving = fetch(`${m.origin}/__mock/snapshots`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"a","replace":true}',
      }).then(
        (r) => r.status,
        () => null,
      );
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 400)));
      m.child.kill('SIGKILL');
      await m.exited;
      const acked = await saving;
      m = await serve(['--state', file, '--listings', '3000', '--start', START]);
      const listed = JSON.parse((await mkt(m, ['mock', 'snapshot', 'list', '-o', 'json'])).stdout) as {
        result: { name: string; problem: string | null; now: string }[];
      };
      expect(listed.result.map((s) => [s.name, s.problem])).toEqual([['a', null]]);
      // Whatever the kill hit, the snapshot is whole and is one of two: the one before this save, or this
      // save's world (an hour later: the clock's time, which the log kept); an answered save is the latter.
      const saved = (await state(m)).now;
      expect(saved).not.toBe(before);
      expect([before, saved]).toContain(listed.result[0]!.now);
      if (acked === 200) expect(listed.result[0]!.now).toBe(saved);
      before = listed.result[0]!.now;
      expect(readdirSync(snapshotsDir(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      expect((await mkt(m, ['mock', 'snapshot', 'load', 'a'])).code).toBe(0);
      expect((await state(m)).invariants.ok).toBe(true);
    }
  }, 240_000);
});

describe('an empty world: --listings 0, --history none', () => {
  test('--listings 0: no active listing, none arriving; the seeded history stays; search, portfolio and invariants work', async () => {
    const m = await serve(['--listings', '0', '--start', START]);
    const token = await aliceToken(m.origin);
    const env = { MKT_ROOT_URL: m.origin, MKT_ACCESS_TOKEN: token };
    let s = await state(m);
    expect(s.listings_by_status['2']).toBeUndefined();
    expect(s.loans).toBeGreaterThan(0);
    expect(s.invariants).toEqual({ ok: true, violations: [] });
    const search = await runMkt(['listings', 'search', '-o', 'json'], { env });
    expect(search.code, search.stderr).toBe(0);
    expect(JSON.parse(search.stdout)).toMatchObject({ result: [], total_count: 0 });
    const portfolio = await runMkt(['portfolio', '-o', 'json'], { env });
    expect(portfolio.code, portfolio.stderr).toBe(0);
    expect((await runMkt(['mock', 'clock', 'advance', '3d'], { env })).code).toBe(0);
    s = await state(m);
    expect(s.listings_by_status['2']).toBeUndefined();
    expect(s.invariants.ok).toBe(true);
  });

  test('--history none: no listings, loans, notes or orders, only investors with funded accounts; a bid is refused, a snapshot fills it', async () => {
    const dir = stateDir();
    const file = join(dir, 'w.json');
    // A world to fill the empty one with, saved beside the same state.
    let m = await serve(['--state', file, '--listings', '40', '--start', START]);
    expect((await mkt(m, ['mock', 'snapshot', 'save', 'full'])).code).toBe(0);
    await stop(m);
    m = await serve(['--listings', '0', '--history', 'none', '--start', START, '--state', join(dir, 'empty.json')]);
    const token = await aliceToken(m.origin);
    const env = { MKT_ROOT_URL: m.origin, MKT_ACCESS_TOKEN: token };
    const s = await state(m);
    expect([s.listings, s.loans, s.notes, s.orders]).toEqual([0, 0, 0, 0]);
    expect(s.accounts.find((a) => a.account_id === 'alice-1')!.cash).toBeGreaterThan(0);
    expect(s.invariants).toEqual({ ok: true, violations: [] });
    for (const args of [['notes', 'list'], ['loans', 'list'], ['order', 'list'], ['portfolio'], ['account']]) {
      const r = await runMkt([...args, '-o', 'json'], { env });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const bid = await fetch(`${m.origin}/v1/orders/`, {
      method: 'POST',
      headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ bid_requests: [{ listing_id: 10_000_000, bid_amount: 25 }] }),
    });
    expect(bid.status).toBeGreaterThanOrEqual(400);
    expect(bid.status).toBeLessThan(500);
    // Snapshots belong to a state: the empty world's own folder has none; the full one, copied over, fills it.
    mkdirSync(snapshotsDir(join(dir, 'empty.json')));
    copyFileSync(join(snapshotsDir(file), 'full.snapshot'), join(snapshotsDir(join(dir, 'empty.json')), 'full.snapshot'));
    expect((await mkt(m, ['mock', 'snapshot', 'load', 'full'])).code).toBe(0);
    expect((await state(m)).listings_by_status['2']).toBeGreaterThan(0);
  });

  test('--history takes seeded or none (exit 2 otherwise)', async () => {
    const r = await runMkt(['mock', 'serve', '--port', '0', '--history', 'some']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--history must be seeded or none, got 'some'");
  });
});
