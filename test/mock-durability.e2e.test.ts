/**
 * `mkt mock serve --state DIR`: an acknowledged change is in the operation log before its answer is
 * sent, so a kill -9 at any moment (mid-append, mid-snapshot, mid clock move) loses nothing
 * acknowledged and leaves the ledger whole, and a clean stop writes a base snapshot.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { parseState } from '../mock-server/world/persistence.js';
import { aliceToken, serveMock, type ServedMock } from './helpers/serve.js';

/** Kill -9 trials (all 50 under CI, fewer elsewhere), in-flight requests per trial, and the most orders one trial sends (all bounded). */
const TRIALS = process.env.CI ? 50 : 15;
const WORKERS = 4;
const MAX_ORDERS_PER_TRIAL = 300;
/** Base snapshots every few kilobytes of log, so that kills land during them too. */
const SNAPSHOT_ENV = { MKT_MOCK_SNAPSHOT_BYTES: '4000' };

const running: ServedMock[] = [];
afterEach(() => {
  for (const m of running.splice(0)) m.child.kill('SIGKILL');
});

/**
 * A frozen clock at a fixed start, so that a restart neither moves time nor processes the queued orders; the
 * service's rate limits off, so that the workers' orders are acknowledged (or lost to a kill), not throttled.
 */
function serveArgs(file: string): string[] {
  return [
    '--state',
    file,
    '--listings',
    '60',
    '--frozen',
    '--start',
    '2026-06-01T12:00:00Z',
    '--auto-approve',
    'alice',
    '--rate-limit',
    'off',
  ];
}

async function serve(file: string): Promise<ServedMock> {
  const m = await serveMock(serveArgs(file), 15_000, SNAPSHOT_ENV);
  running.push(m);
  return m;
}

async function postOrder(origin: string, token: string, listingId: number): Promise<Response> {
  return fetch(`${origin}/v1/orders/`, {
    method: 'POST',
    headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ bid_requests: [{ listing_id: listingId, bid_amount: 25 }] }),
  });
}

/** Every order id of the token's account, page by page. */
async function orderIds(origin: string, token: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let offset = 0; ; offset += 100) {
    const res = await fetch(`${origin}/v1/orders?limit=100&offset=${offset}`, { headers: { authorization: `bearer ${token}` } });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { result: { order_id: string }[]; total_count: number };
    for (const o of page.result) ids.add(o.order_id);
    if (page.result.length === 0 || offset + 100 >= page.total_count) return ids;
  }
}

/** The first listed listing that accepts a 25.00 bid from alice, and the id of that first order. */
async function biddableListing(origin: string, token: string): Promise<{ listingId: number; orderId: string }> {
  const res = await fetch(`${origin}/listingsvc/v2/listings/?limit=50`, { headers: { authorization: `bearer ${token}` } });
  const { result } = (await res.json()) as { result: { listing_number: number }[] };
  for (const l of result) {
    const r = await postOrder(origin, token, l.listing_number);
    if (r.ok) return { listingId: l.listing_number, orderId: ((await r.json()) as { order_id: string }).order_id };
  }
  throw new Error('no listing accepts a bid');
}

/** The ledger invariants (audit/invariants.ts) as GET /__mock/state reports them. */
async function invariants(origin: string): Promise<{ ok: boolean; violations: string[] }> {
  const res = await fetch(`${origin}/__mock/state`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { invariants: { ok: boolean; violations: string[] } }).invariants;
}

describe('mock serve --state under kill -9', () => {
  test(
    `no acknowledged order is lost and the ledger holds over ${TRIALS} kills at random moments, amid clock moves and snapshots`,
    async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'mkt-durable-')), 'world');
      let mock = await serve(file);
      let token = await aliceToken(mock.origin);
      const acked: string[] = [];
      const missingAfterTrial: number[] = [];
      const brokenAfterTrial: string[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        // The clock moves complete listings (ORD0019 past that): each trial bids on one still open.
        const { listingId, orderId } = await biddableListing(mock.origin, token);
        acked.push(orderId);
        let sent = 0;
        let stop = false;
        const origin = mock.origin;
        const bearer = token;
        const worker = async (): Promise<void> => {
          while (!stop && sent < MAX_ORDERS_PER_TRIAL) {
            sent++;
            try {
              const res = await postOrder(origin, bearer, listingId);
              if (res.ok) acked.push(((await res.json()) as { order_id: string }).order_id);
            } catch {
              return; // the server is gone: whatever was not answered was never acknowledged
            }
          }
        };
        // The clock moves ten minutes at a time meanwhile (market ticks, orders processed), as another client would.
        const mover = async (): Promise<void> => {
          while (!stop) {
            try {
              await fetch(`${origin}/__mock/clock`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: '{"advance":"10m"}',
              });
            } catch {
              return;
            }
          }
        };
        const workers = [...Array.from({ length: WORKERS }, worker), mover()];
        await new Promise((r) => setTimeout(r, 20 + Math.random() * 280));
        mock.child.kill('SIGKILL');
        stop = true;
        await Promise.all(workers);
        await mock.exited;
        mock = await serve(file);
        // The moves age tokens: a fresh one for the same account each trial.
        token = await aliceToken(mock.origin);
        const found = await orderIds(mock.origin, token);
        missingAfterTrial.push(acked.filter((id) => !found.has(id)).length);
        const held = await invariants(mock.origin);
        if (!held.ok) brokenAfterTrial.push(`trial ${trial}: ${held.violations.join('; ')}`);
      }
      // Orders were acknowledged during the trials, not only each trial's first (which precedes the kill).
      expect(acked.length).toBeGreaterThan(TRIALS * 5);
      expect(missingAfterTrial).toEqual(missingAfterTrial.map(() => 0));
      expect(brokenAfterTrial).toEqual([]);
      // Snapshots were made along the way: the folder holds a newer generation than the first.
      expect(readdirSync(file).some((n) => /^world-\d{6}\.snapshot$/.test(n))).toBe(true);
    },
    TRIALS * 10_000,
  );

  test('an auth key handed out by the consent page on a GET survives a kill -9 right after the redirect', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mkt-durable-')), 'world');
    const first = await serve(file);
    const res = await fetch(`${first.origin}/oauth?client_id=mkt-demo&response_type=auth_key&state=s`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const authKey = new URL(res.headers.get('location')!).searchParams.get('auth_key')!;
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await serve(file);
    const form = new URLSearchParams({
      grant_type: 'authorization_key',
      client_id: 'mkt-demo',
      client_secret: 'mkt-demo-secret',
      auth_key: authKey,
    });
    const tok = await fetch(`${second.origin}/v1/security/oauth/token`, { method: 'POST', body: form });
    expect(tok.status).toBe(200);
  }, 30_000);

  test('a clean stop (SIGTERM) writes a base snapshot and lets the folder go, and a restart removes temporary files left by a crash', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'mkt-durable-')), 'world');
    const first = await serve(dir);
    const token = await aliceToken(first.origin);
    const { orderId } = await biddableListing(first.origin, token);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // The lock file stays (removing it is how two mocks came to hold one folder), naming nobody.
    expect(readFileSync(join(dir, 'mock.pid'), 'utf8')).toBe('');
    const kept = readdirSync(dir)
      .filter((n) => n !== 'mock.pid')
      .sort();
    expect(kept).toEqual([expect.stringMatching(/^world-\d{6}\.log$/), expect.stringMatching(/^world-\d{6}\.snapshot$/)]);
    expect(parseState(readFileSync(join(dir, kept[1]!), 'utf8'), kept[1]).world.orders.has(orderId)).toBe(true);

    // What a kill mid-snapshot leaves behind, from this and from other processes; and a stranger's file.
    writeFileSync(join(dir, '.world-000009.snapshot.12345.tmp'), 'half a snapshot');
    writeFileSync(join(dir, `.world-000009.snapshot.${first.child.pid}.tmp`), '');
    writeFileSync(join(dir, '.other.json.12345.tmp'), 'not ours');
    const second = await serve(dir);
    expect(readdirSync(dir).sort()).toEqual(['.other.json.12345.tmp', 'mock.pid', ...kept]);
    expect((await orderIds(second.origin, token)).has(orderId)).toBe(true);
  }, 60_000);
});

describe('one mock per --state folder', () => {
  test('a second mkt mock serve on the same folder exits 2 naming the pid that holds it, and the first keeps its world', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'mkt-durable-')), 'world');
    const first = await serve(dir);
    const token = await aliceToken(first.origin);
    const { orderId } = await biddableListing(first.origin, token);
    const refused = await serveMock(serveArgs(dir), 15_000, SNAPSHOT_ENV).then(
      (m) => {
        running.push(m);
        return 'started';
      },
      (err: Error) => err.message,
    );
    expect(refused).toContain('exited 2 before listening');
    expect(refused).toContain(`mock state ${dir} is in use by another mock (pid ${first.child.pid})`);
    expect((await orderIds(first.origin, token)).has(orderId)).toBe(true);
  }, 60_000);
});
