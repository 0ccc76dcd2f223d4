/**
 * One flipped bit in the operation log (durability/log-file.ts) of a real `--state DIR` folder, anywhere in
 * the file: the reader refuses it, naming the offset of the record that holds the bit (0: the file's
 * header), or, when the bit is in the last record, cuts that record as a torn tail. Never a record
 * lost that a later whole record follows (a flipped length bit was read as a torn tail wherever it
 * was: the mock started without a word and the orders after it were gone). And in the last record
 * of an older log of a chain: refused while the next log holds records (that record was acknowledged),
 * cut as torn only while it holds nothing but its base record.
 */
import fc from 'fast-check';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { loadFolder } from '../mock-server/durability/log-folder.js';
import { frameRecord, LOG_HEADER, LogCorruptError, parseLog } from '../mock-server/durability/log-file.js';
import { aliceToken, call, makeApp, plainListings } from './engine-fixture.js';

const open: MockApp[] = [];
afterEach(async () => {
  for (const a of open.splice(0)) await a.close?.().catch(() => undefined);
});

const folder = (): string => join(mkdtempSync(join(tmpdir(), 'mkt-bitflip-')), 'world');
const logsOf = (dir: string): string[] =>
  readdirSync(dir)
    .filter((n) => n.endsWith('.log'))
    .sort();

function stateApp(dir: string, extra: Parameters<typeof makeApp>[0] = {}): MockApp {
  const app = makeApp({ stateFile: dir, listings: 40, autoApprove: ['alice'], ...extra });
  open.push(app);
  return app;
}

/** As kill -9 leaves it: nothing more written, the folder let go. */
function crash(app: MockApp): void {
  app.ctx.engine.abandon();
  open.splice(open.indexOf(app), 1);
}

type Op =
  | { kind: 'order'; pick: number; cents: number }
  | { kind: 'clock'; minutes: number }
  | { kind: 'process' }
  | { kind: 'withdraw'; pick: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('order' as const), pick: fc.nat(), cents: fc.integer({ min: 2000, max: 9000 }) }) },
  fc.record({ kind: fc.constant('clock' as const), minutes: fc.integer({ min: 1, max: 3 * 24 * 60 }) }),
  fc.record({ kind: fc.constant('process' as const) }),
  fc.record({ kind: fc.constant('withdraw' as const), pick: fc.nat() }),
);

async function run(app: MockApp, token: string, o: Op): Promise<void> {
  const listings = plainListings(app, 0);
  const pick = (n: number) => listings[n % Math.max(1, listings.length)];
  if (o.kind === 'order' && pick(o.pick)) {
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
  }
}

/** Where each record of a whole log begins, and where the file ends. */
function recordStarts(bytes: Buffer, path: string): number[] {
  const read = parseLog(bytes, path);
  expect(read.end).toBe(bytes.length);
  return read.payloads.map((p) => p.byteOffset - bytes.byteOffset - 8);
}

/** Which record holds byte `at` (-1: the file's header). */
const recordAt = (starts: number[], at: number): number => starts.findLastIndex((s) => s <= at);

/**
 * What reading `bad` (the log `whole` with one bit flipped at byte `at`) must give: a refusal naming
 * the offset of the record that holds the bit, or, only for the last record, that record cut as torn.
 * Plain comparisons (a flip is checked ~10,000 times a log), the verdict or what went wrong.
 */
function flipVerdict(
  whole: Buffer,
  starts: number[],
  original: Buffer[],
  path: string,
  at: number,
  bit: number,
): 'refused' | 'torn' | string {
  const bad = Buffer.from(whole);
  bad[at] = bad[at]! ^ (1 << bit);
  const k = recordAt(starts, at);
  const offset = k < 0 ? 0 : starts[k]!;
  const where = `byte ${at} bit ${bit} (record ${k} of ${starts.length}, at ${offset})`;
  let read;
  try {
    read = parseLog(bad, path);
  } catch (err) {
    if (!(err instanceof LogCorruptError)) return `${where}: ${String(err)}`;
    if (err.offset !== offset) return `${where}: refused at ${err.offset}`;
    const says = `mock operation log ${path} has a bad record at byte offset ${offset} (`;
    return err.message.includes(says) ? 'refused' : `${where}: ${err.message}`;
  }
  // Read without an error: only the last record may be missing, and nothing read differs from what was written.
  if (k !== starts.length - 1) return `${where}: read ${read.payloads.length} records without an error, a record lost that others follow`;
  if (read.end !== offset || read.payloads.length !== original.length - 1)
    return `${where}: cut at ${read.end} with ${read.payloads.length} records`;
  return read.payloads.every((p, i) => p.equals(original[i]!)) ? 'torn' : `${where}: a record read back changed`;
}

function checkFlip(whole: Buffer, starts: number[], path: string, at: number, bit: number): 'refused' | 'torn' {
  const verdict = flipVerdict(whole, starts, parseLog(whole, path).payloads, path, at, bit);
  expect(['refused', 'torn']).toContain(verdict);
  return verdict as 'refused' | 'torn';
}

describe('a single flipped bit in a log of real operations', () => {
  test("is refused naming its record's offset, or (in the last record only) cut as torn: every bit of every log, and a start on one", async () => {
    const seen = { refused: 0, torn: 0, lengthBitsRefused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 2, maxLength: 10 }), fc.nat(), fc.nat(7), async (ops, pickByte, pickBit) => {
        const dir = folder();
        const live = stateApp(dir);
        const token = await aliceToken(live);
        for (const o of ops) await run(live, token, o);
        await live.ctx.durability.durable();
        crash(live);
        const path = join(dir, logsOf(dir).at(-1)!);
        const whole = readFileSync(path);
        const starts = recordStarts(whole, path);
        const original = parseLog(whole, path).payloads;
        const wrong: string[] = [];
        for (let at = 0; at < whole.length; at++) {
          for (let bit = 0; bit < 8; bit++) {
            const verdict = flipVerdict(whole, starts, original, path, at, bit);
            if (verdict !== 'refused' && verdict !== 'torn') {
              wrong.push(verdict);
              continue;
            }
            seen[verdict]++;
            const k = recordAt(starts, at);
            if (verdict === 'refused' && k >= 0 && k < starts.length - 1 && at < starts[k]! + 4) seen.lengthBitsRefused++;
          }
        }
        expect(wrong.slice(0, 5)).toEqual([]);
        // And the mock itself on one such file: it refuses to start (nothing changed on disk), or starts without the last record.
        const at = pickByte % whole.length;
        const bad = Buffer.from(whole);
        bad[at] = bad[at]! ^ (1 << pickBit);
        writeFileSync(path, bad);
        const k = recordAt(starts, at);
        if (k === starts.length - 1) {
          let started: MockApp | undefined;
          try {
            started = stateApp(dir);
          } catch (err) {
            expect(err).toBeInstanceOf(LogCorruptError);
          }
          if (started) expect(readFileSync(path).length).toBe(starts[k]);
        } else {
          expect(() => makeApp({ stateFile: dir, listings: 40 })).toThrow(
            `mock operation log ${path} has a bad record at byte offset ${k < 0 ? 0 : starts[k]}`,
          );
          expect(readFileSync(path)).toEqual(bad);
        }
      }),
      { numRuns: 10 },
    );
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.torn).toBeGreaterThan(0);
    expect(seen.lengthBitsRefused).toBeGreaterThan(0);
  }, 120_000);
});

describe('a single flipped bit in the last record of an older log of real operations (a chain a base snapshot under way leaves)', () => {
  test("is refused naming that log and the record's offset when the next log holds records; cut as torn (on disk) when it holds only its base", async () => {
    let torn = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 3, maxLength: 8 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
        async (ops, moved, picks) => {
          const dir = folder();
          const live = stateApp(dir);
          const token = await aliceToken(live);
          for (const o of ops) await run(live, token, o);
          await live.ctx.durability.durable();
          crash(live);
          // The real log split as a snapshot begun after its record k leaves it: log 1 up to k, log 2 going on from it.
          const path = join(dir, logsOf(dir).at(-1)!);
          const records = parseLog(readFileSync(path), path).payloads;
          fc.pre(records.length > moved + 1);
          const split = records.length - moved;
          const one = Buffer.concat([LOG_HEADER, ...records.slice(0, split).map(frameRecord)]);
          const t = (JSON.parse(records[split - 1]!.toString()) as { t: number }).t;
          const base = Buffer.from(JSON.stringify({ t, k: 'base', from: 'snapshot', cont: true }));
          const two = Buffer.concat([LOG_HEADER, frameRecord(base), ...records.slice(split).map(frameRecord)]);
          const log1 = join(dir, 'world-000001.log');
          const log2 = join(dir, 'world-000002.log');
          writeFileSync(log2, two);
          const last = one.length - 8 - records[split - 1]!.length;
          // Every bit of log 1's last record, log 2 holding records: each refused (it was cut as torn, the record lost).
          for (let at = last; at < one.length; at++) {
            for (let bit = 0; bit < 8; bit++) {
              const bad = Buffer.from(one);
              bad[at] = bad[at]! ^ (1 << bit);
              writeFileSync(log1, bad);
              let err: unknown;
              try {
                loadFolder(dir, false);
              } catch (e) {
                err = e;
              }
              if (!(err instanceof LogCorruptError) || err.path !== log1 || err.offset !== last)
                expect.fail(`byte ${at} bit ${bit}: ${String(err)}`);
            }
          }
          // Log 2 with its base record only (the kill came before anything followed): a few such bits, each
          // cut as torn, as in the newest log (or refused there too: a length no write makes).
          writeFileSync(log2, Buffer.concat([LOG_HEADER, frameRecord(base)]));
          for (const p of picks) {
            const at = last + (p % (one.length - last));
            const bad = Buffer.from(one);
            bad[at] = bad[at]! ^ (1 << (p % 8));
            writeFileSync(log1, bad);
            let loaded;
            try {
              loaded = loadFolder(dir, false)!;
            } catch (err) {
              expect(err).toBeInstanceOf(LogCorruptError);
              expect((err as LogCorruptError).why).toBe('a length no write of this mock makes');
              expect(readFileSync(log1)).toEqual(bad);
              continue;
            }
            expect(loaded.records.length).toBe(split - 2);
            expect(readFileSync(log1)).toEqual(one.subarray(0, last));
            torn++;
          }
        },
      ),
      { numRuns: 4 },
    );
    expect(torn).toBeGreaterThan(0);
  }, 120_000);
});

describe('a single flipped bit in a log of any payloads', () => {
  const payloads = fc.array(
    fc.uint8Array({ minLength: 1, maxLength: 200 }).map((a) => Buffer.from(a)),
    { minLength: 1, maxLength: 10 },
  );

  test("is refused naming its record's offset, or (in the last record only) cut as torn", () => {
    fc.assert(
      fc.property(payloads, fc.nat(), fc.nat(7), (ps, pickByte, bit) => {
        const whole = Buffer.concat([LOG_HEADER, ...ps.map(frameRecord)]);
        const starts = recordStarts(whole, 'w.log');
        checkFlip(whole, starts, 'w.log', pickByte % whole.length, bit);
      }),
      { numRuns: 2000 },
    );
  });

  test('a length bit of an early record that reaches past the end is refused, not cut as a torn tail', () => {
    const ps = [Buffer.from('{"t":1,"k":"base"}'), Buffer.from('{"t":2,"k":"order"}'), Buffer.from('{"t":3,"k":"order"}')];
    const whole = Buffer.concat([LOG_HEADER, ...ps.map(frameRecord)]);
    const second = LOG_HEADER.length + 8 + ps[0]!.length;
    for (const bit of [12, 20, 23]) {
      const bad = Buffer.from(whole);
      bad.writeUInt32LE(bad.readUInt32LE(second) ^ (1 << bit), second);
      expect(() => parseLog(bad, '/d/world-000001.log')).toThrow(
        `mock operation log /d/world-000001.log has a bad record at byte offset ${second} (`,
      );
    }
  });
});

describe('the search for a whole record after a bad one', () => {
  test('is bounded: bytes built to look like records at every offset are refused after 64 MiB of checksums, not searched for hours', () => {
    // After a bad record whose length reaches past the end: a pattern whose every 4 bytes read as a
    // length that fits (1 MiB, 4 KiB, 16) with a checksum that never matches. Unbounded, 2 MiB of it is ~10^12 bytes of CRC.
    const tail = Buffer.alloc(2 << 20);
    for (let i = 0; i < tail.length; i += 4) tail.writeUInt32LE(0x0010_0000, i);
    const bad = Buffer.alloc(8);
    bad.writeUInt32LE(15 << 20, 0);
    const file = Buffer.concat([LOG_HEADER, frameRecord(Buffer.from('{"t":1,"k":"base"}')), bad, tail]);
    const offset = LOG_HEADER.length + 8 + 18;
    expect(() => parseLog(file, 'w.log')).toThrow(
      `mock operation log w.log has a bad record at byte offset ${offset} (length ${15 << 20} reaches past the end of the file), with more bytes after it than can be checked`,
    );
  });
});
