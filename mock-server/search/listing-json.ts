/**
 * A listing's view as JSON text, kept until the listing changes: a page of listings is its rows'
 * kept texts joined, so a repeated search builds and serialises no row again. `listingView` stays the
 * reference (the property test compares every served row with it after random changes to the world).
 *
 * A kept text depends on the listing and on what the request asks for that changes a row: the zone
 * (dates), the bureaus and the loan fields; the caller's participation is spliced in (a row of a
 * listing the caller has not invested in is kept whole). `forgetListingJson` drops a listing's texts
 * and is called on every change of a listing (listing-index.ts: `reindexListing`, `touchListing`).
 */
import { listingView, type ViewOptions } from './listing-view.js';
import type { Fragments } from '../world/derived.js';
import type { Listing, Store } from '../world/store.js';

/** Rows kept per kind of request (about 3 KB each), oldest dropped first. */
const ROWS_PER_KIND = 5_000;
/** Kinds of request kept (zones in use, bureau and loan-field choices). */
const KINDS = 4;
/** A participation no real one equals, to find where the amount sits in a row's text. */
const MARK = 7.77777777777777e-300;
const MARK_TEXT = JSON.stringify(MARK);
const NONE: ReadonlyMap<number, number> = new Map();

function kindOf(store: Store, o: ViewOptions): Map<Listing, Fragments> {
  const cache = store.index.listingTexts;
  const key = `${o.zone ?? ''}|${o.bureaus.bureau1 ? 1 : 0}${o.bureaus.bureau2 ? 1 : 0}${o.showLoanFields ? 1 : 0}`;
  let rows = cache.get(key);
  if (!rows) {
    if (cache.size >= KINDS) cache.delete(cache.keys().next().value!);
    cache.set(key, (rows = new Map()));
  }
  return rows;
}

/** The row's text split around its participation, or null when the mark is not found exactly once. */
function splitAtParticipation(l: Listing, o: ViewOptions): readonly [string, string] | null {
  const text = JSON.stringify(listingView(l, { ...o, participation: new Map([[l.listing_number, MARK]]) }));
  const at = text.indexOf(MARK_TEXT);
  if (at < 0 || text.indexOf(MARK_TEXT, at + 1) >= 0) return null;
  return [text.slice(0, at), text.slice(at + MARK_TEXT.length)];
}

/** `JSON.stringify(listingView(l, o))`, from the listing's kept texts where they are. */
export function listingJson(store: Store, l: Listing, o: ViewOptions): string {
  const rows = kindOf(store, o);
  let f = rows.get(l);
  if (!f) {
    if (rows.size >= ROWS_PER_KIND) rows.delete(rows.keys().next().value!);
    f = { uninvested: JSON.stringify(listingView(l, { ...o, participation: NONE })) };
    rows.set(l, f);
  }
  const amount = o.participation.get(l.listing_number) ?? 0;
  if (amount === 0) return f.uninvested;
  if (f.invested === undefined) f.invested = splitAtParticipation(l, o);
  if (f.invested === null) return JSON.stringify(listingView(l, o));
  return f.invested[0] + JSON.stringify(amount) + f.invested[1];
}

/** Drops every kept text of `l`: called whenever the listing changes. */
export function forgetListingJson(store: Store, l: Listing): void {
  for (const rows of store.index.listingTexts.values()) rows.delete(l);
}
