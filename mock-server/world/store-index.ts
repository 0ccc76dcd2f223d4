/**
 * The store's indexes: orders and notes by account, notes by loan, bids by listing. They hold the
 * same objects as `store.orders` and `store.notes`, in the same order, so a request reads only its
 * own slice instead of scanning every order or note. `addOrder` and `addNote` are the only ways in
 * and keep them right; a loaded state file rebuilds them (`buildIndex`), which the tests compare with.
 */
import type { KeptOrder } from '../routes/kept-orders.js';
import type { ListingIndex, QueryCacheEntry } from '../search/listing-index.js';
import type { Bid, Note, Order, Store } from './store.js';

/** One bid with the order it belongs to. */
export interface BidRef {
  order: Order;
  bid: Bid;
}

/** Lookups kept beside the store's own collections (never saved: derived from them). */
export interface StoreIndex {
  ordersByAccount: Map<string, Order[]>;
  notesByAccount: Map<string, Note[]>;
  notesByLoan: Map<number, Note[]>;
  bidsByListing: Map<number, BidRef[]>;
  /** The listing indexes (listing-index.ts), built on the first search; null until then. */
  listings: ListingIndex | null;
  /** Bumped by every change to a listing: part of the key of cached search answers. */
  listingsVersion: number;
  /** The last few searches' matches (listing-query.ts), so offset pages of one query do not search again. */
  queryCache: QueryCacheEntry[];
  /** The last few sorted lists of notes and loans (kept-orders.ts), so their later pages are slices. */
  keptOrders: KeptOrder[];
}

const NONE: readonly never[] = [];

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Empty indexes, for an empty store. */
export function emptyIndex(): StoreIndex {
  return {
    ordersByAccount: new Map(), notesByAccount: new Map(), notesByLoan: new Map(), bidsByListing: new Map(),
    listings: null, listingsVersion: 0, queryCache: [], keptOrders: [],
  };
}

function indexOrder(index: StoreIndex, order: Order): void {
  push(index.ordersByAccount, order.accountId, order);
  // An order's bids are fixed when it is accepted; only their statuses change later.
  for (const bid of order.bids) push(index.bidsByListing, bid.listing_id, { order, bid });
}

function indexNote(index: StoreIndex, note: Note): void {
  push(index.notesByAccount, note.accountId, note);
  push(index.notesByLoan, note.loanNumber, note);
}

/** The indexes of `store` by a full scan of its orders and notes (after a load, and to check the live ones). */
export function buildIndex(store: Pick<Store, 'orders' | 'notes'>): StoreIndex {
  const index = emptyIndex();
  for (const order of store.orders.values()) indexOrder(index, order);
  for (const note of store.notes) indexNote(index, note);
  return index;
}

/** Adds an order to the store and its indexes. */
export function addOrder(store: Store, order: Order): void {
  store.orders.set(order.order_id, order);
  indexOrder(store.index, order);
}

/** Adds a note to the store and its indexes. */
export function addNote(store: Store, note: Note): void {
  store.notes.push(note);
  indexNote(store.index, note);
}

/** The orders of one account, oldest first. */
export function ordersOf(store: Store, accountId: string): readonly Order[] {
  return store.index.ordersByAccount.get(accountId) ?? NONE;
}

/** The notes of one account, oldest first. */
export function notesOf(store: Store, accountId: string): readonly Note[] {
  return store.index.notesByAccount.get(accountId) ?? NONE;
}

/** The notes of one loan, oldest first. */
export function notesOfLoan(store: Store, loanNumber: number): readonly Note[] {
  return store.index.notesByLoan.get(loanNumber) ?? NONE;
}

/** Every bid ever made on one listing, with its order, oldest first. */
export function bidsOnListing(store: Store, listingNumber: number): readonly BidRef[] {
  return store.index.bidsByListing.get(listingNumber) ?? NONE;
}
