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
import { rowOf } from '../world/listing-table.js';
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
 * order: through the rows' objects, each a scattered read, the first search on a field took a tenth of a second at a
 * million listings. Null when the field is held otherwise. A row awaiting its description is read through its object
 * (which describes it), as is every row after describing one widened the column.
 */
function valueMapByCodes(world: World, size: number, field: string): Map<unknown, Bits> | null {
  const t = world.listingTable;
  const j = t.byName.get(field);
  const c = j === undefined ? undefined : t.columns[j];
  if (!c) return null;
  // Codes from 0: a column of codes' own, a boolean's (2 for null), an integer's less the least one (the last code for null).
  let least = 0;
  let nil = -1;
  if (c.kind === 'int') {
    least = Infinity;
    let most = -Infinity;
    for (let i = 0; i < size; i++) {
      const x = c.data[i]!;
      if (x === c.nil) continue;
      if (x < least) least = x;
      if (x > most) most = x;
    }
    if (most - least > 4096) return null;
    nil = most === -Infinity ? 0 : most - least + 1;
    if (least === Infinity) least = 0;
  } else if (c.kind !== 'enum' && c.kind !== 'bool') return null;
  const value = (code: number): unknown =>
    c.kind === 'enum' ? c.values[code] : c.kind === 'bool' ? (code === 2 ? null : code === 1) : code === nil ? null : code + least;
  const describes = t.market !== null && !t.market.has(field);
  const words: Uint32Array[] = [];
  const n = (size + 31) >>> 5;
  const get = fieldGetter(field);
  const slow = new Map<unknown, Bits>();
  const data = c.data;
  const cnil = c.kind === 'int' ? c.nil : NaN;
  for (let i = 0; i < size; i++) {
    if (describes && t.awaiting[i] === 1) {
      addTo(slow, get(world.listings[i]!), i);
      // Describing may widen the column (a new one takes its place): the rest are read through their objects.
      if (t.columns[j!] !== c) for (let r = i + 1; r < size; r++) addTo(slow, get(world.listings[r]!), r);
      if (t.columns[j!] !== c) break;
      continue;
    }
    const x = data[i]!;
    const code = x === cnil ? nil : x - least;
    (words[code] ??= new Uint32Array(n))[i >>> 5]! |= 1 << (i & 31);
  }
  const byCode: Bits[] = [];
  words.forEach((w, code) => {
    const b = new Bits(0);
    b.words = w;
    byCode[code] = b;
  });
  const map = new Map<unknown, Bits>();
  byCode.forEach((b, code) => map.set(value(code), b));
  for (const [v, b] of slow) {
    const into = map.get(v);
    if (!into) map.set(v, b);
    else {
      into.ensure(b.words.length * 32);
      for (let w = 0; w < b.words.length; w++) into.words[w]! |= b.words[w]!;
    }
  }
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
    // The search reads fields by row from the table's columns only while every position is its listing's row.
    if (index.inPlace && rowOf(l) !== i) index.inPlace = false;
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
