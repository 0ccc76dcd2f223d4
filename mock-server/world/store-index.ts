/**
 * The store's indexes: orders and notes by account, notes by loan, bids by listing. They hold the
 * same objects as `store.orders` and `store.notes`, in the same order, so a request reads only its
 * own slice instead of scanning every order or note. `addOrder` and `addNote` are the only ways in
 * and keep them right; a loaded state file rebuilds them (`buildIndex`), which the tests compare with.
 */
import { emptyIndex, type BidRef, type StoreIndex } from './derived.js';
import type { Note, Order, Store } from './store.js';

export type { BidRef, StoreIndex } from './derived.js';

const NONE: readonly never[] = [];

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
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

/** The amount each account holds in notes of each listing: the caller's `amount_participation`. */
export function participationOf(store: Store, accountId: string): Map<number, number> {
  const out = new Map<number, number>();
  // Summed in whole cents, so that 0.1 + 0.2 answers 0.3, not 0.30000000000000004.
  const add = (listing: number, amount: number): void => void out.set(listing, (out.get(listing) ?? 0) + Math.round(amount * 100));
  for (const n of notesOf(store, accountId)) add(n.listingNumber, n.amount);
  for (const o of ordersOf(store, accountId)) {
    for (const b of o.bids) if (b.bid_status === 'PENDING' && b.bid_amount_placed > 0) add(b.listing_id, b.bid_amount_placed);
  }
  for (const [listing, c] of out) out.set(listing, c / 100);
  return out;
}
