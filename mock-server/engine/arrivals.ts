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
import { ARRIVAL_WIDTH, arrived, drawArrival, hourArrivals, placeAt, readArrival } from './arrival-batch.js';
import { makeListing } from './listing-maker.js';
import { HOUR } from './event-hours.js';
import { placeArrived } from './timeline.js';
import { Rng } from '../kit/rng.js';
import { describe, markDescribable } from '../world/row-table.js';
import { addListing, addListingDescribedLater, type Listing, type World } from '../world/world.js';

/**
 * The listings arriving in the tick at `t` (a whole hour; arrival-batch.ts `hourArrivals`), drawn here one after another,
 * or read from the batch drawn ahead for the hour (a long clock move's: arrivals-thread.ts) with their places in the timeline.
 */
export function arrivals(world: World, t: number): void {
  const hour = hourArrivals(world.seed, world.engine, t);
  if (!hour) return;
  const describer = (world.index.describeArrival ??= (i: number, drawnFrom: number): void => describeArrival(world, i, drawnFrom));
  const batch = world.index.arrivalsAhead?.take(t, world.counters.listing);
  if (batch !== undefined && batch[2] === hour.count) {
    const row = world.listings.length;
    for (let i = 0; i < hour.count; i++) {
      const drawnFrom = readArrival(batch, i, arriving);
      add(world, arriving, describer, drawnFrom);
    }
    // Their places, worked out with them, unless the timeline is not the tick's (then its catch-up works them out).
    placeArrived(world, row, hour.count, batch, placeAt(0), ARRIVAL_WIDTH, t / HOUR);
    return;
  }
  const rng = hour.rng;
  for (let i = 0; i < hour.count; i++) {
    const drawnFrom = rng.state;
    // Drawn into one scratch object, as the seed does: the world copies it into a row of its columns.
    add(world, drawArrival(world.seed, rng, world.counters.listing, t, hour.released, arriving), describer, drawnFrom);
  }
}

/** Adds the arrived listing `l` (its market fields; its stream stood at `drawnFrom`), numbered next. */
function add(world: World, l: Listing, describer: (i: number, drawnFrom: number) => void, drawnFrom: number): void {
  const number = world.counters.listing++;
  // The world's first arrival is added whole: every field of a drawn listing then has a column (a world loaded
  // from an older mock's file may lack one, which an awaiting row would read as undefined instead of describing).
  if (addListingDescribedLater(world, l, describer, drawnFrom)) return;
  const t = l.listing_creation_date;
  addListing(world, arrived(makeListing(Rng.resume(drawnFrom), number, t, t, number, undefined, false, l.listing_start_date), t));
  markDescribable(world.listingTable);
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
