/**
 * An hour's arrivals (arrivals.ts) as plain arithmetic on the seed and the engine's terms: how many listings arrive at
 * an hour and from which stream (`hourArrivals`), each one's market fields (`drawArrival`), and the whole hour drawn
 * ahead into one array of numbers (`drawBatch`): each listing's market fields, where its stream stood, and its place
 * in the timeline (listing-place.ts). No world: another thread draws a clock move's releases ahead of the ticks
 * (arrivals-worker.ts), and a tick reads each listing back (`readArrival`) as it would have drawn it.
 */
import { LISTING_RATINGS } from '../../src/contract/enums.js';
import { isReleaseHour, RELEASE_DAYS_A_WEEK } from '../../src/contract/releases.js';
import type { Rng } from '../kit/rng.js';
import type { Listing } from '../world/world.js';
import { HOUR } from './event-hours.js';
import { activeAt, eventArrays, packPlace, PLACE_WIDTH, placeEvents } from './listing-place.js';
import { makeListing, marketFields } from './listing-maker.js';
import { firstDraw, rngFor } from './rng-for.js';

/** How fast listings arrive: the engine's rate and release times (world.engine holds them). */
export interface ArrivalRate {
  readonly arrivalsPerHour: number;
  readonly releases?: readonly number[];
}

/** What decides the arrivals of an hour: the world's seed and its engine's rate. */
export interface ArrivalTerms extends ArrivalRate {
  readonly seed: number;
}

/** The listings arriving at an hour: how many, the stream they are drawn from one after another, and whether at a release. */
export interface HourArrivals {
  readonly count: number;
  readonly rng: Rng;
  readonly released: boolean;
}

/**
 * The listings arriving in the tick at `t` (a whole hour) of a world of `seed`, none when null: every hour about
 * `arrivalsPerHour`, or, with release times, a week's worth split among the week's releases (weekdays), each at its
 * hour and none between.
 */
export function hourArrivals(seed: number, terms: ArrivalRate, t: number): HourArrivals | null {
  const releases = terms.releases;
  const released = releases !== undefined && releases.length > 0;
  if (released && !isReleaseHour(t, releases)) return null;
  const rng = rngFor(seed, t / HOUR);
  // A week's arrivals split among the week's releases (each time, Monday to Friday): the active number stays about steady.
  const rate = released ? (terms.arrivalsPerHour * 24 * 7) / (releases.length * RELEASE_DAYS_A_WEEK) : terms.arrivalsPerHour;
  const count = Math.floor(rate) + (rng.chance(rate - Math.floor(rate)) ? 1 : 0);
  return count === 0 ? null : { count, rng, released };
}

/** Listing `number`, arriving at `t`, drawn from `rng` into `into` (its market fields: makeListing's `marketOnly`). */
export function drawArrival(seed: number, rng: Rng, number: number, t: number, released: boolean, into: Listing): Listing {
  const start = released ? releasedAt(seed, number, t) : undefined;
  return arrived(makeListing(rng, number, t, t, number, into, true, start), t);
}

/**
 * When a listing released at `t` starts taking bids: 20 to 180 seconds after the hour, as the marketplace posts
 * a release's listings ("typically 20 - 180 seconds after the hour", cwalsh525/liveLongAndProsperBot README.md:12
 * at 8188c71), a whole second drawn from the listing's own stream. (Steady arrivals keep the 5 to 60 minutes the
 * listing's stream draws, as before release times.)
 */
function releasedAt(seed: number, number: number, t: number): number {
  return t + (20 + Math.floor(firstDraw(seed, number, 0x2e1ea5) * 161)) * 1000;
}

/** A listing drawn as arriving at `t`: active and unfunded, at the first verification stage. */
export function arrived(l: Listing, t: number): Listing {
  l.amount_funded = 0;
  l.amount_remaining = l.listing_amount;
  l.percent_funded = 0;
  l.verification_stage = 1;
  l.last_updated_date = t;
  return l;
}

/** Numbers before a batch's listings: the hour (epoch ms), the first listing's number, how many. */
export const BATCH_HEAD = 3;
/** Numbers a listing takes in a batch: its market fields, where its stream stood, then its place (listing-place.ts). */
const FIELDS = 8;
export const ARRIVAL_WIDTH = FIELDS + PLACE_WIDTH;

/**
 * The hour `t`'s arrivals, numbered from `number`, drawn and placed (from the next hour, as the tick's catch-up places
 * them: timeline.ts `placeArrived`) into one array: BATCH_HEAD numbers, then ARRIVAL_WIDTH a listing. Null when none arrive.
 */
export function drawBatch(terms: ArrivalTerms, t: number, number: number): Float64Array | null {
  const hour = hourArrivals(terms.seed, terms, t);
  if (!hour) return null;
  const { count, rng, released } = hour;
  const out = new Float64Array(BATCH_HEAD + count * ARRIVAL_WIDTH);
  out[0] = t;
  out[1] = number;
  out[2] = count;
  const ev = eventArrays(1);
  const l = {} as Listing;
  const from = t / HOUR + 1;
  for (let i = 0; i < count; i++) {
    const k = BATCH_HEAD + i * ARRIVAL_WIDTH;
    out[k + 7] = rng.state;
    drawArrival(terms.seed, rng, number + i, t, released, l);
    out[k] = l.listing_amount;
    out[k + 1] = l.partial_funding_indicator ? 1 : 0;
    out[k + 2] = l.investment_typeid;
    out[k + 3] = l.listing_term;
    out[k + 4] = l.borrower_rate;
    out[k + 5] = LISTING_RATINGS.indexOf(l.platform_rating as (typeof LISTING_RATINGS)[number]);
    out[k + 6] = l.listing_start_date;
    placeEvents(terms.seed, l, ev, 0, from);
    packPlace(ev, 0, activeAt(terms.seed, l, ev, 0, from), out, k + FIELDS);
  }
  return out;
}

/** Listing `i` of `batch` (drawBatch) into `into`, as drawArrival drew it; returns where its stream stood (its description is drawn from there). */
export function readArrival(batch: Float64Array, i: number, into: Listing): number {
  const k = BATCH_HEAD + i * ARRIVAL_WIDTH;
  const t = batch[0]!;
  const whole = batch[k + 2] === 2;
  marketFields(
    into,
    batch[1]! + i,
    batch[k]!,
    0,
    batch[k + 1] === 1,
    whole,
    batch[k + 3]!,
    batch[k + 4]!,
    LISTING_RATINGS[batch[k + 5]!]!,
    t,
    batch[k + 6]!,
  );
  arrived(into, t);
  return batch[k + 7]!;
}

/** Where listing `i`'s place starts in `batch` (listing-place.ts `takePlace` reads it). */
export function placeAt(i: number): number {
  return BATCH_HEAD + i * ARRIVAL_WIDTH + FIELDS;
}
