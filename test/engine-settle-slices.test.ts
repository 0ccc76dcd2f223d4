/**
 * Settling a slice at a time (engine/settle.ts `settleSome`, the engine's idle work after a clock move): it goes on
 * from where the last slice stopped, begins again when a tick has come between two slices, and leaves every
 * listing's columns as settling the world in one go (`settleWorld`) does.
 */
import { expect, test } from 'vitest';
import { settleSome, settleWorld } from '../mock-server/engine/settle.js';
import { serializeState } from '../mock-server/world/persistence.js';
import { DAY, HOUR, makeApp } from './engine-fixture.js';

test('slices from where the last stopped, begin again after a tick, and end where settling in one go ends', async () => {
  const sliced = makeApp({ listings: 600 });
  const whole = makeApp({ listings: 600 });
  for (const app of [sliced, whole]) await app.ctx.engine.moveClock((now) => now + 4 * DAY);
  const store = sliced.ctx.store;
  const tl = store.index.timeline!;
  // A move leaves the columns to its readers.
  expect(tl.settled).toBeLessThan(tl.hour);
  const text = serializeState(store, sliced.ctx.clock.now());
  expect(settleSome(store, 100)).toBe(false);
  expect(tl.settleNext).toBe(tl.firstLive + 100);
  expect(settleSome(store, 100)).toBe(false);
  expect(tl.settleNext).toBe(tl.firstLive + 200);
  // Settling changed what a reader sees (funding placed since the rows were last visited).
  expect(serializeState(store, sliced.ctx.clock.now())).not.toBe(text);
  // A tick between two slices: the pass begins again, for the new hour.
  for (const app of [sliced, whole]) await app.ctx.engine.moveClock((now) => now + 2 * HOUR);
  expect(tl.settling).toBeLessThan(tl.hour);
  let slices = 0;
  while (!settleSome(store, 100)) slices++;
  expect(slices).toBeGreaterThan(2);
  expect(tl.settled).toBe(tl.hour);
  expect(settleSome(store, 100)).toBe(true);
  settleWorld(whole.ctx.store);
  expect(serializeState(store, sliced.ctx.clock.now())).toBe(serializeState(whole.ctx.store, whole.ctx.clock.now()));
});
