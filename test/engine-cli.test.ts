/** `mkt mock clock advance` in-process against a real mock on 127.0.0.1; `mkt mock serve` and `proxy` stopped as a supervisor stops them. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../src/main.js';
import { captureIo } from './helpers/capture-io.js';
import { order, plainListings, tokenFor } from './engine-fixture.js';
import { startMock, type TestMock } from './helpers/mock.js';

const io = captureIo;

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 50 });
});
afterAll(async () => {
  await mock.close();
});

test('mkt mock clock advance 24h moves the running mock a day forward, prints the new time and says so in words', async () => {
  const before = mock.app.ctx.clock.now();
  const run = io({ MKT_ROOT_URL: mock.origin, MKT_CONFIG_DIR: '/nonexistent-mkt-config' });
  const code = await main(['mock', 'clock', 'advance', '24h', '-o', 'json'], run.io);
  expect(run.err()).toBe('moved the clock 1 day forward, to 2026-06-02 12:00:00 UTC\n');
  expect(code).toBe(0);
  expect(mock.app.ctx.clock.now() - before).toBe(86_400_000);
  expect(JSON.parse(run.out())).toEqual({ now: '2026-06-02 12:00:00 +0000', moved_ms: 86_400_000 });
});

test('a bad duration is a usage error (exit 2) and the clock does not move', async () => {
  const before = mock.app.ctx.clock.now();
  const run = io({ MKT_ROOT_URL: mock.origin, MKT_CONFIG_DIR: '/nonexistent-mkt-config' });
  expect(await main(['mock', 'clock', 'advance', 'soon'], run.io)).toBe(2);
  expect(run.err()).toContain('DURATION');
  expect(mock.app.ctx.clock.now()).toBe(before);
});

test('no mock listening is exit 5', async () => {
  const run = io({ MKT_ROOT_URL: 'http://127.0.0.1:9', MKT_CONFIG_DIR: '/nonexistent-mkt-config' });
  expect(await main(['mock', 'clock', 'advance', '1h'], run.io)).toBe(5);
});

test('mkt mock serve refuses a torn state file with exit 2 and says why', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'mkt-state-')), 'world.json');
  writeFileSync(file, 'MKT-MOCK-STATE v1 bytes=999 sha256=' + '0'.repeat(64) + '\n{"now":');
  const run = io({ MKT_CONFIG_DIR: '/nonexistent-mkt-config' });
  expect(await main(['mock', 'serve', '--port', '0', '--listings', '10', '--state', file], run.io)).toBe(2);
  expect(run.err()).toMatch(/is torn.*delete it to start a fresh world/);
});

/** Runs `mkt args` (a server command), stops it as a supervisor does on reading its banner, and returns what happened in order. */
async function stopOnBanner(args: string[]): Promise<{ code: number; events: string[]; out: string; err: string }> {
  const run = io({ MKT_CONFIG_DIR: '/nonexistent-mkt-config' });
  const events: string[] = [];
  let stop: ((signal: string) => void) | null = null;
  run.io.stopSignal = () => {
    events.push('stop signal listened for');
    return new Promise((resolve) => (stop = resolve));
  };
  const write = run.io.stdout.write.bind(run.io.stdout) as (chunk: string) => boolean;
  run.io.stdout.write = ((chunk: string) => (events.push('stdout'), write(chunk))) as typeof run.io.stdout.write;
  const served = main(args, run.io);
  let ended: number | null = null;
  void served.then((code) => (ended = code));
  // What a supervisor does: read the banner, then send SIGTERM at once.
  while (!events.includes('stdout')) {
    if (ended !== null) throw new Error(`mkt ${args.join(' ')} exited ${ended} before its banner: ${run.err()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  expect(stop, 'nothing listened for the stop signal').not.toBeNull();
  stop!('SIGTERM');
  return { code: await served, events, out: run.out(), err: run.err() };
}

test('mkt mock serve listens for the stop signal before it prints its banner: a supervisor that stops it on the banner stops it cleanly', async () => {
  const r = await stopOnBanner(['mock', 'serve', '--port', '0', '--listings', '10', '--frozen']);
  expect(r.code).toBe(0);
  expect(r.events[0]).toBe('stop signal listened for');
  expect(r.out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
  expect(r.err).toContain('mock: SIGTERM, stopping');
});

test('mkt mock proxy, likewise', async () => {
  const r = await stopOnBanner(['mock', 'proxy', '--upstream', 'http://127.0.0.1:9', '--port', '0']);
  expect(r.code).toBe(0);
  expect(r.events[0]).toBe('stop signal listened for');
  expect(r.out).toMatch(/mkt mock proxy: http:\/\/127\.0\.0\.1:\d+ -> http:\/\/127\.0\.0\.1:9/);
  expect(r.err).toContain('mkt mock proxy: SIGTERM, stopping');
});

test('mkt mock process processes the orders the running mock queued, now, and says how many; the clock stays', async () => {
  const token = tokenFor(mock.app, 'alice-1');
  const listing = plainListings(mock.app)[0]!;
  const placed = await order(mock.app, token, [{ listing_id: listing.listing_number, bid_amount: 25 }]);
  expect(placed.status).toBe(200);
  const id = (placed.body as { order_id: string }).order_id;
  expect(mock.app.ctx.world.orders.get(id)!.processed).toBeFalsy();
  const before = mock.app.ctx.clock.now();
  const run = io({ MKT_ROOT_URL: mock.origin, MKT_CONFIG_DIR: '/nonexistent-mkt-config' });
  expect(await main(['mock', 'process', '-o', 'json'], run.io)).toBe(0);
  expect(JSON.parse(run.out())).toEqual({ processed: 1 });
  expect(run.err()).toBe('processed 1 queued order\n');
  expect(mock.app.ctx.world.orders.get(id)!.processed).toBe(true);
  expect(mock.app.ctx.clock.now()).toBe(before);
  // Nothing queued: nothing to do, said so.
  const again = io({ MKT_ROOT_URL: mock.origin, MKT_CONFIG_DIR: '/nonexistent-mkt-config' });
  expect(await main(['mock', 'process', '-o', 'json'], again.io)).toBe(0);
  expect(JSON.parse(again.out())).toEqual({ processed: 0 });
  expect(again.err()).toBe('processed 0 queued orders\n');
});

test('mkt mock process with no mock listening is exit 5', async () => {
  const run = io({ MKT_ROOT_URL: 'http://127.0.0.1:9', MKT_CONFIG_DIR: '/nonexistent-mkt-config' });
  expect(await main(['mock', 'process'], run.io)).toBe(5);
});
