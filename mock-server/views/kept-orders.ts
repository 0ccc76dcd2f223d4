/**
 * Kept orders of the list endpoints that are sorted per request (GET /notes/, GET /loans/): the caller's
 * rows in a sort's order, so the next pages of one list (`--all`, `mkt portfolio`) are slices of it, not
 * sorts of every row again. Only the order is kept, never a view: each page's rows are viewed afresh.
 * An order is keyed by all it depends on: the list, the caller, the sort, the zone, the clock, the
 * world's version (`engine.version`, moved by every change) and the caller's row count.
 */
import type { SortClause } from '../search/query-params.js';
import type { World } from '../world/world.js';

/** How many orders are kept (a few clients paging at once). */
const KEPT = 4;

/** What an order of a list depends on. */
export interface OrderKey {
  list: string;
  accountId: string;
  sort: readonly SortClause[];
  zone: string | undefined;
  count: number;
}

/** What a kept order reads of the running mock (its context is one): the world, its clock and the world's version. */
export interface KeptOrderHost {
  readonly world: World;
  readonly clock: { now(): number };
  readonly engine: { readonly version: number };
}

/** The rows of a list in its order: the kept one while nothing it depends on moved, else `order()`'s, kept. */
export function keptOrder<T>(ctx: KeptOrderHost, what: OrderKey, order: () => readonly T[]): readonly T[] {
  const key = JSON.stringify([what.list, what.accountId, what.sort, what.zone ?? null, what.count, ctx.clock.now(), ctx.engine.version]);
  const kept = ctx.world.index.keptOrders;
  let entry = kept.find((e) => e.key === key);
  if (!entry) {
    entry = { key, rows: order() };
    kept.unshift(entry);
    kept.length = Math.min(kept.length, KEPT);
  }
  // Kept by this function alone, under a key naming the list: its rows are the T this list orders.
  return entry.rows as readonly T[];
}
