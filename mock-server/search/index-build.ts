/**
 * The listing index built between requests (the engine's idle work after a start, a reset, a load or a move), a slice
 * of rows at a time, so that the first search finds it ready: at a million listings building it (and the value index
 * of the investment type every search filters on) was ~60 ms of the first search's CPU. What it builds is what a
 * search's first build makes of the same world (listing-index.ts); a search that comes first builds the index itself.
 *
 * A build under way is kept in the world (`WorldIndex.indexBuild`) and is made only of rows read from the listing
 * table's columns. Any change to a listing since it began moves the listings' version, and the build starts over
 * (the status and loan number it read of a row may be gone); rows only ever append, and are read as they come.
 * Installing the index moves no version: it changes no answer (a kept page stays kept).
 */
import { Bits } from '../kit/bitset.js';
import { read, type Column } from '../world/column-kinds.js';
import type { ListingIndex } from '../world/derived.js';
import { rowOf } from '../world/row-table.js';
import type { World } from '../world/world.js';
import { emptyListingIndex, fieldGetter } from './listing-index.js';

/** The value indexes every search reads (the pool of whole or fractional loans: listing-search.ts `candidates`), built after the index. */
export const IDLE_VALUE_FIELDS: readonly string[] = ['investment_typeid'];

/** Adds position `pos` to the set of `key` in `map`, a new set made for `size` positions (grown by doubling, a million took a few copies). */
function addSized<K>(map: Map<K, Bits>, key: K, pos: number, size: number): void {
  let b = map.get(key);
  if (!b) map.set(key, (b = new Bits(size)));
  b.set(pos);
}

/** A column of `name` whose values are the field's as they are (ints, codes, booleans), else undefined. */
function plainColumn(world: World, name: string): Column | undefined {
  const t = world.listingTable;
  const c = t.columns[t.byName.get(name) ?? -1];
  return c?.kind === 'int' || c?.kind === 'enum' || c?.kind === 'bool' ? c : undefined;
}

/**
 * Builds up to `rows` more rows of the world's listing index, or of the value indexes of IDLE_VALUE_FIELDS once it
 * stands; true once all are built (or cannot be here: positions that are not rows, columns of another kind; a search
 * then builds them as before).
 */
export function buildIndexSome(world: World, rows: number): boolean {
  const derived = world.index;
  if (derived.listings === null) return buildRows(world, rows);
  // A search built the index first: what was built of it goes.
  if (derived.indexBuild?.field === null) derived.indexBuild = null;
  const index = derived.listings;
  for (const field of IDLE_VALUE_FIELDS) if (!index.byValue.has(field)) return valueRows(world, index, field, rows);
  return true;
}

/** The next rows of the index's first build; installs it when every row is read. */
function buildRows(world: World, rows: number): boolean {
  const derived = world.index;
  const all = world.listings;
  const t = world.listingTable;
  const [cn, cs, cl] = [plainColumn(world, 'listing_number'), plainColumn(world, 'listing_status'), plainColumn(world, 'loan_number')];
  if (all.length === 0 || t.size !== all.length || cn?.kind !== 'int' || cs === undefined || cl?.kind !== 'int') {
    derived.indexBuild = null;
    return true;
  }
  let b = derived.indexBuild;
  if (b === null || b.version !== derived.listingsVersion || b.field !== null) {
    const index = emptyListingIndex();
    index.originated = new Bits(all.length);
    index.base = all[0]!.listing_number;
    b = derived.indexBuild = { version: derived.listingsVersion, field: null, next: 0, index, values: null };
  }
  const index = b.index;
  const stop = Math.min(all.length, b.next + rows);
  for (let i = b.next; i < stop; i++) {
    // The search reads fields by row from the columns only while every position is its listing's row: else it builds its own.
    if (rowOf(all[i]!) !== i) {
      derived.indexBuild = null;
      return true;
    }
    const x = cn.data[i]!;
    if (x === cn.nil || x - index.base !== i) index.position.set(x === cn.nil ? (null as unknown as number) : x, i);
    addSized(index.byStatus, read(cs, i) as number, i, all.length);
    if (cl.data[i] !== cl.nil) index.originated.set(i);
  }
  b.next = stop;
  if (stop < all.length) return false;
  index.size = stop;
  derived.listings = index;
  derived.indexBuild = null;
  return IDLE_VALUE_FIELDS.length === 0;
}

/** The next rows of the value index of `field` (never changed once a listing exists); put in the index when it reaches the index's size. */
function valueRows(world: World, index: ListingIndex, field: string, rows: number): boolean {
  const derived = world.index;
  const t = world.listingTable;
  const c = plainColumn(world, field);
  if (c === undefined || !index.inPlace) {
    // Not held as plain values, or positions not rows: left to the first search that filters on it.
    derived.indexBuild = null;
    return true;
  }
  let b = derived.indexBuild;
  if (b === null || b.field !== field)
    b = derived.indexBuild = { version: derived.listingsVersion, field, next: 0, index, values: new Map() };
  const values = b.values!;
  const awaiting = t.market !== null && !t.market.has(field) && t.awaitingCount > 0;
  const get = fieldGetter(field);
  // The index grows as searches catch it up with new listings: the value index covers exactly its rows.
  const stop = Math.min(index.size, b.next + rows);
  for (let i = b.next; i < stop; i++)
    addSized(values, awaiting && t.awaiting[i] === 1 ? get(world.listings[i]!) : read(c, i), i, index.size);
  b.next = stop;
  if (stop < index.size) return false;
  index.byValue.set(field, values);
  derived.indexBuild = null;
  return IDLE_VALUE_FIELDS.every((f) => index.byValue.has(f));
}
