/**
 * Order ids are never drawn twice within a state folder (or one mock's memory), across snapshot
 * loads and resets. An id is drawn from the seed, the order's number and the time; with a frozen clock
 * a loaded world (or a reset one) numbered its next order as the world before had, at the same time,
 * and issued the same order_id again for another order. A restart (kill -9 or clean) keeps the ids
 * acknowledged and goes on numbering after them.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { serializeState } from '../mock-server/world/persistence.js';
import { aliceToken, call, makeApp, plainListings } from './engine-fixture.js';

const open: MockApp[] = [];
afterEach(async () => {
  for (const a of open.splice(0)) await a.close?.().catch(() => undefined);
});

const folder = (): string => join(mkdtempSync(join(tmpdir(), 'mkt-order-ids-')), 'world');

function app(dir?: string): MockApp {
  const a = makeApp({ ...(dir ? { stateFile: dir } : {}), listings: 60, autoApprove: ['alice'] });
  open.push(a);
  return a;
}

function crash(a: MockApp): void {
  a.ctx.engine.abandon();
  open.splice(open.indexOf(a), 1);
}

async function stop(a: MockApp): Promise<void> {
  await a.close?.();
  open.splice(open.indexOf(a), 1);
}

/** Places one 25.00 order for alice; its order_id. */
async function place(a: MockApp): Promise<string> {
  const token = await aliceToken(a);
  const listing = plainListings(a, 0)[0]!.listing_number;
  const res = await call(a, 'POST', '/v1/orders', { token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } });
  expect(res.status).toBe(200);
  return res.body.order_id as string;
}

async function save(a: MockApp, name: string): Promise<void> {
  expect((await call(a, 'POST', '/__mock/snapshots', { body: { name, replace: true } })).status).toBe(200);
}

async function load(a: MockApp, name: string): Promise<void> {
  expect((await call(a, 'POST', `/__mock/snapshots/${name}/load`)).status).toBe(200);
}

const digest = (a: MockApp): string => {
  a.ctx.engine.settle();
  return serializeState(a.ctx.world, a.ctx.clock.now());
};

describe('order ids with a frozen clock', () => {
  test('save, order, load, order: two ids; again after a kill -9 and after a clean stop, and the ids acknowledged stay', async () => {
    const dir = folder();
    let a = app(dir);
    await save(a, 'before');
    const ids = [await place(a)];
    await load(a, 'before');
    ids.push(await place(a));
    expect(new Set(ids).size).toBe(2);

    // kill -9: replayed from the loaded base, the order placed after the load keeps its id, and the next one is new.
    const expected = digest(a);
    crash(a);
    a = app(dir);
    expect(digest(a)).toBe(expected);
    expect([...a.ctx.world.orders.keys()]).toEqual([ids[1]]);
    await load(a, 'before');
    ids.push(await place(a));

    // A clean stop writes the world as a base: the numbering goes on from there too.
    await stop(a);
    a = app(dir);
    await load(a, 'before');
    ids.push(await place(a));
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('order, reset, order: two ids, and the second is the same after a kill -9', async () => {
    const dir = folder();
    let a = app(dir);
    const ids = [await place(a)];
    expect((await call(a, 'POST', '/__mock/reset')).status).toBe(200);
    ids.push(await place(a));
    expect(new Set(ids).size).toBe(2);
    crash(a);
    a = app(dir);
    expect([...a.ctx.world.orders.keys()]).toEqual([ids[1]]);
    expect((await call(a, 'POST', '/__mock/reset')).status).toBe(200);
    ids.push(await place(a));
    expect(new Set(ids).size).toBe(3);
  });

  test('without --state too: save, order, load, order gives two ids', async () => {
    const a = app();
    await save(a, 'before');
    const first = await place(a);
    await load(a, 'before');
    expect(await place(a)).not.toBe(first);
  });

  test('a reset or load refused with 503 (its new log cannot be begun) leaves the numbering as it was: an order after it keeps its id across a kill -9', async () => {
    const dir = folder();
    let a = app(dir);
    await save(a, 'before');
    const ids = [await place(a)];
    // Where the next log would go: the disk refuses it, so the world and its numbering stay.
    const next = `world-${String(readdirSync(dir).filter((n) => n.endsWith('.log')).length + 1).padStart(6, '0')}.log`;
    mkdirSync(join(dir, next));
    expect((await call(a, 'POST', '/__mock/reset')).status).toBe(503);
    expect((await call(a, 'POST', '/__mock/snapshots/before/load')).status).toBe(503);
    ids.push(await place(a));
    crash(a);
    rmdirSync(join(dir, next));
    a = app(dir);
    expect([...a.ctx.world.orders.keys()]).toEqual(ids);
  });
});
