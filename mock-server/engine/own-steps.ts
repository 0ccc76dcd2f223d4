/**
 * A live listing's own steps: the changes the market makes to one listing that depend on nothing but
 * that listing (a verification stage, a funding step of simulated investors), as plain arithmetic on
 * its values. The hourly walk (market.ts) applies them at each firing; the timeline (timeline.ts)
 * applies a stretch of them at once when someone reads the listing (`settleThrough`), and looks
 * ahead with them for the hour the listing would go Pending (`pendingHour`). One code path for both,
 * so the lazy world and the walked one are the same to the cent.
 */
import { cents } from '../kit/money.js';
import { firstDraw, firstDraw3 } from './rng-for.js';

/** Chance per hour that simulated investors place a funding step on a fractional listing (timeline.ts draws the hours). */
export const FUND_CHANCE_PER_HOUR = 1 / 24;
/** A listing of average appetite fills in this many hours of funding steps (its 14 days). */
const HOURS_TO_FILL = 14 * 24;
/** Salt of the draw that sizes a funding step. */
const FUND_SIZE_SALT = 0xf5d5;

/** How keen simulated investors are on a listing: a fixed factor per listing, 0.3 to 1.7 (work it out once for a stretch of steps). */
export function appetite(seed: number, n: number): number {
  return 0.3 + firstDraw(seed, n, 0xa99e) * 1.4;
}

/**
 * The money simulated investors place on fractional listing `n` (of `amount`, `remaining` still open)
 * at hour `h`: a step in lots of 25, sized by the hour's draw so that a listing fills at its
 * appetite's pace (`keen`: its `appetite`), never more than is open.
 */
export function fundingStep(seed: number, n: number, keen: number, amount: number, remaining: number, h: number): number {
  const lots = Math.max(1, Math.round((amount * keen * (0.5 + firstDraw3(seed, n, FUND_SIZE_SALT, h))) / (HOURS_TO_FILL * FUND_CHANCE_PER_HOUR) / 25));
  return Math.min(remaining, lots * 25);
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
