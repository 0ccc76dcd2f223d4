// The warm-up rule of the bench's orders section (bench/orders.js): its order client is sent orders in 250 ms windows
// until its rate has stopped rising, so that no counted window is taken on the client's own warm-up slope.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { steady } from '../bench/orders.js';

describe('steady', () => {
  it('stops a ramp like the one measured only once four windows add nothing to the best before them', () => {
    // One client's orders a second, window by window, from a run of the bench on 2026-11-30.
    const ramp = [642, 700, 724, 720, 766, 770, 875, 938, 1046, 1229, 1371, 1569, 1438, 1644, 1522, 1737, 1781, 1711, 1728, 1750];
    const stop = ramp.findIndex((_, k) => steady(ramp.slice(0, k + 1)));
    // At 20 windows the last four (1781, 1711, 1728, 1750) are within 5% of 1737, the best of the 16 before them; at 19,
    // 1781 is more than 5% over 1644, the best of the 15 before those four.
    expect(stop).toBe(19);
  });

  it('never stops before eight windows, even when the rate is flat from the first', () => {
    for (let k = 1; k < 8; k++) expect(steady(Array.from({ length: k }, () => 1000))).toBe(false);
    expect(steady(Array.from({ length: 8 }, () => 1000))).toBe(true);
  });

  it('never stops while each window is more than 5% faster than the one before', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 5000 }),
        fc.integer({ min: 8, max: 40 }),
        fc.double({ min: 1.06, max: 2, noNaN: true }),
        (first, n, step) => {
          const rates = Array.from({ length: n }, (_, k) => first * step ** k);
          return !steady(rates);
        },
      ),
    );
  });

  it('does not stop while any one of the last four windows is more than 5% faster than the best before them', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 100, max: 5000 }), { minLength: 4, maxLength: 30 }),
        fc.array(fc.double({ min: 0, max: 1.05, noNaN: true }), { minLength: 3, maxLength: 3 }),
        fc.double({ min: 1.051, max: 2, noNaN: true }),
        fc.integer({ min: 0, max: 3 }),
        (before, shares, faster, at) => {
          const peak = Math.max(...before);
          const last = shares.map((x) => x * peak);
          last.splice(at, 0, faster * peak);
          return !steady([...before, ...last]);
        },
      ),
    );
  });

  it('stops once four windows after a rise are no faster than 5% over its peak', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 100, max: 5000 }), { minLength: 4, maxLength: 30 }),
        fc.array(fc.double({ min: 0, max: 1.05, noNaN: true }), { minLength: 4, maxLength: 4 }),
        (before, shares) => {
          const peak = Math.max(...before);
          return steady([...before, ...shares.map((s) => s * peak)]);
        },
      ),
    );
  });
});
