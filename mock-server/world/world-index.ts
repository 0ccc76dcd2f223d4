/**
 * The world's indexes: orders and notes by account, notes by loan, bids by listing. They hold the
 * same objects as `world.orders` and `world.notes`, in the same order, so a request reads only its
 * own slice instead of scanning every order or note. `addOrder` and `addNote` are the only ways in
 * and keep them right; a loaded state file rebuilds them (`buildIndex`), which the tests compare with.
 */
import { emptyIndex, type BidRef, type WorldIndex } from './derived.js';
import type { Note, Order, World } from './world.js';

export type { BidRef, WorldIndex } from './derived.js';

const NONE: readonly never[] = [];

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function indexOrder(index: WorldIndex, order: Order): void {
  push(index.ordersByAccount, order.accountId, order);
  // An order's bids are fixed when it is accepted; only their statuses change later.
  for (const bid of order.bids) push(index.bidsByListing, bid.listing_id, { order, bid });
}

function indexNote(index: WorldIndex, note: Note): void {
  push(index.notesByAccount, note.accountId, note);
  push(index.notesByLoan, note.loanNumber, note);
}

/** The indexes of `world` by a full scan of its orders and notes (after a load, and to check the live ones). */
export function buildIndex(world: Pick<World, 'orders' | 'notes'>): WorldIndex {
  const index = emptyIndex();
  for (const order of world.orders.values()) indexOrder(index, order);
  for (const note of world.notes) indexNote(index, note);
  return index;
}

/** Adds an order to the world and its indexes. */
export function addOrder(world: World, order: Order): void {
  world.orders.set(order.order_id, order);
  indexOrder(world.index, order);
}

/** Adds a note to the world and its indexes. */
export function addNote(world: World, note: Note): void {
  world.notes.push(note);
  indexNote(world.index, note);
}

/** The orders of one account, oldest first. */
export function ordersOf(world: World, accountId: string): readonly Order[] {
  return world.index.ordersByAccount.get(accountId) ?? NONE;
}

/** The notes of one account, oldest first. */
export function notesOf(world: World, accountId: string): readonly Note[] {
  return world.index.notesByAccount.get(accountId) ?? NONE;
}

/** The notes of one loan, oldest first. */
export function notesOfLoan(world: World, loanNumber: number): readonly Note[] {
  return world.index.notesByLoan.get(loanNumber) ?? NONE;
}

/** Every bid ever made on one listing, with its order, oldest first. */
export function bidsOnListing(world: World, listingNumber: number): readonly BidRef[] {
  return world.index.bidsByListing.get(listingNumber) ?? NONE;
}

/** The amount each account holds in notes of each listing: the caller's `amount_participation`. */
export function participationOf(world: World, accountId: string): Map<number, number> {
  const out = new Map<number, number>();
  // Summed in whole cents, so that 0.1 + 0.2 answers 0.3, not 0.30000000000000004.
  const add = (listing: number, amount: number): void => void out.set(listing, (out.get(listing) ?? 0) + Math.round(amount * 100));
  for (const n of notesOf(world, accountId)) add(n.listingNumber, n.amount);
  for (const o of ordersOf(world, accountId)) {
    for (const b of o.bids) if (b.bid_status === 'PENDING' && b.bid_amount_placed > 0) add(b.listing_id, b.bid_amount_placed);
  }
  for (const [listing, c] of out) out.set(listing, c / 100);
  return out;
}
