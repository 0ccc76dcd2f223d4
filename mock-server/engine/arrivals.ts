/**
 * New active listings, about as many a day as keep the seeded number of active listings steady (a
 * 15-day clock move adds about as many as the world holds), released in batches at the marketplace's release
 * times (noon and 6 pm Eastern on weekdays by default, src/contract/releases.ts; each listing of a batch starts taking
 * bids 20 to 180 seconds after the hour) or every hour, drawn one after another
 * from the hour's stream. A listing arrives with the fields the market reads and writes (listing-table.ts MARKET_FIELDS)
 * and where the stream stood when it was drawn; its description (the borrower, the credit bureau's
 * values: most of its fields and bytes) is drawn again from there the first time anything reads it, or
 * between requests after a move (engine.ts). It reads the same either way, as it did when every listing
 * was written whole on arrival.
 */
import { isReleaseHour, RELEASE_DAYS_A_WEEK } from '../../src/contract/releases.js';
import { makeListing } from './listing-maker.js';
import { firstDraw, rngFor } from './rng-for.js';
import { Rng } from '../kit/rng.js';
import { describe, markDescribable } from '../world/listing-table.js';
import { addListing, addListingDescribedLater, type Listing, type World } from '../world/world.js';

/** The market's time step (an hour). */
const HOUR = 3_600_000;

/**
 * The listings arriving in the tick at `t` (a whole hour): every hour about `arrivalsPerHour`, or, with release
 * times (world.engine.releases), a week's worth split among the week's releases (weekdays), each at its hour
 * and none between.
 */
export function arrivals(world: World, t: number): void {
  const releases = world.engine.releases;
  const released = releases !== undefined && releases.length > 0;
  if (released && !isReleaseHour(t, releases)) return;
  const rng = rngFor(world.seed, t / HOUR);
  // A week's arrivals split among the week's releases (each time, Monday to Friday): the active number stays about steady.
  const rate = released ? (world.engine.arrivalsPerHour * 24 * 7) / (releases.length * RELEASE_DAYS_A_WEEK) : world.engine.arrivalsPerHour;
  const count = Math.floor(rate) + (rng.chance(rate - Math.floor(rate)) ? 1 : 0);
  if (count === 0) return;
  const describer = (i: number, drawnFrom: number): void => describeArrival(world, i, drawnFrom);
  for (let i = 0; i < count; i++) {
    const number = world.counters.listing++;
    const drawnFrom = rng.state;
    // Drawn into one scratch object, as the seed does: the world copies it into a row of its columns.
    const start = released ? releasedAt(world.seed, number, t) : undefined;
    const l = arrived(makeListing(rng, number, t, t, number, arriving, true, start), t);
    // The world's first arrival is added whole: every field of a drawn listing then has a column (a world loaded
    // from an older mock's file may lack one, which an awaiting row would read as undefined instead of describing).
    if (addListingDescribedLater(world, l, describer, drawnFrom)) continue;
    addListing(world, arrived(makeListing(Rng.resume(drawnFrom), number, t, t, number, undefined, false, start), t));
    markDescribable(world.listingTable);
  }
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
function arrived(l: Listing, t: number): Listing {
  l.amount_funded = 0;
  l.amount_remaining = l.listing_amount;
  l.percent_funded = 0;
  l.verification_stage = 1;
  l.last_updated_date = t;
  return l;
}

/** Writes the description of the arrived listing in row `i`, drawn again from where its hour's stream stood (its market fields stay as the market left them). */
function describeArrival(world: World, i: number, drawnFrom: number): void {
  const row = world.listings[i]!;
  const number = row.listing_number;
  const t = row.listing_creation_date;
  describe(world.listingTable, i, makeListing(Rng.resume(drawnFrom), number, t, t, number, describing, false, row.listing_start_date));
}

/** The scratch listings arrivals are drawn into (makeListing writes every field it is asked for each time). */
const arriving = {} as Listing;
const describing = {} as Listing;
