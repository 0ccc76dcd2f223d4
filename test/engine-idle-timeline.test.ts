/**
 * A listening mock builds the market timeline its next tick begins with while it is idle, a slice per
 * turn of the event loop (engine.ts: prepareIdle), so that a clock move need not wait for it; after a
 * reset it builds the new world's. What the world then does is what it would have done without.
 */
import { describe, expect, test } from 'vitest';
import type { World } from '../mock-server/world/world.js';
import { startMock, testMockApp, TEST_START } from './helpers/mock.js';

/** Turns of the event loop until the world's timeline holds every listing (at most `limit`). */
async function turnsUntilBuilt(world: () => World, limit = 200): Promise<number> {
  for (let turns = 0; turns < limit; turns++) {
    const tl = world().index.timeline;
    if (tl && tl.listingsSeen === world().listings.length) return turns;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return Infinity;
}

const LISTINGS = 12_000;

/** The market's part of a world (a served mock also holds the test's token). */
const market = (s: World) => JSON.stringify([s.listings, [...s.loans.values()], s.notes, s.counters, s.engine]);

describe('the idle timeline build', () => {
  test("builds the next tick's timeline in slices while idle, and the clock then moves the world as it would have", async () => {
    const mock = await startMock({ listings: LISTINGS });
    try {
      const world = () => mock.app.ctx.world;
      const before = market(world());
      // More than one slice of listings: built over several turns of the event loop.
      const turns = await turnsUntilBuilt(world);
      expect(turns).toBeGreaterThan(1);
      expect(turns).toBeLessThan(200);
      const tl = world().index.timeline!;
      expect(tl.hour).toBe(world().engine.lastTick / 3_600_000);
      expect(tl.liveCount).toBeGreaterThan(LISTINGS / 2);
      // Building it read the world and changed nothing in it.
      expect(market(world())).toBe(before);

      const moved = await fetch(`${mock.origin}/__mock/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"advance":"3d"}',
      });
      expect(moved.status).toBe(200);
      // The same world moved by an engine that never built early (no server: no idle build).
      const plain = testMockApp({ seed: 7, listings: LISTINGS, frozen: true, start: TEST_START });
      try {
        expect(plain.ctx.world.index.timeline).toBeNull();
        await plain.ctx.engine.moveClock((now) => now + 3 * 86_400_000);
        expect(plain.ctx.clock.now()).toBe(mock.app.ctx.clock.now());
        // Read as a route reads: the listings' columns brought up first (after a move a reader or the idle work does it).
        for (const app of [mock.app, plain]) app.ctx.engine.settle();
        expect(market(world())).toBe(market(plain.ctx.world));
      } finally {
        await plain.close?.();
      }
    } finally {
      await mock.close();
    }
  });

  test("builds the new world's after a reset", async () => {
    const mock = await startMock({ listings: 2_000 });
    try {
      const world = () => mock.app.ctx.world;
      expect(await turnsUntilBuilt(world)).toBeLessThan(200);
      const reset = await fetch(`${mock.origin}/__mock/reset`, { method: 'POST' });
      expect(reset.status).toBe(200);
      const fresh = world();
      expect(await turnsUntilBuilt(world)).toBeLessThan(200);
      expect(fresh.index.timeline!.liveCount).toBeGreaterThan(1_000);
    } finally {
      await mock.close();
    }
  });
});
