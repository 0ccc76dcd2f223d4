/**
 * A caller's participation (what they have in each listing: notes and pending bids), kept between
 * listings searches. Worked out afresh it was a third of an unfiltered page's time and most of the
 * garbage it made (a map of every listing the caller ever invested in, per request). A kept one is
 * used while nothing it is made of can have moved: the world's version (moved by every write and
 * market step), the listings' version (moved by every change of a listing, which funding a bid or
 * originating a loan is), and the caller's count of notes and orders.
 */
import { notesOf, ordersOf, participationOf } from '../world/world-index.js';
import type { World } from '../world/world.js';

/** Callers kept per world; more are dropped oldest first. */
const KEPT_CALLERS = 16;

/** `participationOf(world, accountId)`, kept in the world while nothing it depends on moved (`worldVersion`: the engine's). */
export function keptParticipation(world: World, worldVersion: number, accountId: string): ReadonlyMap<number, number> {
  // Compared as numbers: a key text made of them was a string built and compared per search.
  const listings = world.index.listingsVersion;
  const notes = notesOf(world, accountId).length;
  const orders = ordersOf(world, accountId).length;
  const callers = world.index.participation;
  const entry = callers.get(accountId);
  if (
    entry !== undefined
    && entry.version === worldVersion
    && entry.listings === listings
    && entry.notes === notes
    && entry.orders === orders
  )
    return entry.participation;
  callers.delete(accountId);
  if (callers.size >= KEPT_CALLERS) callers.delete(callers.keys().next().value!);
  const participation = participationOf(world, accountId);
  callers.set(accountId, { version: worldVersion, listings, notes, orders, participation });
  return participation;
}
