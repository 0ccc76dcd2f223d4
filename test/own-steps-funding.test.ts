/**
 * Simulated funding as formulas (mock-server/engine/own-steps.ts): what the hourly walk places hour by
 * hour is what the timeline places for a stretch at once, and the hour the timeline works out for an
 * amount is the first hour the walk reaches it, for any pace, start, stretch and amount.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fundedAfter, fundingAt, hourOfLots, lotsBy, lotsToFill } from '../mock-server/engine/own-steps.js';

/** A pace as fundingPace gives: 2,000 to 35,000 at appetite 0.8 to 2.2, in lots an hour. */
const pace = fc.double({ min: (2000 * 0.8) / 336 / 25, max: (35000 * 2.2) / 336 / 25, noNaN: true });
/** Hours since the epoch, as the market's are. */
const hour = fc.integer({ min: 0, max: 600_000 });
/** Amounts in cents, as investors' bids leave them. */
const amount = fc.integer({ min: 1, max: 3_500_000 }).map((c) => c / 100);

describe('simulated funding', () => {
  test('hourOfLots is the first hour at which the lots placed reach the number asked', () => {
    fc.assert(
      fc.property(pace, hour, fc.integer({ min: 1, max: 3000 }), (p, start, lots) => {
        const h = hourOfLots(p, start, lots);
        expect(lotsBy(p, start, h)).toBeGreaterThanOrEqual(lots);
        expect(h - 1 <= start || lotsBy(p, start, h - 1) < lots).toBe(true);
      }),
      {
        numRuns: 2000,
        // Paces whose division rounds the hour one off: 145 / 0.29 comes out above 500 (one hour late), 0.29 × 100 below 29 (one early).
        examples: [
          [0.29, 0, 145],
          [0.29, 0, 29],
          [0.29, 123_456, 145],
        ],
      },
    );
  });

  test('the lots of a stretch placed hour by hour fund a listing as they do placed at once, and fill it at hourOfLots', () => {
    fc.assert(
      fc.property(
        pace,
        hour,
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 400 }),
        amount,
        amount,
        (p, start, skip, span, total, part) => {
          const from = start + skip;
          const funded0 = Math.min(part, total);
          // The walk: each hour's lots, capped at what remains; the hour of the last change.
          let walked = funded0;
          let lastChange = -1;
          for (let h = from + 1; h <= from + span; h++) {
            const placed = fundingAt(p, start, h, Math.round((total - walked) * 100) / 100);
            if (placed > 0 && walked < total) {
              walked = fundedAfter(total, walked, placed);
              lastChange = h;
            }
          }
          // At once: the lots of the stretch, and the hour of the lot that filled it or of the last one placed.
          const lots = lotsBy(p, start, from + span) - lotsBy(p, start, from);
          const atOnce = lots > 0 && funded0 < total ? fundedAfter(total, funded0, 25 * lots) : funded0;
          expect(atOnce).toBe(walked);
          if (lots > 0 && funded0 < total) {
            expect(hourOfLots(p, start, lotsBy(p, start, from) + Math.min(lots, lotsToFill(total - funded0)))).toBe(lastChange);
          } else {
            expect(lastChange).toBe(-1);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  test('lotsToFill is the fewest lots of 25.00 that cover what remains of a listing, in cents', () => {
    fc.assert(
      fc.property(amount, amount, (a, b) => {
        const [total, funded] = a > b ? [a, b] : [b, a];
        if (total === funded) return;
        // What remains as the engine computes it (a difference of two amounts: 2000 - 1950.01 is not 49.99 in binary).
        const n = lotsToFill(total - funded);
        const remaining = Math.round(total * 100) - Math.round(funded * 100);
        expect(n * 2500).toBeGreaterThanOrEqual(remaining);
        expect((n - 1) * 2500).toBeLessThan(remaining);
        // 32.02 - 7.02 is 25.000000000000004: one lot, not two.
      }),
      { numRuns: 2000, examples: [[32.02, 7.02]] },
    );
  });
});
