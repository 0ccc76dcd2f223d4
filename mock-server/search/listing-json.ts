/**
 * A listing's view as encoded JSON bytes, kept until the listing changes: a page of listings is its
 * rows' kept bytes written one after the other, so a repeated search builds, serialises and encodes
 * no row again (re-encoding every row into a fresh page buffer was a sixth of a loaded mock's CPU, and
 * writing that fresh buffer a third). `listingView` stays the reference (the property tests compare
 * every served page with it after random changes to the world).
 *
 * Kept bytes depend on the listing and on what the request asks for that changes a row: the zone
 * (dates), the bureaus and the loan fields; the caller's participation is spliced in (a row of a
 * listing the caller has not invested in is kept whole). Each kept row starts with the comma that
 * joins it to the row before, so a page is one chunk per row (the first row is a view past its comma).
 * `forgetListingJson` drops a listing's bytes and is called on every change of a listing
 * (listing-index.ts: `reindexListing`, `touchListing`).
 */
import { listingView, type ViewOptions } from './listing-view.js';
import type { Fragments } from '../world/derived.js';
import type { Listing, World } from '../world/world.js';
import { rowOf } from '../world/row-table.js';

/** Rows kept per kind of request (about 3 KB each), oldest dropped first. */
const ROWS_PER_KIND = 5_000;
/** Kinds of request kept (zones in use, bureau and loan-field choices). */
const KINDS = 4;
/** A participation no real one equals, to find where the amount sits in a row's text. */
const MARK = 7.77777777777777e-300;
const MARK_TEXT = JSON.stringify(MARK);
const NONE: ReadonlyMap<number, number> = new Map();
const PAGE_HEAD = Buffer.from('{"result":[');

function kindOf(world: World, o: ViewOptions): Map<number, Fragments> {
  const cache = world.index.listingTexts;
  const key = `${o.zone ?? ''}|${o.bureaus.bureau1 ? 1 : 0}${o.bureaus.bureau2 ? 1 : 0}${o.showLoanFields ? 1 : 0}`;
  let rows = cache.get(key);
  if (!rows) {
    if (cache.size >= KINDS) cache.delete(cache.keys().next().value!);
    cache.set(key, (rows = new Map()));
  }
  return rows;
}

/** A row's bytes after its joining comma, made once (in the pool's slabs for rows under 4 KB). */
const rowBytes = (text: string): Buffer => Buffer.from(`,${text}`);

/** The row's bytes split around its participation, or null when the mark is not found exactly once. */
function splitAtParticipation(l: Listing, o: ViewOptions): readonly [Buffer, Buffer] | null {
  const text = JSON.stringify(listingView(l, { ...o, participation: new Map([[l.listing_number, MARK]]) }));
  const at = text.indexOf(MARK_TEXT);
  if (at < 0 || text.indexOf(MARK_TEXT, at + 1) >= 0) return null;
  return [rowBytes(text.slice(0, at)), Buffer.from(text.slice(at + MARK_TEXT.length))];
}

/** The listing's kept fragments in `rows` (its kind of request's, by the listing's row), made if they are not kept. */
function fragmentsOf(world: World, rows: Map<number, Fragments>, l: Listing, o: ViewOptions): Fragments {
  const r = rowOf(l);
  let f = rows.get(r);
  if (!f) {
    if (rows.size >= ROWS_PER_KIND) rows.delete(rows.keys().next().value!);
    f = { uninvested: rowBytes(JSON.stringify(listingView(l, { ...o, participation: NONE }))) };
    rows.set(r, f);
    markKept(world, r);
  }
  return f;
}

/** Notes that row `r` has bytes kept (a row dropped for room stays noted: forgetting it then only looks in vain). */
function markKept(world: World, r: number): void {
  const index = world.index;
  if (r >= index.textRows.length) {
    const grown = new Uint8Array(Math.max(2 * index.textRows.length, r + 1024));
    grown.set(index.textRows);
    index.textRows = grown;
  }
  index.textRows[r] = 1;
}

/** Pushes `,` + `JSON.stringify(listingView(l, o))` onto `out`, in one to three chunks of kept bytes. */
function pushRow(out: Buffer[], world: World, rows: Map<number, Fragments>, l: Listing, o: ViewOptions): void {
  const f = fragmentsOf(world, rows, l, o);
  const amount = o.participation.get(l.listing_number) ?? 0;
  if (amount === 0) return void out.push(f.uninvested);
  if (f.invested === undefined) f.invested = splitAtParticipation(l, o);
  if (f.invested === null) return void out.push(rowBytes(JSON.stringify(listingView(l, o))));
  out.push(f.invested[0], Buffer.from(JSON.stringify(amount)), f.invested[1]);
}

/**
 * `JSON.stringify(listEnvelope(rows.map(listingView), total))` as UTF-8 chunks, each row's from its
 * listing's kept bytes: written to the socket one after the other (corked), they are that text's bytes.
 */
export function listingPage(world: World, rows: readonly Listing[], o: ViewOptions, total: number): Buffer[] {
  const out: Buffer[] = [PAGE_HEAD];
  const kept = kindOf(world, o);
  for (const l of rows) pushRow(out, world, kept, l, o);
  // The first row is written past the comma that would join it to a row before.
  if (rows.length > 0) out[1] = out[1]!.subarray(1);
  out.push(Buffer.from(`],"result_count":${rows.length},"total_count":${total}}`));
  return out;
}

/** Whether `l` has bytes kept for any kind of request (for tests of `forgetListingJson`). */
export function hasKeptBytes(world: World, l: Listing): boolean {
  for (const rows of world.index.listingTexts.values()) if (rows.has(rowOf(l))) return true;
  return false;
}

/**
 * Drops every kept fragment of `l`: called whenever the listing changes. Kept by the listing's row, a
 * number (by the listing object, each delete hashed an object that was never a key: a tenth of the
 * engine's own work in a clock move on a mock that had served pages), and looked up only for a row noted as kept.
 */
export function forgetListingJson(world: World, l: Listing): void {
  const index = world.index;
  const r = rowOf(l);
  // Most changes are to listings whose bytes no one keeps (a clock move changes ~300,000 at 100,000 listings, ~20,000 rows are kept at most).
  if (index.textRows[r] !== 1) return;
  index.textRows[r] = 0;
  for (const rows of index.listingTexts.values()) rows.delete(r);
}
