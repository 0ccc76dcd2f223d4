/**
 * Settling a slice at a time (engine/settle.ts `settleSome`, the engine's idle work after a clock move): it goes on
 * from where the last slice stopped, begins again when a tick has come between two slices, and leaves every
 * listing's columns as settling the world in one go (`settleWorld`) does.
 */
import { expect, test } from 'vitest';
import { settleSome, settleWorld } from '../mock-server/engine/settle.js';
import { originationTime } from '../mock-server/engine/own-steps.js';
import { serializeState } from '../mock-server/world/persistence.js';
import { AT, EVENT_ROW, LOT_AT, PENDING_AT } from '../mock-server/world/derived.js';
import { LISTING_STATUS } from '../src/contract/enums.js';
import { DAY, HOUR, makeApp } from './engine-fixture.js';

test('slices from where the last stopped, begin again after a tick, and end where settling in one go ends', async () => {
  const sliced = makeApp({ listings: 600 });
  const whole = makeApp({ listings: 600 });
  for (const app of [sliced, whole]) await app.ctx.engine.moveClock((now) => now + 4 * DAY);
  const world = sliced.ctx.world;
  const tl = world.index.timeline!;
  // A move leaves the columns to its readers.
  expect(tl.settled).toBeLessThan(tl.hour);
  const text = serializeState(world, sliced.ctx.clock.now());
  expect(settleSome(world, 100)).toBe(false);
  expect(tl.settleNext).toBe(tl.firstLive + 100);
  expect(settleSome(world, 100)).toBe(false);
  expect(tl.settleNext).toBe(tl.firstLive + 200);
  // Settling changed what a reader sees (funding placed since the rows were last visited).
  expect(serializeState(world, sliced.ctx.clock.now())).not.toBe(text);
  // A tick between two slices: the pass begins again, for the new hour.
  for (const app of [sliced, whole]) await app.ctx.engine.moveClock((now) => now + 2 * HOUR);
  expect(tl.settling).toBeLessThan(tl.hour);
  let slices = 0;
  while (!settleSome(world, 100)) slices++;
  expect(slices).toBeGreaterThan(2);
  expect(tl.settled).toBe(tl.hour);
  expect(settleSome(world, 100)).toBe(true);
  settleWorld(whole.ctx.world);
  expect(serializeState(world, sliced.ctx.clock.now())).toBe(serializeState(whole.ctx.world, whole.ctx.clock.now()));
});

test('a listing its own steps make Pending is queued at its origination, and reads Pending from that hour on, as the hourly visit made it', async () => {
  const app = makeApp({ listings: 800 });
  await app.ctx.engine.moveClock((now) => now + DAY);
  const world = app.ctx.world;
  const tl = world.index.timeline!;
  const ev = tl.listings;
  const waiting: number[] = [];
  for (let r = 0; r < world.listings.length; r++) {
    const x = EVENT_ROW * r;
    if (ev.live[r] !== 1 || !(ev.f[x + PENDING_AT]! < Infinity)) continue;
    const l = world.listings[r]!;
    const at = ev.f[x + PENDING_AT]! * HOUR;
    // No visit at the hour it goes Pending: its place is its origination's.
    expect(ev.f[x + AT]).toBe(
      Math.max(tl.hour + 1, Math.ceil(originationTime(world.seed, l.listing_number, l.listing_start_date, at) / HOUR)),
    );
    expect(ev.f[x + LOT_AT]).toBeLessThanOrEqual(ev.f[x + PENDING_AT]!);
    waiting.push(r);
  }
  expect(waiting.length).toBeGreaterThan(5);
  // Past its hour, a reader sees it Pending since then, with the origination time the visit would have drawn.
  const pendingAt = new Map(waiting.map((r) => [r, ev.f[EVENT_ROW * r + PENDING_AT]!]));
  await app.ctx.engine.moveClock((now) => now + 3 * DAY);
  app.ctx.engine.settle();
  const past = waiting.filter((r) => pendingAt.get(r)! <= tl.hour);
  expect(past.length).toBeGreaterThan(5);
  for (const r of past) {
    const l = world.listings[r]!;
    expect(l.listing_status === LISTING_STATUS.PENDING || l.loan_number !== null || l.listing_status === LISTING_STATUS.CANCELLED).toBe(
      true,
    );
    if (l.listing_status === LISTING_STATUS.PENDING) {
      expect(l.last_updated_date).toBe(pendingAt.get(r)! * HOUR);
      expect(l.originateAt).toBe(originationTime(world.seed, l.listing_number, l.listing_start_date, l.last_updated_date));
    }
  }
});
