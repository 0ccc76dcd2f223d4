/**
 * A caller's participation (what they have in each listing: notes and pending bids), kept between
 * listings searches. Worked out afresh it was a third of an unfiltered page's time and most of the
 * garbage it made (a map of every listing the caller ever invested in, per request). A kept one is
 * used while nothing it is made of can have moved: the world's version (moved by every write and
 * market step), the listings' version (moved by every change of a listing, which funding a bid or
 * originating a loan is), and the caller's count of notes and orders.
 */
import type { MockContext } from '../context.js';
import { notesOf, ordersOf } from '../world/store-index.js';
import { participationOf, type Store } from '../world/store.js';

/** Callers kept per world; more are dropped oldest first. */
const KEPT_CALLERS = 16;

const kept = new WeakMap<Store, Map<string, { key: string; participation: ReadonlyMap<number, number> }>>();

/** `participationOf(ctx.store, accountId)`, kept while nothing it depends on moved. */
export function keptParticipation(ctx: MockContext, accountId: string): ReadonlyMap<number, number> {
  const store = ctx.store;
  const key = `${ctx.engine.version}|${store.index.listingsVersion}|${notesOf(store, accountId).length}|${ordersOf(store, accountId).length}`;
  let callers = kept.get(store);
  if (!callers) kept.set(store, (callers = new Map()));
  const entry = callers.get(accountId);
  if (entry?.key === key) return entry.participation;
  callers.delete(accountId);
  if (callers.size >= KEPT_CALLERS) callers.delete(callers.keys().next().value!);
  const participation = participationOf(store, accountId);
  callers.set(accountId, { key, participation });
  return participation;
}
