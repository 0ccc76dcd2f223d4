/**
 * A folder's chain of operation logs (durability/log-folder.ts): a base snapshot under way (or killed, or
 * failed) leaves log n and log n+1 (`cont: true`, its snapshot missing), and new records go into
 * n+1, written only after n's last write was on disk. So a bad last record of log n is a torn write
 * only while n+1 holds nothing but its base record; after a record of n+1 it is an acknowledged
 * record damaged since, refused naming file and offset (it was dropped without a word: the reviewer's
 * folder replayed t+1, t+2, t+5, t+6, the record at t+3 gone). An ordinary crash's torn tail in log n
 * is cut at open, so the appends after it never turn it into a refusal. `--state-repair` cuts at the
 * bad record and sets the later logs aside, as a cut within one log drops what follows it.
 */
import fc from 'fast-check';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { loadFolder, type OpRecord } from '../mock-server/durability/log-folder.js';
import { frameRecord, LOG_HEADER, LogCorruptError, parseLog } from '../mock-server/durability/log-file.js';
import { aliceToken, call, makeApp, plainListings } from './engine-fixture.js';

const open: MockApp[] = [];
afterEach(async () => {
  for (const a of open.splice(0)) await a.close?.().catch(() => undefined);
});

const folder = (): string => {
  const dir = join(mkdtempSync(join(tmpdir(), 'mkt-oplog-chain-')), 'world');
  mkdirSync(dir);
  return dir;
};
const T = Date.UTC(2026, 5, 1, 12);
const rec = (t: number, k = 'time'): Buffer => Buffer.from(JSON.stringify({ t, k }));
const seedBase = (t: number): Buffer =>
  Buffer.from(JSON.stringify({ t, k: 'base', from: 'seed', recipe: { seed: 7, listings: 0, history: 'none' } }));
const contBase = (t: number): Buffer => Buffer.from(JSON.stringify({ t, k: 'base', from: 'snapshot', cont: true }));
const logFile = (payloads: Buffer[]): Buffer => Buffer.concat([LOG_HEADER, ...payloads.map(frameRecord)]);
const log1 = (dir: string): string => join(dir, 'world-000001.log');
const log2 = (dir: string): string => join(dir, 'world-000002.log');
/** Where the last record of a log file begins. */
const lastStart = (bytes: Buffer): number => {
  const read = parseLog(bytes, 'x.log');
  return read.payloads.at(-1)!.byteOffset - bytes.byteOffset - 8;
};
const times = (records: OpRecord[]): number[] => records.map((r) => r.t - T);

/** The reviewer's folder: log 1 (the seed, t+1..t+3), log 2 going on from it (its snapshot never written, t+4 its base, t+5, t+6). */
function twoLogs(dir: string, laterRecords = [5, 6]): { one: Buffer; two: Buffer } {
  const one = logFile([seedBase(T), rec(T + 1), rec(T + 2), rec(T + 3)]);
  const two = logFile([contBase(T + 4), ...laterRecords.map((d) => rec(T + d))]);
  writeFileSync(log1(dir), one);
  writeFileSync(log2(dir), two);
  return { one, two };
}

describe('a bad last record of an older log, with records after it in the next log', () => {
  test("is refused naming the file and the record's offset (the record at t+3 was dropped without a word), the folder unchanged", () => {
    for (const flip of ['payload', 'length past the end'] as const) {
      const dir = folder();
      const { one, two } = twoLogs(dir);
      const at = lastStart(one);
      const bad = Buffer.from(one);
      if (flip === 'payload') bad[at + 12] = bad[at + 12]! ^ 0x04;
      else bad.writeUInt32LE(bad.readUInt32LE(at) ^ (1 << 20), at);
      writeFileSync(log1(dir), bad);
      let err: unknown;
      try {
        loadFolder(dir, false);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(LogCorruptError);
      expect((err as Error).message).toContain(`mock operation log ${log1(dir)} has a bad record at byte offset ${at} (`);
      expect((err as Error).message).toContain('with records after it in world-000002.log');
      expect((err as Error).message).toContain('--state-repair to cut the log there and set the logs after it aside (world-000002.log;');
      expect(readFileSync(log1(dir))).toEqual(bad);
      expect(readFileSync(log2(dir))).toEqual(two);
    }
  });

  test('--state-repair cuts log 1 there and sets log 2 aside (each kept as a copy): t+1 and t+2, nothing replayed after the gap', () => {
    const dir = folder();
    const { one, two } = twoLogs(dir);
    const at = lastStart(one);
    const bad = Buffer.from(one);
    bad[at + 12] = bad[at + 12]! ^ 0x04;
    writeFileSync(log1(dir), bad);
    const loaded = loadFolder(dir, true)!;
    expect(times(loaded.records)).toEqual([1, 2]);
    expect(loaded.gen).toBe(1);
    expect(loaded.end).toBe(at);
    expect(readFileSync(log1(dir)).length).toBe(at);
    expect(existsSync(log2(dir))).toBe(false);
    const names = readdirSync(dir).sort();
    expect(names.filter((n) => n.startsWith('world-000001.log.damaged-')).map((n) => readFileSync(join(dir, n)))).toEqual([bad]);
    expect(names.filter((n) => n.startsWith('world-000002.log.damaged-')).map((n) => readFileSync(join(dir, n)))).toEqual([two]);
    // And the folder now reads without a repair.
    expect(times(loadFolder(dir, false)!.records)).toEqual([1, 2]);
  });

  test('a bad record in the middle of an older log: --state-repair sets the later logs aside too (it kept them, replaying t+5 and t+6 after the gap)', () => {
    const dir = folder();
    const { one } = twoLogs(dir);
    const second = parseLog(one, 'x').payloads[2]!.byteOffset - one.byteOffset - 8;
    const bad = Buffer.from(one);
    bad[second + 10] = bad[second + 10]! ^ 0x01;
    writeFileSync(log1(dir), bad);
    expect(() => loadFolder(dir, false)).toThrow('and set the logs after it aside (world-000002.log;');
    const loaded = loadFolder(dir, true)!;
    expect(times(loaded.records)).toEqual([1]);
    expect(existsSync(log2(dir))).toBe(false);
  });
});

describe("an ordinary crash's torn tail in an older log, only a base record after it", () => {
  test('loads without its torn record, and log 1 is cut on disk (a later append cannot turn it into a refusal)', () => {
    const dir = folder();
    const one = logFile([seedBase(T), rec(T + 1), rec(T + 2)]);
    writeFileSync(log1(dir), Buffer.concat([one, frameRecord(rec(T + 3)).subarray(0, 11)]));
    writeFileSync(log2(dir), logFile([contBase(T + 2)]));
    const loaded = loadFolder(dir, false)!;
    expect(times(loaded.records)).toEqual([1, 2]);
    expect(loaded.gen).toBe(2);
    expect(readFileSync(log1(dir))).toEqual(one);
  });

  test('a mock starts on it, and keeps starting after more orders and another kill', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'mkt-oplog-chain-')), 'world');
    const live = makeApp({ stateFile: dir, listings: 40, autoApprove: ['alice'] });
    open.push(live);
    const token = await aliceToken(live);
    const listing = plainListings(live, 0)[0]!.listing_number;
    const order = async (app: MockApp): Promise<string> => {
      const res = await call(app, 'POST', '/v1/orders', { token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } });
      expect(res.status).toBe(200);
      return res.body.order_id as string;
    };
    const acked = [await order(live), await order(live), await order(live)];
    crash(live);
    // What a kill during a base snapshot leaves: the last order's write cut short in log 1, and log 2
    // begun with its base record only (records of log 2 wait for log 1's last write to be on disk).
    const whole = readFileSync(log1(dir));
    const cutAt = lastStart(whole);
    const last = JSON.parse(parseLog(whole, 'x').payloads.at(-2)!.toString()) as { t: number };
    writeFileSync(log1(dir), whole.subarray(0, cutAt + 20));
    writeFileSync(log2(dir), logFile([contBase(last.t)]));
    const kept = acked.slice(0, 2);

    let again = makeApp({ stateFile: dir, listings: 40, autoApprove: ['alice'] });
    open.push(again);
    expect(aliceOrders(again)).toEqual(kept.sort());
    expect(readFileSync(log1(dir)).length).toBe(cutAt);
    kept.push(await order(again), await order(again));
    crash(again);
    again = makeApp({ stateFile: dir, listings: 40, autoApprove: ['alice'] });
    open.push(again);
    expect(aliceOrders(again)).toEqual(kept.sort());
  });
});

/** As kill -9 leaves it: nothing more written, the folder let go. */
function crash(app: MockApp): void {
  app.ctx.engine.abandon();
  open.splice(open.indexOf(app), 1);
}

const aliceOrders = (app: MockApp): string[] =>
  [...app.ctx.world.orders.values()]
    .filter((o) => o.accountId === 'alice-1')
    .map((o) => o.order_id)
    .sort();

describe('a single flipped bit anywhere in a chain of two logs', () => {
  /** Record starts of a whole log (-1 for its header). */
  const starts = (bytes: Buffer): number[] => parseLog(bytes, 'x').payloads.map((p) => p.byteOffset - bytes.byteOffset - 8);
  const recordAt = (s: number[], at: number): number => s.findLastIndex((x) => x <= at);

  test("is refused naming its log and its record's offset, or cut as torn only when it is the chain's last write: never a record lost that a later one follows", () => {
    const seen = { refused: 0, torn: 0, olderLastRefused: 0 };
    const dir = folder();
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        fc.nat(),
        fc.nat(7),
        (inOne, inTwo, flipOne, pick, bit) => {
          rmSync(dir, { recursive: true });
          mkdirSync(dir);
          const one = logFile([seedBase(T), ...Array.from({ length: inOne }, (_, i) => rec(T + 1 + i, 'x'.repeat(i * 37)))]);
          const two = logFile([contBase(T + 10), ...Array.from({ length: inTwo }, (_, i) => rec(T + 11 + i))]);
          const target = flipOne ? one : two;
          const at = pick % target.length;
          const bad = Buffer.from(target);
          bad[at] = bad[at]! ^ (1 << bit);
          writeFileSync(log1(dir), flipOne ? bad : one);
          writeFileSync(log2(dir), flipOne ? two : bad);
          const s = starts(target);
          const k = recordAt(s, at);
          const path = flipOne ? log1(dir) : log2(dir);
          const all = [...Array.from({ length: inOne }, (_, i) => 1 + i), ...Array.from({ length: inTwo }, (_, i) => 11 + i)];
          // The one record that may go: the last of the newest log, or log 1's last while log 2 holds only
          // its base, unless that is log 1's base (on disk before log 2 was begun).
          const chainLast = k === s.length - 1 && (!flipOne || (inTwo === 0 && k > 0));
          let loaded;
          try {
            loaded = loadFolder(dir, false);
          } catch (err) {
            expect(err).toBeInstanceOf(LogCorruptError);
            expect((err as LogCorruptError).path).toBe(path);
            expect((err as LogCorruptError).offset).toBe(k < 0 ? 0 : s[k]);
            // Nothing changed on disk by a refusal.
            expect(readFileSync(path)).toEqual(bad);
            seen.refused++;
            if (flipOne && k === s.length - 1) seen.olderLastRefused++;
            return;
          }
          expect(chainLast).toBe(true);
          // A base cut as torn can only be log 2's (then removed, holding nothing).
          const lost = flipOne ? inOne : k === 0 ? null : 10 + inTwo;
          const expected = all.filter((d) => d !== lost);
          expect(times(loaded!.records)).toEqual(expected);
          // An older log's torn record is cut on disk at once.
          if (flipOne) expect(readFileSync(log1(dir)).length).toBe(s[k]);
          seen.torn++;
        },
      ),
      { numRuns: 1500 },
    );
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.torn).toBeGreaterThan(0);
    expect(seen.olderLastRefused).toBeGreaterThan(0);
  });
});
