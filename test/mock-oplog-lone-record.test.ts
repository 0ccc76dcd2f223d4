/**
 * The operation log's writes on the event loop (durability/log-appender.ts): the records queued in a turn of
 * the event loop, one or several, are written on the loop at the turn's end in one write (the disk's
 * `writeNow`), not through the thread pool. The faults where this path meets another (STYLE.md habit 24):
 * its write failing (a full disk) must drop every record of it and roll the world back exactly as a pooled
 * write's failure does, and when the rollback fails too every change is refused; a turn's records never
 * bypass an older log still writing its last records; a slow disk's writes go back to the pool.
 */
import { closeSync, fdatasyncSync, openSync, readdirSync, readSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { checkInvariants } from '../mock-server/audit/invariants.js';
import { readLog } from '../mock-server/durability/log-file.js';
import { diskIo, type LogIo } from '../mock-server/durability/log-appender.js';
import { aliceToken, call, plainListings } from './engine-fixture.js';
import { stateApps, worldDigest as digest } from './helpers/state-apps.js';

afterEach(() => vi.restoreAllMocks());
const { folder, start: stateApp, stop, crash } = stateApps('mkt-lone-record-', { listings: 60, autoApprove: ['alice'] });

const lastLog = (dir: string): string =>
  join(
    dir,
    readdirSync(dir)
      .filter((n) => n.endsWith('.log'))
      .sort()
      .at(-1)!,
  );

/** Records in one write: each framed with its 4-byte length first. */
function recordKinds(data: Buffer): string[] {
  const out: string[] = [];
  for (let off = 0; off < data.length;) {
    const len = data.readUInt32LE(off);
    out.push((JSON.parse(data.subarray(off + 8, off + 8 + len).toString('utf8')) as { k: string }).k);
    off += 8 + len;
  }
  return out;
}

/** The real disk, counting which way each write went (and able to refuse the ones made on the loop). */
function countingDisk(refuseNow = false) {
  const seen: { way: 'now' | 'pool'; kinds: string[] }[] = [];
  const io: LogIo = {
    write: (fd, data, position) => {
      seen.push({ way: 'pool', kinds: recordKinds(data) });
      return diskIo.write(fd, data, position);
    },
    datasync: (fd) => diskIo.datasync(fd),
    // A clock that stands still: every write is quick, whatever this machine's disk (a slow one's go to the pool).
    now: () => 0,
    writeNow: (fd, data, position) => {
      seen.push({ way: 'now', kinds: recordKinds(data) });
      if (refuseNow) {
        // A full disk mid-write: part of the bytes land before the refusal (the file must be cut back to what was on disk).
        writeSync(fd, data, 0, data.length >> 1, position);
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }
      // Where the platform has no O_DSYNC the real disk has no writeNow: a write then a data sync stand for it.
      for (let off = 0; off < data.length;) off += writeSync(fd, data, off, data.length - off, position + off);
      if (!diskIo.writeNow) fdatasyncSync(fd);
    },
  };
  return { io, seen };
}

async function setUp() {
  const dir = folder();
  const app = stateApp(dir);
  const token = await aliceToken(app);
  const listings = plainListings(app, 0).map((l) => l.listing_number);
  const bid = (i: number) => ({ token, body: { bid_requests: [{ listing_id: listings[i]!, bid_amount: 25 }] } });
  return { dir, app, token, bid };
}

/** One order kept, then a disk that refuses the loop's writes (console errors quiet): the world and log as on disk before. */
async function refusingAfterOne() {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const set = await setUp();
  expect((await call(set.app, 'POST', '/v1/orders', set.bid(0))).status).toBe(200);
  const onDisk = digest(set.app);
  const log = lastLog(set.dir);
  const size = statSync(log).size;
  const disk = countingDisk(true);
  set.app.ctx.operationLog!.useIo(disk.io);
  return { ...set, onDisk, log, size, disk };
}

describe("a turn's records are written on the event loop, in one write", () => {
  test('one order alone: one write on the loop carrying its record, answered 200 and on disk; two orders of one turn: one write on the loop carrying both', async () => {
    const { dir, app, bid } = await setUp();
    const disk = countingDisk();
    app.ctx.operationLog!.useIo(disk.io);
    const before = statSync(lastLog(dir)).size;

    const alone = await call(app, 'POST', '/v1/orders', bid(0));
    expect(alone.status).toBe(200);
    expect(disk.seen).toEqual([{ way: 'now', kinds: ['order'] }]);
    expect(statSync(lastLog(dir)).size).toBeGreaterThan(before);

    disk.seen.length = 0;
    const both = await Promise.all([call(app, 'POST', '/v1/orders', bid(1)), call(app, 'POST', '/v1/orders', bid(2))]);
    expect(both.map((a) => a.status)).toEqual([200, 200]);
    expect(disk.seen).toEqual([{ way: 'now', kinds: ['order', 'order'] }]);

    // A restart has all three.
    const ids = [alone, ...both].map((a) => a.body.order_id as string).sort();
    await stop(app);
    expect([...stateApp(dir).ctx.world.orders.keys()].sort()).toEqual(ids);
  });

  test('a lone record whose write fails: 503, the world rolled back to the disk, the file as it was; the disk well again, the next order is kept', async () => {
    const { dir, app, bid, onDisk, log, size, disk } = await refusingAfterOne();
    const refused = await call(app, 'POST', '/v1/orders', bid(1));
    expect([refused.status, refused.body.code]).toEqual([503, 'STATE_WRITE_FAILED']);
    expect(disk.seen).toEqual([{ way: 'now', kinds: ['order'] }]);
    expect(digest(app)).toBe(onDisk);
    expect(statSync(log).size).toBe(size);
    expect(checkInvariants(app.ctx.world).ok).toBe(true);

    app.ctx.operationLog!.useIo(diskIo);
    const kept = await call(app, 'POST', '/v1/orders', bid(2));
    expect(kept.status).toBe(200);
    await stop(app);
    const restarted = stateApp(dir);
    expect(restarted.ctx.world.orders.has(kept.body.order_id as string)).toBe(true);
    expect(restarted.ctx.world.orders.size).toBe(2);
  });

  test("a turn's two records whose one write fails: both 503, the world rolled back to the disk, the file as it was; the next orders are kept", async () => {
    const { dir, app, bid, onDisk, log, size, disk } = await refusingAfterOne();
    const refused = await Promise.all([call(app, 'POST', '/v1/orders', bid(1)), call(app, 'POST', '/v1/orders', bid(2))]);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual([
      [503, 'STATE_WRITE_FAILED'],
      [503, 'STATE_WRITE_FAILED'],
    ]);
    expect(disk.seen).toEqual([{ way: 'now', kinds: ['order', 'order'] }]);
    expect(digest(app)).toBe(onDisk);
    expect(statSync(log).size).toBe(size);
    expect(checkInvariants(app.ctx.world).ok).toBe(true);

    app.ctx.operationLog!.useIo(diskIo);
    const kept = await Promise.all([call(app, 'POST', '/v1/orders', bid(3)), call(app, 'POST', '/v1/orders', bid(4))]);
    expect(kept.map((r) => r.status)).toEqual([200, 200]);
    await stop(app);
    const restarted = stateApp(dir);
    expect([...restarted.ctx.world.orders.keys()].sort()).toEqual([...app.ctx.world.orders.keys()].sort());
    expect(restarted.ctx.world.orders.size).toBe(3);
  });

  test('a slow disk (writes over 1 ms on average): its groups go through the thread pool, one in 16 on the loop to time it, and all on the loop once a timed one is quick', async () => {
    const { dir, app, bid } = await setUp();
    // The real disk, timed by a clock that moves only as the writes say they took; a pool write may be held.
    let clock = 0;
    let tookMs = 5;
    let held: Promise<void> | null = null;
    const seen: string[] = [];
    const io: LogIo = {
      write: async (fd, data, position) => {
        seen.push('pool');
        if (held) await held;
        return diskIo.write(fd, data, position);
      },
      datasync: (fd) => diskIo.datasync(fd),
      writeNow: (fd, data, position) => {
        seen.push('now');
        clock += tookMs;
        for (let off = 0; off < data.length;) off += writeSync(fd, data, off, data.length - off, position + off);
        if (!diskIo.writeNow) fdatasyncSync(fd);
      },
      now: () => clock,
    };
    app.ctx.operationLog!.useIo(io);
    const ids: string[] = [];
    const order = async (i: number) => {
      const a = await call(app, 'POST', '/v1/orders', bid(i));
      expect(a.status).toBe(200);
      ids.push(a.body.order_id as string);
    };
    const pool = (n: number) => Array.from({ length: n }, () => 'pool');
    // The first write is on the loop and takes 5 ms: the next fifteen go through the pool.
    for (let i = 0; i < 16; i++) await order(i);
    expect(seen).toEqual(['now', ...pool(15)]);
    // The sixteenth's write held in the pool while another order comes: that one is the loop's, to time the disk (5 ms still).
    let release!: () => void;
    held = new Promise<void>((r) => (release = r));
    const first = order(16);
    for (let k = 0; k < 20; k++) await new Promise((r) => setImmediate(r));
    const second = order(17);
    for (let k = 0; k < 20; k++) await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['now', ...pool(16)]);
    held = null;
    release();
    await Promise.all([first, second]);
    expect(seen).toEqual(['now', ...pool(16), 'now']);
    // Quick again (0.1 ms): sixteen more through the pool, then the timed one is quick, and the writes stay on the loop.
    tookMs = 0.1;
    for (let i = 18; i < 36; i++) await order(i);
    expect(seen.slice(18)).toEqual([...pool(16), 'now', 'now']);
    // Every order acknowledged either way is on disk, as kill -9 leaves it.
    crash(app);
    expect([...stateApp(dir).ctx.world.orders.keys()].sort()).toEqual(ids.sort());
  });

  test("after a base snapshot begins a new log, that log's records wait for the old one's last write, then go on the loop", async () => {
    const dir = folder();
    const app = stateApp(dir, { snapshotLogBytes: 1500 });
    const token = await aliceToken(app);
    const listings = plainListings(app, 0).map((l) => l.listing_number);
    const bid = (i: number) => ({ token, body: { bid_requests: [{ listing_id: listings[i]!, bid_amount: 25 }] } });
    const log = app.ctx.operationLog! as unknown as { appender: { size: number; path: string }; snapshotBytes: number };
    let i = 0;
    while (log.appender.size <= log.snapshotBytes && i < 40) expect((await call(app, 'POST', '/v1/orders', bid(i++))).status).toBe(200);
    // The old log's last write held in the pool until let go.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    app.ctx.operationLog!.useIo({
      write: async (fd, data, position) => {
        await held;
        return diskIo.write(fd, data, position);
      },
      datasync: (fd) => diskIo.datasync(fd),
      now: () => 0,
    });
    const old = log.appender.path;
    const answers: number[] = [];
    // The first order's append begins the new log; the second's record goes into it.
    const both = [bid(i++), bid(i++)].map((b) => call(app, 'POST', '/v1/orders', b).then((a) => void answers.push(a.status)));
    for (let k = 0; k < 50; k++) await new Promise((r) => setImmediate(r));
    const fresh = log.appender.path;
    expect(fresh).not.toBe(old);
    expect(answers).toEqual([]);
    // Only the new log's base: its record waits for the old log's.
    expect(readLog(fresh).payloads.map((p) => (JSON.parse(p.toString()) as { k: string }).k)).toEqual(['base']);
    release();
    await Promise.all(both);
    expect(answers).toEqual([200, 200]);
    expect(readLog(fresh).payloads.map((p) => (JSON.parse(p.toString()) as { k: string }).k)).toEqual(['base', 'order']);
    // Its next records are written on the loop (the old log is done).
    const disk = countingDisk();
    app.ctx.operationLog!.useIo(disk.io);
    expect((await call(app, 'POST', '/v1/orders', bid(i++))).status).toBe(200);
    expect(disk.seen.map((w) => w.way)).toEqual(['now']);
    const ids = [...app.ctx.world.orders.keys()].sort();
    crash(app);
    expect([...stateApp(dir).ctx.world.orders.keys()].sort()).toEqual(ids);
  });

  test("two faults: the record that begins a new log fails to be written: refused, and refused after a restart too; the new log's orders are kept", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const dir = folder();
    const app = stateApp(dir, { snapshotLogBytes: 1500 });
    const token = await aliceToken(app);
    const listings = plainListings(app, 0).map((l) => l.listing_number);
    const bid = (i: number) => ({ token, body: { bid_requests: [{ listing_id: listings[i]!, bid_amount: 25 }] } });
    const log = app.ctx.operationLog! as unknown as { appender: { size: number }; snapshotBytes: number; snapshotting: boolean };
    let i = 0;
    // Up to the record whose append begins a new log (the log is past its bound on disk).
    while (log.appender.size <= log.snapshotBytes && i < 40) expect((await call(app, 'POST', '/v1/orders', bid(i++))).status).toBe(200);
    const kept = [...app.ctx.world.orders.keys()];
    const logs = readdirSync(dir).filter((n) => n.endsWith('.log')).length;
    app.ctx.operationLog!.useIo(countingDisk(true).io);
    const refused = await call(app, 'POST', '/v1/orders', bid(i++));
    expect([refused.status, refused.body.code]).toEqual([503, 'STATE_WRITE_FAILED']);
    expect(readdirSync(dir).filter((n) => n.endsWith('.log')).length).toBe(logs + 1);
    for (let k = 0; k < 200 && log.snapshotting; k++) await new Promise((r) => setTimeout(r, 5));
    expect([...app.ctx.world.orders.keys()].sort()).toEqual([...kept].sort());
    // The new log's orders, on the real disk.
    const later: string[] = [];
    for (let k = 0; k < 3; k++) {
      const a = await call(app, 'POST', '/v1/orders', bid(i++));
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      later.push(a.body.order_id as string);
    }
    // As kill -9 leaves the folder (no clean stop's fresh base): the refused order is not in it, every acknowledged one is.
    crash(app);
    expect([...stateApp(dir).ctx.world.orders.keys()].sort()).toEqual([...kept, ...later].sort());
  });

  test('two faults: a lone record whose write fails and whose rollback fails too stops every change until a restart', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { dir, app, bid } = await setUp();
    const acked = await call(app, 'POST', '/v1/orders', bid(0));
    expect(acked.status).toBe(200);
    const onDisk = digest(app);
    const log = lastLog(dir);

    app.ctx.operationLog!.useIo(countingDisk(true).io);
    // The log's header damaged on disk: the rollback cannot read it back.
    const fd = openSync(log, 'r+');
    const held = Buffer.alloc(1);
    readSync(fd, held, 0, 1, 0);
    writeSync(fd, Buffer.from([0x58]), 0, 1, 0);
    const refused = await call(app, 'POST', '/v1/orders', bid(1));
    expect([refused.status, refused.body.code]).toEqual([503, 'STATE_ROLLBACK_FAILED']);
    expect(checkInvariants(app.ctx.world).ok).toBe(true);

    writeSync(fd, held, 0, 1, 0);
    closeSync(fd);
    app.ctx.operationLog!.useIo(diskIo);
    const again = await call(app, 'POST', '/v1/orders', bid(2));
    expect([again.status, again.body.code]).toEqual([503, 'STATE_ROLLBACK_FAILED']);

    await stop(app);
    const restarted = stateApp(dir);
    expect(digest(restarted)).toBe(onDisk);
    expect([...restarted.ctx.world.orders.keys()]).toEqual([acked.body.order_id]);
  });
});
