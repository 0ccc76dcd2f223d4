/**
 * Two faults at once in `--state DIR` (durability/operation-log.ts): a write of the operation log fails (a
 * full disk, injected as the other full-disk tests do) and the rollback that follows fails too (the
 * log cannot be read back: here its header damaged on disk). The rollback's failure was only logged
 * and the mock went on acknowledging changes on a world the disk did not hold. Now every change is
 * refused, 503 STATE_ROLLBACK_FAILED naming both causes, until a restart; reads still work; the world
 * is the one before the rollback, each operation whole (never half replayed); nothing refused reaches
 * the disk, not even through a clean stop; and a restart has every acknowledged change.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { checkInvariants } from '../mock-server/audit/invariants.js';
import { frameRecord, parseLog } from '../mock-server/durability/log-file.js';
import { diskIo, type LogIo } from '../mock-server/durability/log-appender.js';
import { aliceToken, call, plainListings } from './engine-fixture.js';
import { stateApps, worldDigest as digest } from './helpers/state-apps.js';

afterEach(() => vi.restoreAllMocks());
const { folder, start: stateApp, stop } = stateApps('mkt-rollback-', { listings: 60, autoApprove: ['alice'] });

/** Swaps the first byte of a file with `byte`, in place (the appender keeps its own descriptor); returns the byte it held. */
function putFirstByte(path: string, byte: number): number {
  const fd = openSync(path, 'r+');
  try {
    const held = Buffer.alloc(1);
    readSync(fd, held, 0, 1, 0);
    writeSync(fd, Buffer.from([byte]), 0, 1, 0);
    return held[0]!;
  } finally {
    closeSync(fd);
  }
}

const full: LogIo = {
  write: async () => {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  },
  datasync: async () => undefined,
  now: () => 0,
};

describe('a failed write whose rollback fails too', () => {
  test('stops every change (503 naming both causes) until a restart; reads work; nothing refused is half applied or reaches the disk', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const dir = folder();
    const app = stateApp(dir);
    const token = await aliceToken(app);
    const [one, two] = plainListings(app, 0).map((l) => l.listing_number);
    const bid = (listing: number) => ({ token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } });
    const acked = await call(app, 'POST', '/v1/orders', bid(one!));
    expect(acked.status).toBe(200);
    const onDisk = digest(app);

    // Two faults: the disk refuses the next write, and the log cannot be read back for the rollback.
    const log = join(
      dir,
      readdirSync(dir)
        .filter((n) => n.endsWith('.log'))
        .sort()
        .at(-1)!,
    );
    app.ctx.operationLog!.useIo(full);
    const header = putFirstByte(log, 0x58);
    // Two orders at once: the first in the write that fails, the second queued behind it; both are told the same.
    const [refused, queued] = await Promise.all([call(app, 'POST', '/v1/orders', bid(two!)), call(app, 'POST', '/v1/orders', bid(one!))]);
    expect([queued.status, queued.body.code]).toEqual([503, 'STATE_ROLLBACK_FAILED']);
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('STATE_ROLLBACK_FAILED');
    expect(refused.body.message).toContain(`cannot write its operation log ${log} (ENOSPC: no space left on device, write)`);
    expect(refused.body.message).toContain(`nor roll its world back to it (mock operation log ${log} has a bad record at byte offset 0`);
    expect(refused.body.message).toContain('takes no change until it is restarted');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    // The world is the one before the rollback, each operation whole: the refused orders with their debits, the ledger whole.
    expect(checkInvariants(app.ctx.world).ok).toBe(true);
    const shown = digest(app);
    expect(shown).not.toBe(onDisk);

    // The disk is well again: still no change taken (not on a world the disk does not hold), whatever the route.
    putFirstByte(log, header);
    app.ctx.operationLog!.useIo(diskIo);
    for (const [method, path, opts] of [
      ['POST', '/v1/orders', bid(two!)],
      ['POST', '/__mock/clock', { body: { advance: '2h' } }],
      ['POST', '/__mock/process', {}],
      ['POST', `/__mock/listings/${two}/withdraw`, {}],
      ['POST', '/__mock/reset', {}],
      ['POST', '/__mock/snapshots', { body: { name: 'after' } }],
    ] as const) {
      const again = await call(app, method, path, opts);
      expect([path, again.status, again.body.code]).toEqual([path, 503, 'STATE_ROLLBACK_FAILED']);
    }
    expect(digest(app)).toBe(shown);

    // Reads still work.
    expect((await call(app, 'GET', '/v1/accounts/platform', { token })).status).toBe(200);
    expect((await call(app, 'GET', '/v1/orders', { token })).status).toBe(200);
    expect((await call(app, 'GET', '/__mock/state')).status).toBe(200);

    // A clean stop writes no base from this world; a restart has what was acknowledged and nothing refused.
    await stop(app);
    const restarted = stateApp(dir);
    expect(digest(restarted)).toBe(onDisk);
    expect([...restarted.ctx.world.orders.keys()]).toEqual([acked.body.order_id]);
    expect((await call(restarted, 'POST', '/v1/orders', bid(two!))).status).toBe(200);
  });

  test('a rollback that fails half way through the replay leaves the world before it, whole, not the half replayed one', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const dir = folder();
    const app = stateApp(dir);
    const token = await aliceToken(app);
    const [one, two] = plainListings(app, 0).map((l) => l.listing_number);
    const bid = (listing: number) => ({ token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } });
    expect((await call(app, 'POST', '/v1/orders', bid(one!))).status).toBe(200);
    // The acknowledged order's record rewritten in place as an operation this mock does not know (its checksum
    // right): a replay applies the records before it, then fails.
    const log = join(
      dir,
      readdirSync(dir)
        .filter((n) => n.endsWith('.log'))
        .sort()
        .at(-1)!,
    );
    const bytes = readFileSync(log);
    const last = parseLog(bytes, log).payloads.at(-1)!;
    const at = last.byteOffset - bytes.byteOffset - 8;
    const unknown = frameRecord(Buffer.from(last.toString().replace('"k":"order"', '"k":"orde_"')));
    const fd = openSync(log, 'r+');
    writeSync(fd, unknown, 0, unknown.length, at);
    closeSync(fd);

    const live = app.ctx.world;
    app.ctx.operationLog!.useIo(full);
    const refused = await call(app, 'POST', '/v1/orders', bid(two!));
    expect([refused.status, refused.body.code]).toEqual([503, 'STATE_ROLLBACK_FAILED']);
    expect(refused.body.message).toContain('the log holds an operation this mock does not know (orde_)');
    expect(app.ctx.world).toBe(live);
    expect(checkInvariants(app.ctx.world).ok).toBe(true);
    expect(app.ctx.world.orders.size).toBe(2);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('nor roll its world back'));
    expect((await call(app, 'GET', '/v1/orders', { token })).body.total_count).toBe(2);
    expect((await call(app, 'POST', '/__mock/process')).status).toBe(503);
  });
});
