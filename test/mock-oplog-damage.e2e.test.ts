/**
 * `mkt mock serve --state DIR` on a log one flipped length bit damaged in an early record: the
 * length reaches past the end of the file, and was read as a torn tail (the mock started without a
 * word, the log cut there, the orders after it gone). Now refused (exit 2, the file and the offset
 * named, nothing changed); `--state-repair` starts, cutting the log there and keeping a copy. And a
 * flipped bit in the last record of an older log that a kill -9 during a base snapshot left, with
 * orders after it in the newer log: cut as a torn tail, the order gone without a word; now refused too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { parseLog } from '../mock-server/durability/log-file.js';
import { aliceToken, serveMock, type ServedMock } from './helpers/serve.js';

const ORDERS = 12;

const running: ServedMock[] = [];
afterEach(() => {
  for (const m of running.splice(0)) m.child.kill('SIGKILL');
});

async function serve(dir: string, extra: string[] = [], env: Record<string, string> = {}): Promise<ServedMock> {
  // Throttling off: the orders that fill the log go back to back, past the orders limit by design.
  const m = await serveMock(
    [
      ...['--state', dir, '--listings', '40', '--frozen', '--start', '2026-06-01T12:00:00Z', '--auto-approve', 'alice'],
      ...['--rate-limit', 'off', ...extra],
    ],
    15_000,
    env,
  );
  running.push(m);
  return m;
}

/** Where the mock failed to start: its error, or 'started'. */
async function refusal(dir: string): Promise<string> {
  return serve(dir).then(
    () => 'started',
    (err: Error) => err.message,
  );
}

async function placeOrder(origin: string, token: string, listing: number): Promise<string> {
  const res = await fetch(`${origin}/v1/orders/`, {
    method: 'POST',
    headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ bid_requests: [{ listing_id: listing, bid_amount: 25 }] }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { order_id: string }).order_id;
}

async function ordersOf(origin: string, token: string): Promise<string[]> {
  const res = await fetch(`${origin}/v1/orders?limit=100`, { headers: { authorization: `bearer ${token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { order_id: string }[] }).result.map((o) => o.order_id).sort();
}

describe('a flipped length bit in an early record of the operation log', () => {
  test('is refused at start (exit 2, file and offset named, nothing changed); --state-repair starts and keeps a copy', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'mkt-oplog-damage-')), 'world');
    const first = await serve(dir);
    const token = await aliceToken(first.origin);
    const listings = await fetch(`${first.origin}/listingsvc/v2/listings/?limit=5`, { headers: { authorization: `bearer ${token}` } });
    const listing = ((await listings.json()) as { result: { listing_number: number }[] }).result[0]!.listing_number;
    const acked: string[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const res = await fetch(`${first.origin}/v1/orders/`, {
        method: 'POST',
        headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ bid_requests: [{ listing_id: listing, bid_amount: 25 }] }),
      });
      expect(res.status).toBe(200);
      acked.push(((await res.json()) as { order_id: string }).order_id);
    }
    // kill -9: the orders are in the log only (a clean stop would fold them into a base snapshot).
    first.child.kill('SIGKILL');
    await first.exited;

    const log = join(
      dir,
      readdirSync(dir)
        .filter((n) => n.endsWith('.log'))
        .sort()
        .at(-1)!,
    );
    const whole = readFileSync(log);
    const read = parseLog(whole, log);
    const records = read.payloads.map((p) => JSON.parse(p.toString()) as { k: string });
    const firstOrder = records.findIndex((r) => r.k === 'order');
    expect(records.filter((r) => r.k === 'order').length).toBe(ORDERS);
    // The third order's length, bit 20 (+1 MiB): it reaches past the end of this small file.
    const damaged = firstOrder + 2;
    const offset = read.payloads[damaged]!.byteOffset - whole.byteOffset - 8;
    const bad = Buffer.from(whole);
    bad.writeUInt32LE(bad.readUInt32LE(offset) ^ (1 << 20), offset);
    expect(offset + 8 + bad.readUInt32LE(offset)).toBeGreaterThan(bad.length);
    writeFileSync(log, bad);

    const refused = await refusal(dir);
    expect(refused).toContain('exited 2 before listening');
    expect(refused).toContain(`mock operation log ${log} has a bad record at byte offset ${offset}`);
    expect(refused).toContain('--state-repair');
    expect(readFileSync(log)).toEqual(bad);
    expect(readdirSync(dir).filter((n) => n.includes('.damaged-'))).toEqual([]);

    const repaired = await serve(dir, ['--state-repair']);
    expect(repaired.stderr()).toContain(`--state-repair cut ${log} at byte ${offset}`);
    const copies = readdirSync(dir).filter((n) => n.startsWith(`${log.split('/').at(-1)!}.damaged-`));
    expect(copies.length).toBe(1);
    expect(readFileSync(join(dir, copies[0]!))).toEqual(bad);
    // The two orders before the damaged record are kept; the log goes on from there.
    const kept = await ordersOf(repaired.origin, await aliceToken(repaired.origin));
    expect(kept).toEqual(acked.slice(0, 2).sort());
  }, 60_000);
});

describe('a flipped bit in the last record of an older log, after a kill -9 during a base snapshot', () => {
  test.skipIf(process.platform === 'win32')(
    'with orders after it in the newer log: refused (exit 2, file and offset named); --state-repair keeps what came before it',
    async () => {
      const dir = join(mkdtempSync(join(tmpdir(), 'mkt-oplog-damage-')), 'world');
      const first = await serve(dir, [], { MKT_MOCK_SNAPSHOT_BYTES: '3000' });
      // The base snapshot of generation 2 is written through this temporary file: a FIFO nobody reads
      // holds its open, so the snapshot stays under way (log 2 begun, its snapshot missing) until the kill.
      execFileSync('mkfifo', [join(dir, `.world-000002.snapshot.${first.child.pid}.tmp`)]);
      const token = await aliceToken(first.origin);
      const listings = await fetch(`${first.origin}/listingsvc/v2/listings/?limit=5`, { headers: { authorization: `bearer ${token}` } });
      const listing = ((await listings.json()) as { result: { listing_number: number }[] }).result[0]!.listing_number;
      const acked: string[] = [];
      const log1 = join(dir, 'world-000001.log');
      const log2 = join(dir, 'world-000002.log');
      for (let i = 0; i < 60 && !existsSync(log2); i++) acked.push(await placeOrder(first.origin, token, listing));
      expect(existsSync(log2)).toBe(true);
      for (let i = 0; i < 3; i++) acked.push(await placeOrder(first.origin, token, listing));
      first.child.kill('SIGKILL');
      await first.exited;
      expect(existsSync(join(dir, 'world-000002.snapshot'))).toBe(false);

      const whole = readFileSync(log1);
      const read = parseLog(whole, log1);
      const inOne = read.payloads.map((p) => JSON.parse(p.toString()) as { k: string });
      expect(inOne.at(-1)!.k).toBe('order');
      const ordersInOne = inOne.filter((r) => r.k === 'order').length;
      expect(parseLog(readFileSync(log2), log2).payloads.length).toBe(4); // its base record and the three orders after
      // One payload bit of log 1's last record (the order whose append began the snapshot).
      const offset = read.payloads.at(-1)!.byteOffset - whole.byteOffset - 8;
      const bad = Buffer.from(whole);
      bad[offset + 20] = bad[offset + 20]! ^ 0x02;
      writeFileSync(log1, bad);

      const refused = await refusal(dir);
      expect(refused).toContain('exited 2 before listening');
      expect(refused).toContain(`mock operation log ${log1} has a bad record at byte offset ${offset}`);
      expect(refused).toContain('with records after it in world-000002.log');
      expect(readFileSync(log1)).toEqual(bad);
      expect(parseLog(readFileSync(log2), log2).payloads.length).toBe(4);

      const repaired = await serve(dir, ['--state-repair']);
      expect(repaired.stderr()).toContain(`--state-repair cut ${log1} at byte ${offset}`);
      expect(readdirSync(dir).filter((n) => /^world-00000[12]\.log\.damaged-/.test(n)).length).toBe(2);
      // The orders before the damaged one are kept; the damaged one and the three after it are cut.
      expect(await ordersOf(repaired.origin, await aliceToken(repaired.origin))).toEqual(acked.slice(0, ordersInOne - 1).sort());
    },
    60_000,
  );
});
