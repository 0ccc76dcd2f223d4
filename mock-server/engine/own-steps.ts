/**
 * A live listing's own steps: the changes the market makes to one listing that depend on nothing but
 * that listing (a verification stage, the lots simulated investors place), as plain arithmetic on
 * its values. Simulated funding is a steady pace per listing, so what it has placed by any hour is a
 * formula (`lotsBy`), and so is the hour it reaches any amount (`hourOfLots`). The hourly walk
 * (market.ts) places each hour's lots; the timeline (timeline.ts) places a stretch of them at once
 * when someone reads the listing (settle.ts) and works out the hour the listing goes Pending
 * (`pendingHour`) and when it then originates (`originationTime`) without walking the hours between. The
 * same formulas for both, so the lazy world and the walked one are the same to the cent.
 */
import { cents } from '../kit/money.js';
import { firstDraw } from './rng-for.js';

/** Origination happens at most this long after the listing started. */
export const ORIGINATION_WINDOW_MS = 14 * 86_400_000;

/**
 * When listing `n` (started at `start`), Pending from `at`, originates: 6 to 72 whole hours later, the first draw of the
 * listing's own stream (as rngFor(…).int(6, 72) would give), and never after its origination window.
 */
export function originationTime(seed: number, n: number, start: number, at: number): number {
  const delay = (6 + Math.floor(firstDraw(seed, n, 0x0419) * 67)) * 3_600_000;
  return Math.max(at, Math.min(at + delay, start + ORIGINATION_WINDOW_MS));
}

/** A listing of average appetite fills in this many hours of simulated funding (its 14 days). */
const HOURS_TO_FILL = 14 * 24;
/** Simulated investors place money in lots of this much. */
const LOT = 25;

/**
 * How keen simulated investors are on a listing: a fixed factor per listing, 0.8 to 2.2. So about 5% of
 * listings end unfunded and about 9% never originate (withdrawn and cancelled ones too), as the 3% to 10% of
 * bids a month one investor saw expire (test/bid-expiry.test.ts); 0.3 to 1.7 before, which left a third unfunded.
 */
export function appetite(seed: number, n: number): number {
  return 0.8 + firstDraw(seed, n, 0xa99e) * 1.4;
}

/**
 * The pace at which simulated investors fund fractional listing `n` of `amount`: lots of 25.00 an hour,
 * so that a listing of appetite 1 fills in its 14 days (one of appetite 2.2 in about 6.4, one of 0.8 reaches
 * 80%).
 */
export function fundingPace(seed: number, n: number, amount: number): number {
  return (amount * appetite(seed, n)) / HOURS_TO_FILL / LOT;
}

/** The lots simulated investors have placed, at `pace`, on a listing that started at hour `start`, by hour `h`: a whole lot each time the pace completes one. */
export function lotsBy(pace: number, start: number, h: number): number {
  return h <= start ? 0 : Math.floor(pace * (h - start));
}

/** The first hour after `after` at which funding at `pace` from hour `start` completes a lot. */
export function lotAfter(pace: number, start: number, after: number): number {
  return hourOfLots(pace, start, lotsBy(pace, start, after) + 1);
}

/** The first hour at which `lotsBy(pace, start, ·)` reaches `lots` (at least 1). */
export function hourOfLots(pace: number, start: number, lots: number): number {
  let h = start + Math.ceil(lots / pace);
  // The division's rounding may put h an hour off either way: lotsBy decides.
  while (h - 1 > start && lotsBy(pace, start, h - 1) >= lots) h--;
  while (lotsBy(pace, start, h) < lots) h++;
  return h;
}

/** The money simulated investors place at hour `h` (the lots completed in that hour, never more than `remaining`). */
export function fundingAt(pace: number, start: number, h: number, remaining: number): number {
  return Math.min(remaining, LOT * (lotsBy(pace, start, h) - lotsBy(pace, start, h - 1)));
}

/** The lots it takes to fund `remaining` (cents may leave part of the last lot unplaced). */
export function lotsToFill(remaining: number): number {
  return Math.ceil(Math.round(remaining * 100) / (LOT * 100));
}

/** What a listing of `total` has been funded after `amount` more is placed on `funded` (never above its total). */
export function fundedAfter(total: number, funded: number, amount: number): number {
  return cents(Math.min(total, funded + amount));
}

/** The percentage funded as the API shows it (four decimals of a fraction). */
export function percentFunded(funded: number, total: number): number {
  return Math.round((funded / total) * 10000) / 10000;
}

/** True when a listing inside its window may go Pending: three verification stages and funded in full. */
export function readyToOriginate(stage: number, funded: number, total: number): boolean {
  return stage >= 3 && funded >= total;
}
