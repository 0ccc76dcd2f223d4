/**
 * The operation log's group commit (durability/log-appender.ts), under interleavings the test drives one
 * step at a time (STYLE.md habit 24): a disk whose every write and sync waits until the test lets it
 * go, so "a crash between the write and the sync" and "an order arriving while a sync runs" are
 * orders of events made on purpose, not the luck of a stress run. What must hold: an order is answered
 * only once the sync that carries its record is done; two orders of one group are both unanswered until
 * then (a crash before it answers neither); an order made while a sync runs waits for a sync of its own.
 */
import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { LogIo } from '../mock-server/durability/log-appender.js';
import { aliceToken, call, plainListings, type Answer } from './engine-fixture.js';
import { stateApps } from './helpers/state-apps.js';

const { folder, start: stateApp, crash } = stateApps('mkt-group-commit-', { listings: 40, autoApprove: ['alice'] });

/** One write or sync the log asked of the disk, held until the test lets it go. */
interface Step {
  kind: 'write' | 'sync';
  /** The bytes of a write (records framed, the group's records one after another). */
  data?: Buffer;
  go: () => void;
}

/**
 * A disk that does each write and sync for real, but only when the test says (`next`). A write's
 * bytes are in the file once let go (what a kill -9 keeps: the page cache outlives the process); a
 * sync puts them on disk.
 */
function heldDisk(path: () => string) {
  const waiting: Step[] = [];
  const io: LogIo = {
    write: (_fd, data, position) =>
      new Promise((resolve) =>
        waiting.push({
          kind: 'write',
          data: Buffer.from(data),
          go: () => {
            // Its own descriptor: the appender's is closed by a crash while a step may still be held.
            const fd = openSync(path(), 'r+');
            writeSync(fd, data, 0, data.length, position);
            closeSync(fd);
            resolve();
          },
        }),
      ),
    datasync: () =>
      new Promise((resolve) =>
        waiting.push({
          kind: 'sync',
          go: () => {
            const fd = openSync(path(), 'r+');
            fdatasyncSync(fd);
            closeSync(fd);
            resolve();
          },
        }),
      ),
    now: () => 0,
  };
  /** Waits (a bounded number of event-loop turns) for the log's next step, checks its kind, and hands it over unlet. */
  async function next(kind: Step['kind']): Promise<Step> {
    for (let turn = 0; turn < 200 && waiting.length === 0; turn++) await new Promise((r) => setImmediate(r));
    const step = waiting.shift();
    expect(step?.kind).toBe(kind);
    return step!;
  }
  /** Lets the event loop run a few turns, then says whether the log asked anything more of the disk. */
  async function quiet(): Promise<boolean> {
    for (let turn = 0; turn < 20; turn++) await new Promise((r) => setImmediate(r));
    return waiting.length === 0;
  }
  return { io, next, quiet };
}

/** A request's answer as it stands: undefined until it has come. */
function tracked(p: Promise<Answer>): { answer: () => Answer | undefined; done: Promise<Answer> } {
  let got: Answer | undefined;
  const done = p.then((a) => (got = a));
  return { answer: () => got, done };
}

/** Records in a group's write: each framed with its 4-byte length first. */
function recordsIn(data: Buffer): string[] {
  const out: string[] = [];
  for (let off = 0; off < data.length;) {
    const len = data.readUInt32LE(off);
    out.push(data.subarray(off + 8, off + 8 + len).toString('utf8'));
    off += 8 + len;
  }
  return out;
}

async function setUp() {
  const dir = folder();
  const app = stateApp(dir);
  const token = await aliceToken(app);
  const listings = plainListings(app, 0).map((l) => l.listing_number);
  const order = (i: number) =>
    tracked(call(app, 'POST', '/v1/orders', { token, body: { bid_requests: [{ listing_id: listings[i]!, bid_amount: 25 }] } }));
  const log = app.ctx.operationLog!;
  const disk = heldDisk(() => log.appenderPath()!);
  log.useIo(disk.io);
  return { dir, app, order, disk };
}

describe('group commit, step by step', () => {
  test('two orders in one group, a crash after their write and before its sync: neither is answered; the order acknowledged before is kept', async () => {
    const { dir, app, order, disk } = await setUp();
    // A first order's write and sync are under way: the two after it gather in the next group.
    const first = order(0);
    const firstWrite = await disk.next('write');
    const a = order(1);
    const b = order(2);
    expect(await disk.quiet()).toBe(true);
    firstWrite.go();
    (await disk.next('sync')).go();
    expect((await first.done).status).toBe(200);

    // One write carries both; it reaches the file; the crash comes before its sync.
    const group = await disk.next('write');
    expect(recordsIn(group.data!).map((r) => JSON.parse(r).k)).toEqual(['order', 'order']);
    expect(a.answer()).toBeUndefined();
    group.go();
    await disk.next('sync');
    expect(await disk.quiet()).toBe(true);
    expect(a.answer()).toBeUndefined();
    expect(b.answer()).toBeUndefined();
    crash(app);
    expect(a.answer()).toBeUndefined();
    expect(b.answer()).toBeUndefined();

    // The next mock on the folder has the acknowledged order (and may have the two unanswered ones: their bytes were in the file).
    const again = stateApp(dir);
    expect([...again.ctx.world.orders.keys()]).toContain((await first.done).body.order_id);
  });

  test('an order made while a sync runs is answered only after a sync of its own, not the one under way', async () => {
    const { order, disk } = await setUp();
    const a = order(0);
    (await disk.next('write')).go();
    const aSync = await disk.next('sync');

    // B arrives while A's sync runs: nothing more is written until that sync is done (one write at a time).
    const b = order(1);
    expect(await disk.quiet()).toBe(true);
    expect(a.answer()).toBeUndefined();
    expect(b.answer()).toBeUndefined();

    // A's sync done: A answered; B not, though its record may already be in the file, until its own sync.
    aSync.go();
    expect((await a.done).status).toBe(200);
    const bWrite = await disk.next('write');
    expect(recordsIn(bWrite.data!)).toHaveLength(1);
    expect(b.answer()).toBeUndefined();
    bWrite.go();
    const bSync = await disk.next('sync');
    expect(await disk.quiet()).toBe(true);
    expect(b.answer()).toBeUndefined();
    bSync.go();
    expect((await b.done).status).toBe(200);
  });
});
