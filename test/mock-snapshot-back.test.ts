/**
 * A named snapshot loads at its saved time: save → advance 30 days → load is the saved world on the saved day, the
 * clock back with it (a running clock runs on from there), in memory, through the library, and with a --state folder
 * across a kill -9 and a clean stop right after the load. What a client got after the save is gone as after a reset;
 * no order id is issued twice. `keep_clock` keeps the old bringing forward. A load refused (its base cannot be
 * written) leaves world and clock where they were. The start lines say where the world was restored from.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import type { MockOptions } from '../mock-server/context.js';
import { describeMock } from '../mock-server/describe.js';
import { createMarketplace } from '../mock-server/library/index.js';
import { serializeState } from '../mock-server/world/persistence.js';
import { aliceToken, call, DAY, makeApp, plainListings, START, tokenFor } from './engine-fixture.js';
import { testMockApp } from './helpers/mock.js';

const START_TEXT = '2026-03-02 12:00:00 +0000';
const open: MockApp[] = [];
afterEach(async () => {
  for (const a of open.splice(0)) await a.close?.().catch(() => undefined);
});

const folder = (): string => join(mkdtempSync(join(tmpdir(), 'mkt-snap-back-')), 'world');

function app(opts: Partial<MockOptions> = {}): MockApp {
  const a = makeApp({ listings: 60, autoApprove: ['alice'], ...opts });
  open.push(a);
  return a;
}

/** What a kill -9 leaves: nothing more written, the folder let go. */
function crash(a: MockApp): void {
  a.ctx.engine.abandon();
  open.splice(open.indexOf(a), 1);
}

async function stop(a: MockApp): Promise<void> {
  await a.close?.();
  open.splice(open.indexOf(a), 1);
}

/** The whole world and its time as a state file holds them: equal texts, byte-equal worlds at the same instant. */
const digest = (a: MockApp): string => {
  a.ctx.engine.settle();
  return serializeState(a.ctx.world, a.ctx.clock.now());
};

async function save(a: MockApp, name: string): Promise<void> {
  expect((await call(a, 'POST', '/__mock/snapshots', { body: { name, replace: true } })).status).toBe(200);
}

async function advance(a: MockApp, by: string): Promise<void> {
  expect((await call(a, 'POST', '/__mock/clock', { body: { advance: by } })).status).toBe(200);
}

async function load(a: MockApp, name: string, body?: unknown) {
  const res = await call(a, 'POST', `/__mock/snapshots/${name}/load`, body === undefined ? {} : { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Places one 25.00 order for alice on a listing open now; its order_id. */
async function place(a: MockApp): Promise<string> {
  const token = await aliceToken(a);
  const listing = plainListings(a, 0)[0]!.listing_number;
  const res = await call(a, 'POST', '/v1/orders', { token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.order_id as string;
}

describe('a snapshot loads at its saved time', () => {
  test('save, advance 30 days, load: the clock and the world are back at the saved time, byte for byte', async () => {
    const a = app();
    await save(a, 'day0');
    const saved = digest(a);
    await advance(a, '30d');
    expect(a.ctx.clock.now()).toBe(START + 30 * DAY);
    expect(digest(a)).not.toBe(saved);
    expect(await load(a, 'day0')).toMatchObject({ loaded: 'day0', saved_now: START_TEXT, now: START_TEXT, kept_clock: false });
    expect(a.ctx.clock.now()).toBe(START);
    expect(a.ctx.world.engine.lastTick).toBeLessThanOrEqual(START);
    expect(digest(a)).toBe(saved);
    const state = await call(a, 'GET', '/__mock/state');
    expect(state.body).toMatchObject({ now: START_TEXT, invariants: { ok: true } });
  });

  test('the market moves from the loaded world as it did the first time: 30 days again give the same world', async () => {
    const a = app();
    await save(a, 'day0');
    await advance(a, '30d');
    const first = digest(a);
    await load(a, 'day0');
    await advance(a, '30d');
    expect(digest(a)).toBe(first);
  });

  test('a running clock runs on from the saved time', async () => {
    let real = START;
    const a = testMockApp({ seed: 7, listings: 60, start: START, frozen: false }, () => real);
    open.push(a);
    real += 5_000;
    await save(a, 'early');
    const savedAt = START + 5_000;
    await advance(a, '30d');
    real += 60_000;
    await load(a, 'early');
    expect(a.ctx.clock.now()).toBe(savedAt);
    real += 7_000;
    expect(a.ctx.clock.now()).toBe(savedAt + 7_000);
  });

  test('a token granted after the save is unknown after the load; one granted before it is valid again', async () => {
    const a = app();
    const before = await aliceToken(a);
    await save(a, 'day0');
    await advance(a, '1d');
    // Past its hour: the token granted before the save has expired on the moved clock.
    expect((await call(a, 'GET', '/v1/accounts/platform', { token: before })).status).toBe(401);
    const after = await aliceToken(a);
    expect((await call(a, 'GET', '/v1/accounts/platform', { token: after })).status).toBe(200);
    await load(a, 'day0');
    expect((await call(a, 'GET', '/v1/accounts/platform', { token: before })).status).toBe(200);
    const unknown = await call(a, 'GET', '/v1/accounts/platform', { token: after });
    expect(unknown.status).toBe(401);
  });

  test('keep_clock: the clock stays 30 days on and the saved world is brought forward to it', async () => {
    const a = app();
    await save(a, 'day0');
    const saved = digest(a);
    await advance(a, '30d');
    expect(await load(a, 'day0', { keep_clock: true })).toMatchObject({
      saved_now: START_TEXT,
      now: '2026-04-01 12:00:00 +0000',
      kept_clock: true,
    });
    expect(a.ctx.clock.now()).toBe(START + 30 * DAY);
    expect(a.ctx.world.engine.lastTick).toBe(START + 30 * DAY);
    expect(digest(a)).not.toBe(saved);
  });

  test('a body other than {"keep_clock": true|false} is 400 naming what is wrong, and nothing is loaded', async () => {
    const a = app();
    await save(a, 'day0');
    await advance(a, '2d');
    const moved = digest(a);
    for (const [body, says] of [
      [{ keep_clock: 'yes' }, /keep_clock: must be true or false, got "yes"/],
      [{ keepClock: true }, /keepClock: is not a field of a load; the one field is keep_clock/],
      ['[]', /body: must be a JSON object/],
      ['{', /body: is not valid JSON/],
    ] as const) {
      const res = await call(a, 'POST', '/__mock/snapshots/day0/load', { body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VAL0001');
      expect(String(res.body.message)).toMatch(says);
      expect(digest(a)).toBe(moved);
    }
  });

  test('any other body is refused before anything is loaded (property): 200 only for {} or {"keep_clock": true|false}', async () => {
    const a = app();
    await save(a, 'day0');
    await advance(a, '1d');
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ keep_clock: fc.jsonValue() }),
      fc.record({ keep_clock: fc.boolean(), other: fc.jsonValue() }),
      fc.dictionary(fc.constantFrom('keep_clock', 'keepClock', 'replace', 'now'), fc.jsonValue()),
    );
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const world = a.ctx.world;
        const now = a.ctx.clock.now();
        const res = await call(a, 'POST', '/__mock/snapshots/day0/load', { body: JSON.stringify(value) });
        const fine =
          value !== null
          && typeof value === 'object'
          && !Array.isArray(value)
          && Object.keys(value).every((k) => k === 'keep_clock')
          && (value.keep_clock === undefined || typeof value.keep_clock === 'boolean');
        if (fine) {
          expect(res.status).toBe(200);
          expect(a.ctx.world).not.toBe(world);
          // Back to 1 day on, for the next run: keep_clock or not, the load left the clock at or after the save.
          await advance(a, '1d');
        } else {
          expect(res.status, JSON.stringify(value)).toBe(400);
          expect(res.body.code).toBe('VAL0001');
          expect(a.ctx.world).toBe(world);
          expect(a.ctx.clock.now()).toBe(now);
        }
      }),
      { numRuns: 40 },
    );
  });

  test('through the library: snapshots.load puts the clock back; { keepClock: true } keeps it', async () => {
    const market = createMarketplace({
      seed: 7,
      listings: 60,
      frozen: true,
      start: START,
      checkAnswers: process.env.MKT_MOCK_CHECK_ANSWERS!,
    });
    try {
      await market.snapshots.save('day0');
      await market.clock.advance('30d');
      const loaded = await market.snapshots.load('day0');
      expect(loaded).toEqual({ loaded: 'day0', saved_now: START_TEXT, now: START_TEXT, listings: expect.any(Number), kept_clock: false });
      expect(market.clock.now().getTime()).toBe(START);
      await market.clock.advance('30d');
      const kept = await market.snapshots.load('day0', { keepClock: true });
      expect(kept).toMatchObject({ saved_now: START_TEXT, now: '2026-04-01 12:00:00 +0000', kept_clock: true });
      expect(market.clock.now().getTime()).toBe(START + 30 * DAY);
    } finally {
      await market.close();
    }
  });
});

describe('with --state', () => {
  test('a kill -9 right after the load, and a clean stop after it, both come back to the saved-time world', async () => {
    const dir = folder();
    let a = app({ stateFile: dir });
    await save(a, 'day0');
    const saved = digest(a);
    await advance(a, '30d');
    await place(a);
    await load(a, 'day0');
    crash(a);

    a = app({ stateFile: dir });
    expect(a.ctx.clock.now()).toBe(START);
    expect(digest(a)).toBe(saved);
    await stop(a);
    a = app({ stateFile: dir });
    expect(a.ctx.clock.now()).toBe(START);
    expect(digest(a)).toBe(saved);
  });

  test('an order placed after the load gets an id never given before, and keeps it across a kill -9', async () => {
    const dir = folder();
    let a = app({ stateFile: dir });
    await save(a, 'day0');
    const ids = [await place(a)];
    await advance(a, '30d');
    ids.push(await place(a));
    await load(a, 'day0');
    // The same instant as the first order, the same world it was placed in: the id must still be new.
    ids.push(await place(a));
    expect(new Set(ids).size).toBe(3);
    const expected = digest(a);
    crash(a);
    a = app({ stateFile: dir });
    expect(digest(a)).toBe(expected);
    expect([...a.ctx.world.orders.keys()]).toEqual([ids[2]]);
    ids.push(await place(a));
    await load(a, 'day0');
    ids.push(await place(a));
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('an order and a load under way together, at each step of either: after a kill -9 the world is the loaded one, with the order only if it came after, and its id is never issued again', async () => {
    /** Event-loop turns until `done` holds (bounded). */
    const until = async (done: () => boolean): Promise<void> => {
      for (let i = 0; i < 100_000 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
      expect(done()).toBe(true);
    };
    type Step = 'sent' | 'applied' | 'answered';
    for (const first of ['order', 'load'] as const) {
      for (const step of ['sent', 'applied', 'answered'] as Step[]) {
        const dir = folder();
        let a = app({ stateFile: dir });
        // A token and a listing good in both worlds: the saved one and the one a day on.
        const token = tokenFor(a, 'alice-1');
        const listing = plainListings(a, 3 * DAY)[0]!.listing_number;
        await save(a, 'day0');
        await advance(a, '1d');
        const world = a.ctx.world;
        const orders = world.orders.size;
        let answered = false;
        const order = () => call(a, 'POST', '/v1/orders', { token, body: { bid_requests: [{ listing_id: listing, bid_amount: 25 }] } });
        const load = () => call(a, 'POST', '/__mock/snapshots/day0/load');
        const one = (first === 'order' ? order() : load()).finally(() => (answered = true));
        // The second is sent once the first has reached `step`: sent only, applied (its answer waiting on the disk), or answered.
        if (step === 'applied') await until(() => (first === 'order' ? world.orders.size > orders : a.ctx.world !== world));
        if (step === 'answered') await until(() => answered);
        const two = first === 'order' ? load() : order();
        const [placed, loaded] = first === 'order' ? [await one, await two] : [await two, await one];
        expect(loaded.status).toBe(200);
        expect(placed.status, JSON.stringify(placed.body)).toBe(200);
        const id = placed.body.order_id as string;
        crash(a);
        a = app({ stateFile: dir });
        expect(a.ctx.clock.now()).toBe(START);
        const kept = [...a.ctx.world.orders.keys()];
        // Placed after the load: acknowledged, so kept; placed before it: gone with the world it was placed in.
        expect(kept).toEqual(kept.includes(id) ? [id] : []);
        if (step !== 'sent') expect(kept.includes(id), `${first} ${step}`).toBe(first === 'load');
        expect(await place(a)).not.toBe(id);
        await stop(a);
      }
    }
  });

  test('a load refused with 503 (its new base cannot be begun) leaves the world and the clock 30 days on, as the folder holds them', async () => {
    const dir = folder();
    let a = app({ stateFile: dir });
    await save(a, 'day0');
    await advance(a, '30d');
    const moved = digest(a);
    // Where the next log would go: the disk refuses it, so the clock must not stay back with the world put back.
    const next = `world-${String(readdirSync(dir).filter((n) => n.endsWith('.log')).length + 1).padStart(6, '0')}.log`;
    mkdirSync(join(dir, next));
    const refused = await call(a, 'POST', '/__mock/snapshots/day0/load');
    expect(refused.status).toBe(503);
    expect(a.ctx.clock.now()).toBe(START + 30 * DAY);
    expect(digest(a)).toBe(moved);
    crash(a);
    rmdirSync(join(dir, next));
    a = app({ stateFile: dir });
    expect(a.ctx.clock.now()).toBe(START + 30 * DAY);
    expect(digest(a)).toBe(moved);
  });

  test('the start lines say where the world came from: a new folder, restored from DIR, restored from a snapshot', async () => {
    const dir = folder();
    let a = app({ stateFile: dir });
    expect(describeMock(a, 'http://127.0.0.1:4010')).toContain(`  state kept in ${dir} (new: the world seeded)\n`);
    await save(a, 'day0');
    await advance(a, '3d');
    await place(a);
    crash(a);
    a = app({ stateFile: dir });
    expect(describeMock(a, 'http://127.0.0.1:4010')).toMatch(
      new RegExp(`^  restored from ${dir}: the world it kept \\(\\d+ operations? replayed after its base\\)$`, 'm'),
    );
    await stop(a);
    // A clean stop wrote the world as the base: nothing to replay.
    a = app({ stateFile: dir });
    expect(describeMock(a, 'http://127.0.0.1:4010')).toContain(`  restored from ${dir}: the world it kept\n`);
    await stop(a);
    a = app({ stateFile: dir, fromSnapshot: 'day0' });
    expect(a.ctx.clock.now()).toBe(START);
    expect(describeMock(a, 'http://127.0.0.1:4010')).toContain(
      `  restored from snapshot day0 (${join(dir, 'snapshots', 'day0.snapshot')}): the world and the clock as saved at 2026-03-02T12:00:00.000Z; kept in ${dir}\n`,
    );
    // Without --state there is nothing to say.
    expect(describeMock(app(), 'http://127.0.0.1:4010')).not.toMatch(/restored|state kept/);
  });
});
