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
import { read } from '../world/column-kinds.js';
import { rowOf } from '../world/row-table.js';
import { rowsByCode } from '../world/column-read.js';
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

/** A listing index of no rows. */
export function emptyListingIndex(): ListingIndex {
  return { size: 0, base: 0, position: new Map(), byStatus: new Map(), originated: new Bits(), byValue: new Map(), inPlace: true };
}

function addTo<K>(map: Map<K, Bits>, key: K, pos: number): void {
  let b = map.get(key);
  if (!b) map.set(key, (b = new Bits(pos + 1)));
  b.set(pos);
}

function valueMap(world: World, index: ListingIndex, field: string): Map<unknown, Bits> {
  const built = index.byValue.get(field);
  if (built) return built;
  const map = index.inPlace ? valueMapByCodes(world, index.size, field) : null;
  return index.byValue.set(field, map ?? valueMapByObjects(world.listings, index.size, field)).get(field)!;
}

function valueMapByObjects(listings: readonly Listing[], size: number, field: string): Map<unknown, Bits> {
  const map = new Map<unknown, Bits>();
  const get = fieldGetter(field);
  for (let i = 0; i < size; i++) addTo(map, get(listings[i]!), i);
  return map;
}

/**
 * The value index of a field held as codes, booleans or small integers in the listing table, built from the column in row
 * order (world/column-read.ts): through the rows' objects, each a scattered read, the first search on a field took a tenth
 * of a second at a million listings. Null when the field is held otherwise. A row awaiting its description is read
 * through its object afterwards (which describes it).
 */
function valueMapByCodes(world: World, size: number, field: string): Map<unknown, Bits> | null {
  const t = world.listingTable;
  const awaiting = t.market !== null && !t.market.has(field) && t.awaitingCount > 0 ? t.awaiting.slice(0, size) : null;
  const words: Uint32Array[] = [];
  const value = rowsByCode(t, field, size, words, awaiting);
  if (!value) return null;
  const map = new Map<unknown, Bits>();
  words.forEach((w, code) => {
    const b = new Bits(0);
    b.words = w;
    map.set(value(code), b);
  });
  if (awaiting) {
    const get = fieldGetter(field);
    for (let i = 0; i < size; i++) if (awaiting[i] === 1) addTo(map, get(world.listings[i]!), i);
  }
  return map;
}

/**
 * Builds the index of a world's listings from none, from the columns in row order (status words per code, numbers and
 * loan numbers read straight from their arrays); false, having changed nothing, when a position is not its listing's row
 * or a column is not of the kind read here (the catch-up then reads row by row). A million listings took a tenth of a
 * second row by row, most of a first search.
 */
function firstBuild(world: World, index: ListingIndex): boolean {
  const all = world.listings;
  const t = world.listingTable;
  if (t.size !== all.length) return false;
  for (let i = 0; i < all.length; i++) if (rowOf(all[i]!) !== i) return false;
  const [cn, cl] = ['listing_number', 'loan_number'].map((f) => t.columns[t.byName.get(f) ?? -1]);
  if (cn?.kind !== 'int' || cl?.kind !== 'int') return false;
  const words: Uint32Array[] = [];
  const status = rowsByCode(t, 'listing_status', all.length, words, null);
  if (!status) return false;
  words.forEach((w, code) => {
    const b = new Bits(0);
    b.words = w;
    index.byStatus.set(status(code) as number, b);
  });
  const { data: numbers, nil } = cn;
  for (let i = 0; i < all.length; i++) {
    const x = numbers[i]!;
    if (x === nil || x - index.base !== i) index.position.set(x === nil ? (null as unknown as number) : x, i);
  }
  const originated = new Bits(all.length);
  const loans = cl.data;
  for (let i = 0; i < all.length; i++) if (loans[i] !== cl.nil) originated.words[i >>> 5]! |= 1 << (i & 31);
  index.originated = originated;
  return true;
}

/** The world's listing index, built or caught up with listings added since the last search. */
export function listingIndex(world: World): ListingIndex {
  const index = (world.index.listings ??= emptyListingIndex());
  const all = world.listings;
  if (index.size === all.length) return index;
  if (index.size === 0 && all.length > 0) index.base = all[0]!.listing_number;
  if (index.size === 0 && firstBuild(world, index)) {
    index.size = all.length;
    world.index.listingsVersion++;
    return index;
  }
  // Number, status and loan number by row from their columns (a read through each of a million objects was most of a first search).
  const t = world.listingTable;
  const [jn, js, jl] = ['listing_number', 'listing_status', 'loan_number'].map((f) => t.byName.get(f) ?? -1) as [number, number, number];
  const [cn, cs, cl] = [t.columns[jn], t.columns[js], t.columns[jl]];
  // Read through the object where the columns cannot answer: positions not rows, or a column replaced since (never while indexing).
  const columns = cn !== undefined && cs !== undefined && cl !== undefined;
  for (let i = index.size; i < all.length; i++) {
    const l = all[i]!;
    // The search reads fields by row from the table's columns only while every position is its listing's row.
    if (index.inPlace && rowOf(l) !== i) index.inPlace = false;
    const byColumns = columns && index.inPlace && i < t.size && t.columns[jn] === cn && t.columns[js] === cs && t.columns[jl] === cl;
    const number = (byColumns ? read(cn, i) : l.listing_number) as number;
    if (number - index.base !== i) index.position.set(number, i);
    addTo(index.byStatus, (byColumns ? read(cs, i) : l.listing_status) as number, i);
    if ((byColumns ? read(cl, i) : l.loan_number) !== null) index.originated.set(i);
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
  const map = valueMap(world, listingIndex(world), field);
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
