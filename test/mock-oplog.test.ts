/**
 * The operation log of `--state DIR` (durability/operation-log.ts, durability/log-file.ts, log-appender.ts): its framing (a torn
 * tail cut, a bad record in the middle refused with file and offset), a world rebuilt from base and
 * log equal to the live one, one mock per folder, a failed write answered 503 and rolled back, and a
 * base snapshot cut short that leaves the previous base in force.
 */
import fc from 'fast-check';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { checkInvariants } from '../mock-server/audit/invariants.js';
import { frameRecord, LOG_HEADER, LogCorruptError, parseLog } from '../mock-server/durability/log-file.js';
import { type LogIo } from '../mock-server/durability/log-appender.js';
import { serializeState } from '../mock-server/world/persistence.js';
import { StateLockedError } from '../mock-server/world/state-dir.js';
import { aliceToken, call, makeApp, plainListings } from './engine-fixture.js';
import { testMockApp } from './helpers/mock.js';

const open: MockApp[] = [];
afterEach(async () => {
  for (const a of open.splice(0)) await a.close?.().catch(() => undefined);
});

const folder = (): string => join(mkdtempSync(join(tmpdir(), 'mkt-oplog-')), 'world');

function stateApp(dir: string, extra: Parameters<typeof makeApp>[0] = {}): MockApp {
  const app = makeApp({ stateFile: dir, listings: 60, autoApprove: ['alice'], ...extra });
  open.push(app);
  return app;
}

/** As kill -9 leaves it: nothing more written, the folder let go. */
function crash(app: MockApp): void {
  app.ctx.engine.abandon();
  open.splice(open.indexOf(app), 1);
}

/** The world's state text, read as a route reads it: the listings' columns brought up first (a move leaves that to its readers). */
const digest = (app: MockApp): string => {
  app.ctx.engine.settle();
  return serializeState(app.ctx.world, app.ctx.clock.now());
};
const logsOf = (dir: string): string[] =>
  readdirSync(dir)
    .filter((n) => n.endsWith('.log'))
    .sort();

describe('the log format', () => {
  const payloads = fc.array(
    fc.uint8Array({ minLength: 1, maxLength: 300 }).map((a) => Buffer.from(a)),
    { minLength: 1, maxLength: 12 },
  );
  const fileOf = (ps: Buffer[]): Buffer => Buffer.concat([LOG_HEADER, ...ps.map(frameRecord)]);

  test('whole records read back as written; a last record cut anywhere is a torn tail, cut, never an error', () => {
    fc.assert(
      fc.property(payloads, fc.nat(), (ps, cutAt) => {
        const file = fileOf(ps);
        expect(parseLog(file, 'w.log').payloads).toEqual(ps);
        const lastStart = file.length - frameRecord(ps[ps.length - 1]!).length;
        const cut = lastStart + (cutAt % (file.length - lastStart));
        const read = parseLog(file.subarray(0, cut), 'w.log');
        expect(read.payloads).toEqual(ps.slice(0, -1));
        expect(read.end).toBe(lastStart);
        // A crash after the file grew may leave zeros where the record was to go.
        expect(parseLog(Buffer.concat([file, Buffer.alloc((cutAt % 64) + 1)]), 'w.log').payloads).toEqual(ps);
      }),
    );
  });

  test("a damaged byte in a record with records after it refuses, naming the file and the record's offset", () => {
    fc.assert(
      fc.property(
        payloads.filter((ps) => ps.length >= 2),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (ps, which, flip) => {
          const file = fileOf(ps);
          const i = which % (ps.length - 1);
          const offset = LOG_HEADER.length + ps.slice(0, i).reduce((n, p) => n + 8 + p.length, 0);
          const at = offset + 8 + (which % ps[i]!.length);
          const bad = Buffer.from(file);
          bad[at] = bad[at]! ^ flip;
          let thrown: unknown;
          try {
            parseLog(bad, '/d/world-000001.log');
          } catch (err) {
            thrown = err;
          }
          expect(thrown).toBeInstanceOf(LogCorruptError);
          expect((thrown as Error).message).toContain(
            `mock operation log /d/world-000001.log has a bad record at byte offset ${offset} (checksum mismatch)`,
          );
          expect((thrown as Error).message).toContain('--state-repair');
        },
      ),
    );
  });
});

describe('a world rebuilt from base and log', () => {
  type Op =
    | { kind: 'order'; pick: number; cents: number }
    | { kind: 'clock'; minutes: number }
    | { kind: 'process' }
    | { kind: 'withdraw'; pick: number }
    | { kind: 'outbox' }
    | { kind: 'offers'; amount: number }
    | { kind: 'save' }
    | { kind: 'load'; keepClock: boolean };
  const op: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({ kind: fc.constant('order' as const), pick: fc.nat(), cents: fc.integer({ min: 2000, max: 9000 }) }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('clock' as const), minutes: fc.integer({ min: 1, max: 4 * 24 * 60 }) }) },
    fc.record({ kind: fc.constant('process' as const) }),
    fc.record({ kind: fc.constant('withdraw' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('outbox' as const) }),
    fc.record({ kind: fc.constant('offers' as const), amount: fc.integer({ min: 1000, max: 40000 }) }),
    // A load puts the world and the clock back at the save (or, keeping the clock, brings it forward): a new base either way.
    fc.record({ kind: fc.constant('save' as const) }),
    fc.record({ kind: fc.constant('load' as const), keepClock: fc.boolean() }),
  );

  async function run(app: MockApp, token: string, o: Op): Promise<void> {
    const listings = plainListings(app, 0);
    const pick = (n: number) => listings[n % Math.max(1, listings.length)];
    if (o.kind === 'order' && pick(o.pick)) {
      // Amounts below 25.00 are refused with ORD0005, which also emails the investor: a failed write that changes the world.
      await call(app, 'POST', '/v1/orders', {
        token,
        body: { bid_requests: [{ listing_id: pick(o.pick)!.listing_number, bid_amount: o.cents / 100 }] },
      });
    } else if (o.kind === 'clock') {
      await call(app, 'POST', '/__mock/clock', { body: { advance: `${o.minutes}m` } });
    } else if (o.kind === 'process') {
      await call(app, 'POST', '/__mock/process');
    } else if (o.kind === 'withdraw' && pick(o.pick)) {
      await call(app, 'POST', `/__mock/listings/${pick(o.pick)!.listing_number}/withdraw`);
    } else if (o.kind === 'save') {
      await call(app, 'POST', '/__mock/snapshots', { body: { name: 'p', replace: true } });
    } else if (o.kind === 'load') {
      await call(app, 'POST', '/__mock/snapshots/p/load', o.keepClock ? { body: { keep_clock: true } } : {});
    } else if (o.kind === 'outbox') {
      await call(app, 'DELETE', '/__mock/outbox');
    } else if (o.kind === 'offers') {
      await call(app, 'POST', '/v1/marketplace/application/offers', {
        token,
        body: {
          partner_code: 'PARTNER-DEMO',
          first_name: 'Ann',
          last_name: 'Lee',
          loan_amount: o.amount,
          credit_score: 720,
          annual_income: 90000,
          address: { street: '1 Main St', city: 'Austin', state: 'TX', zip: '73301' },
          date_of_birth: '1980-01-01',
          email: 'ann@example.com',
        },
      });
    }
  }

  test('is the live world, byte for byte, after random orders, clock moves, admin actions and snapshot loads (base snapshots among them)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), fc.boolean(), async (ops, smallLog) => {
        const dir = folder();
        // A small log bound makes base snapshots happen between the operations.
        const live = stateApp(dir, smallLog ? { snapshotLogBytes: 1500 } : {});
        const token = await aliceToken(live);
        for (const o of ops) await run(live, token, o);
        await live.ctx.durability.durable();
        const expected = digest(live);
        const now = live.ctx.clock.now();
        crash(live);
        const rebuilt = stateApp(dir);
        expect(rebuilt.ctx.clock.now()).toBe(now);
        expect(digest(rebuilt)).toBe(expected);
        expect(checkInvariants(rebuilt.ctx.world).ok).toBe(true);
        await rebuilt.close?.();
      }),
      {
        numRuns: 10,
        // Always among the runs: an order, a save, a clock move, an order, a load back to the save, an order at its time.
        examples: [
          [
            [
              { kind: 'order', pick: 0, cents: 2500 },
              { kind: 'save' },
              { kind: 'clock', minutes: 3 * 24 * 60 },
              { kind: 'order', pick: 1, cents: 2500 },
              { kind: 'load', keepClock: false },
              { kind: 'order', pick: 2, cents: 2500 },
            ],
            false,
          ],
        ],
      },
    );
  }, 120_000);
});

describe('a world replaced', () => {
  test('a reset begins a new log from the seed: a restart after a kill has the reset world and what followed, and the old generation is gone', async () => {
    const dir = folder();
    const live = stateApp(dir);
    const token = await aliceToken(live);
    const listing = plainListings(live, 0)[0]!.listing_number;
    await call(live, 'POST', '/v1/orders', { token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } });
    await call(live, 'POST', '/__mock/clock', { body: { advance: '2h' } });
    expect((await call(live, 'POST', '/__mock/reset')).status).toBe(200);
    const again = await aliceToken(live);
    await call(live, 'POST', '/v1/orders', { token: again, body: { bid_requests: [{ listing_id: listing, bid_amount: 50 }] } });
    const expected = digest(live);
    crash(live);
    expect(logsOf(dir)).toEqual(['world-000002.log']);
    const rebuilt = stateApp(dir);
    expect(digest(rebuilt)).toBe(expected);
    expect([...rebuilt.ctx.world.orders.values()].map((o) => o.bids.map((b) => b.bid_amount))).toEqual([[50]]);
  });
});

describe('faults', () => {
  test('a second mock on the same folder is refused, naming the pid that holds it; it may start once the first has stopped', async () => {
    const dir = folder();
    const first = stateApp(dir);
    expect(() => makeApp({ stateFile: dir, listings: 60 })).toThrow(StateLockedError);
    expect(() => makeApp({ stateFile: dir, listings: 60 })).toThrow(`mock state ${dir} is in use by another mock (pid ${process.pid})`);
    await first.close?.();
    open.splice(open.indexOf(first), 1);
    stateApp(dir);
  });

  test('a lock left by a mock that was killed is taken over', () => {
    const dir = folder();
    crash(stateApp(dir));
    // A pid no process has (pid_max is at most 2^22 on Linux).
    writeFileSync(join(dir, 'mock.pid'), '4194305\n');
    stateApp(dir);
    expect(readFileSync(join(dir, 'mock.pid'), 'utf8').split('\n')[0]).toBe(String(process.pid));
  });

  test('a torn last record (a kill mid-append) is cut at start: the world is the one before it, and the log goes on after it', async () => {
    const dir = folder();
    const live = stateApp(dir);
    const token = await aliceToken(live);
    const listing = plainListings(live, 0)[0]!.listing_number;
    expect(
      (await call(live, 'POST', '/v1/orders', { token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } })).status,
    ).toBe(200);
    const expected = digest(live);
    crash(live);
    const log = join(dir, logsOf(dir).at(-1)!);
    const whole = readFileSync(log).length;
    appendFileSync(log, frameRecord(Buffer.from('{"t":1,"k":"order","a":"alice-1","b":"{}"}')).subarray(0, 20));
    const again = stateApp(dir);
    expect(digest(again)).toBe(expected);
    expect(readFileSync(log).length).toBe(whole);
    expect(
      (await call(again, 'POST', '/v1/orders', { token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } })).status,
    ).toBe(200);
    const after = digest(again);
    crash(again);
    expect(digest(stateApp(dir))).toBe(after);
  });

  test("a bad record in the middle refuses to start (exit 2's message names file and offset); --state-repair cuts there and keeps a copy", async () => {
    const dir = folder();
    const live = stateApp(dir);
    const token = await aliceToken(live);
    const listing = plainListings(live, 0)[0]!.listing_number;
    for (let i = 0; i < 3; i++)
      await call(live, 'POST', '/v1/orders', { token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } });
    crash(live);
    const log = join(dir, logsOf(dir).at(-1)!);
    const bytes = readFileSync(log);
    const read = parseLog(bytes, log);
    // The second-to-last record: the order before the last one.
    const offset = read.payloads.at(-2)!.byteOffset - bytes.byteOffset - 8;
    bytes[offset + 12] = bytes[offset + 12]! ^ 0x20;
    writeFileSync(log, bytes);
    expect(() => makeApp({ stateFile: dir, listings: 60 })).toThrow(`mock operation log ${log} has a bad record at byte offset ${offset}`);
    expect(readFileSync(log)).toEqual(bytes); // nothing changed, and no empty world over it
    const repaired = stateApp(dir, { stateRepair: true });
    expect(readFileSync(log).length).toBe(offset);
    expect(readdirSync(dir).some((n) => n.startsWith(`${logsOf(dir).at(-1)!}.damaged-`))).toBe(true);
    // The orders from the damaged record on are gone; the ones before it are kept.
    expect([...repaired.ctx.world.orders.values()].filter((o) => o.accountId === 'alice-1').length).toBe(1);
  });

  test('a failed write answers 503 STATE_WRITE_FAILED, rolls the change back, keeps reads working, and writes work again once the disk does', async () => {
    const dir = folder();
    const app = stateApp(dir);
    const token = await aliceToken(app);
    const listing = plainListings(app, 0)[0]!.listing_number;
    const before = digest(app);
    const cash = (await call(app, 'GET', '/v1/accounts/platform', { token })).body;
    const full: LogIo = {
      write: async () => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
      datasync: async () => undefined,
      now: () => 0,
    };
    app.ctx.operationLog!.useIo(full);
    const refused = await call(app, 'POST', '/v1/orders', { token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } });
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('STATE_WRITE_FAILED');
    expect(refused.body.message).toMatch(
      /cannot write its operation log .*world-\d{6}\.log \(ENOSPC: .*\); the change was not made, reads still work/,
    );
    expect(digest(app)).toBe(before);
    expect((await call(app, 'GET', '/v1/accounts/platform', { token })).body).toEqual(cash);
    expect((await call(app, 'GET', '/openapi.json')).status).toBe(200);
    expect((await call(app, 'GET', '/v1/orders', { token })).body.total_count).toBe(0);

    app.ctx.operationLog!.useIo((await import('../mock-server/durability/log-appender.js')).diskIo);
    const placed = await call(app, 'POST', '/v1/orders', { token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } });
    expect(placed.status).toBe(200);
    const after = digest(app);
    crash(app);
    const again = stateApp(dir);
    expect(digest(again)).toBe(after);
    expect([...again.ctx.world.orders.keys()]).toEqual([placed.body.order_id]);
  });

  test('a base snapshot killed before it was whole leaves the previous base in force, and nothing acknowledged is lost', async () => {
    const dir = folder();
    const live = stateApp(dir);
    const token = await aliceToken(live);
    const listing = plainListings(live, 0)[0]!.listing_number;
    for (let i = 0; i < 6; i++)
      await call(live, 'POST', '/v1/orders', { token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } });
    await call(live, 'POST', '/__mock/clock', { body: { advance: '3h' } });
    const expected = digest(live);
    crash(live);
    // What a kill during a base snapshot leaves: the new log begun (its base record says it goes on from
    // the log before), records in both logs, and the snapshot only as its temporary file.
    const first = join(dir, 'world-000001.log');
    const records = parseLog(readFileSync(first), first).payloads;
    const split = 4;
    writeFileSync(first, Buffer.concat([LOG_HEADER, ...records.slice(0, split).map(frameRecord)]));
    const t = (JSON.parse(records[split - 1]!.toString()) as { t: number }).t;
    const base = Buffer.from(JSON.stringify({ t, k: 'base', from: 'snapshot', cont: true }));
    writeFileSync(join(dir, 'world-000002.log'), Buffer.concat([LOG_HEADER, frameRecord(base), ...records.slice(split).map(frameRecord)]));
    writeFileSync(join(dir, '.world-000002.snapshot.99999.tmp'), 'MKT-MOCK-STATE v1 half a world');
    const again = stateApp(dir);
    expect(digest(again)).toBe(expected);
    expect(existsSync(join(dir, '.world-000002.snapshot.99999.tmp'))).toBe(false);
  });

  test('a base snapshot made as the log grows: a restart starts from it, and the older generations are gone', async () => {
    const dir = folder();
    const live = stateApp(dir, { snapshotLogBytes: 1200 });
    const token = await aliceToken(live);
    const listing = plainListings(live, 0)[0]!.listing_number;
    for (let i = 0; i < 12; i++)
      await call(live, 'POST', '/v1/orders', { token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } });
    await new Promise((r) => setTimeout(r, 200)); // the snapshot is written off the event loop
    const expected = digest(live);
    crash(live);
    const generations = readdirSync(dir)
      .filter((n) => /^world-\d{6}\.(log|snapshot)$/.test(n))
      .sort();
    expect(generations.length).toBeGreaterThanOrEqual(2);
    expect(generations).not.toContain('world-000001.log');
    expect(digest(stateApp(dir))).toBe(expected);
  });
});

describe('starts and replacements that must not drift or leak (review findings)', () => {
  const START_AT = Date.parse('2026-03-01T10:00:00Z');
  const post = async (app: MockApp, path: string): Promise<{ status: number; body: { code?: string } }> => {
    const res = await app.handle(new Request(`http://127.0.0.1${path}`, { method: 'POST' }));
    return { status: res.status, body: (await res.json()) as { code?: string } };
  };
  const dates = (app: MockApp): string =>
    JSON.stringify(app.ctx.world.listings.map((l) => [l.listing_number, l.listing_creation_date, l.listing_start_date]));

  test('a fresh folder is seeded at the time its base names: killed right after start on a running clock, it rebuilds the same listings', () => {
    const dir = folder();
    // Real time moves 5 ms at every look, as it does while a large world is seeded.
    let real = 1_000_000;
    const realNow = (): number => (real += 5);
    const first = testMockApp({ stateFile: dir, start: START_AT, frozen: false, listings: 40 }, realNow);
    const before = dates(first);
    first.ctx.engine.abandon();
    const second = testMockApp({ stateFile: dir, start: START_AT, frozen: false, listings: 40 }, realNow);
    open.push(second);
    expect(dates(second)).toBe(before);
  });

  test('a reset whose new log cannot be written is the 503, and the world stays the one the folder holds, before and after a restart', async () => {
    const dir = folder();
    const live = stateApp(dir, { start: START_AT });
    const listing = plainListings(live, 0)[0]!.listing_number;
    expect((await post(live, `/__mock/listings/${listing}/withdraw`)).status).toBe(200);
    mkdirSync(join(dir, 'world-000002.log')); // where the reset's new log would go: the disk refuses it
    const reset = await post(live, '/__mock/reset');
    expect(reset).toMatchObject({ status: 503, body: { code: 'STATE_WRITE_FAILED' } });
    expect(live.ctx.world.listingByNumber.get(listing)!.listing_status_reason).toBe('Withdrawn');
    crash(live);
    rmdirSync(join(dir, 'world-000002.log'));
    expect(stateApp(dir, { start: START_AT }).ctx.world.listingByNumber.get(listing)!.listing_status_reason).toBe('Withdrawn');
  });

  test('a base snapshot whose new log cannot be begun leaves the log in force and the mock serving', async () => {
    const dir = folder();
    const live = stateApp(dir, { start: START_AT, snapshotLogBytes: 1 });
    mkdirSync(join(dir, 'world-000002.log'));
    // Logged, then past the 1-byte limit: the snapshot's new log fails (a rejection nobody caught ended the process).
    expect((await post(live, '/__mock/process')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logsOf(dir)).toEqual(['world-000001.log', 'world-000002.log']);
    expect((await post(live, '/__mock/process')).status).toBe(200);
  });

  test('a start that fails after taking the folder (a snapshot not found) lets it go', () => {
    const dir = folder();
    expect(() => testMockApp({ stateFile: dir, start: START_AT, frozen: true, listings: 20, fromSnapshot: 'nope' }, () => 0)).toThrow(
      /no snapshot 'nope'/,
    );
    const next = testMockApp({ stateFile: dir, start: START_AT, frozen: true, listings: 20 }, () => 0);
    open.push(next);
    expect(next.ctx.world.listings.length).toBeGreaterThan(0);
  });
});
