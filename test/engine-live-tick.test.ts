/** Market ticks touch only what a tick can change: an ended listing is not looked at hour after hour. */
import { describe, expect, it } from 'vitest';
import { TEST_START, testMockApp } from './helpers/mock.js';

describe('market ticks', () => {
  it('stop reading an ended listing once a tick has passed it', () => {
    const app = testMockApp({ seed: 7, listings: 200, frozen: true, start: TEST_START });
    const world = app.ctx.world;
    const index = world.listings.findIndex((l) => l.listing_status === 6);
    const ended = world.listings[index]!;
    let reads = 0;
    world.listings[index] = new Proxy(ended, {
      get(target, key, receiver) {
        if (key === 'listing_status') reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    app.ctx.clock.advance(3_600_000);
    const afterFirst = reads;
    app.ctx.clock.advance(48 * 3_600_000);
    expect(afterFirst).toBeGreaterThan(0);
    expect(reads).toBe(afterFirst);
  });
});
