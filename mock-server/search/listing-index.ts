/**
 * Indexes over the listings, so a search costs in proportion to its answer rather than to the world:
 * a bitset per value of each multivalue and boolean filter field (built on first use), live bitsets
 * per listing status and of originated listings, and listing number → position. Positions are indexes
 * into `world.listings`, which only grows, so the default order (the world's order) is bit order.
 *
 * Filter fields indexed by value never change once a listing is in the world; fields that do change
 * (funding, verification, dates of origination) are tested on the candidates instead. Status and
 * origination change only through `setStatus`/`originate` (engine/lifecycle.ts), which call
 * `reindexListing`; every other change to a listing calls `touchListing`, so neither a cached answer
 * (`world.index.listingsVersion`) nor the listing's kept view text (listing-json.ts) is served after it moved.
 */
import { Bits } from '../kit/bitset.js';
import { forgetListingJson } from './listing-json.js';
import type { ListingIndex } from '../world/derived.js';
import type { Listing, World } from '../world/world.js';

type Getter = (l: Listing) => unknown;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/i;
const getters = new Map<string, Getter>();

/**
 * A getter for one field (of bureau2 with `bureau`), compiled to a named property load: a generic
 * `l[name]` read on the hot path is what V8 could not optimise (building a value index of a million
 * listings that way took a quarter of a second). Names come from the field catalogue, never from a request.
 */
export function fieldGetter(name: string, bureau = false): Getter {
  const key = bureau ? `bureau2.${name}` : name;
  let g = getters.get(key);
  if (!g) {
    if (!IDENTIFIER.test(name)) throw new Error(`not a field name: ${name}`);
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a getter per catalogue field, checked an identifier (above)
    g = new Function('l', `return l.${key};`) as Getter;
    getters.set(key, g);
  }
  return g;
}

function emptyListingIndex(): ListingIndex {
  return { size: 0, base: 0, position: new Map(), byStatus: new Map(), originated: new Bits(), byValue: new Map() };
}

function addTo<K>(map: Map<K, Bits>, key: K, pos: number): void {
  let b = map.get(key);
  if (!b) map.set(key, (b = new Bits(pos + 1)));
  b.set(pos);
}

function valueMap(index: ListingIndex, field: string, listings: readonly Listing[]): Map<unknown, Bits> {
  const built = index.byValue.get(field);
  if (built) return built;
  const map = new Map<unknown, Bits>();
  const get = fieldGetter(field);
  for (let i = 0; i < index.size; i++) addTo(map, get(listings[i]!), i);
  index.byValue.set(field, map);
  return map;
}

/** The world's listing index, built or caught up with listings added since the last search. */
export function listingIndex(world: World): ListingIndex {
  const index = (world.index.listings ??= emptyListingIndex());
  const all = world.listings;
  if (index.size === all.length) return index;
  if (index.size === 0 && all.length > 0) index.base = all[0]!.listing_number;
  for (let i = index.size; i < all.length; i++) {
    const l = all[i]!;
    if (l.listing_number - index.base !== i) index.position.set(l.listing_number, i);
    addTo(index.byStatus, l.listing_status, i);
    if (l.loan_number !== null) index.originated.set(i);
    const raw = l as unknown as Record<string, unknown>;
    for (const [field, map] of index.byValue) addTo(map, raw[field], i);
  }
  index.size = all.length;
  world.index.listingsVersion++;
  return index;
}

/** The position of listing `number` in `listings`, if indexed. */
export function positionOf(index: ListingIndex, listings: readonly Listing[], number: number): number | undefined {
  const guess = number - index.base;
  if (guess >= 0 && guess < index.size && listings[guess]!.listing_number === number) return guess;
  return index.position.get(number);
}

/** Positions holding `values` of a static filter field (built on first use). */
export function positionsWith(world: World, field: string, values: readonly unknown[]): Bits[] {
  const map = valueMap(listingIndex(world), field, world.listings);
  return values.map((v) => map.get(v)).filter((b): b is Bits => b !== undefined);
}

/**
 * Called after a listing's status changed (its loan number with it): moves it from the set of `was`, the
 * status it had (a listing is in the set of its status only), to its status's.
 */
export function reindexListing(world: World, l: Listing, was: number): void {
  touchListing(world, l);
  const index = world.index.listings;
  const pos = index ? positionOf(index, world.listings, l.listing_number) : undefined;
  if (!index || pos === undefined) return; // not indexed yet: the catch-up reads its current values
  const status = l.listing_status;
  if (was !== status) index.byStatus.get(was)?.clear(pos);
  addTo(index.byStatus, status, pos);
  if (l.loan_number !== null) index.originated.set(pos);
  else index.originated.clear(pos);
}

/** Called after any change to a listing's fields (funding, verification, status): kept answers and its kept views are stale. */
export function touchListing(world: World, l: Listing): void {
  world.index.listingsVersion++;
  forgetListingJson(world, l);
}
