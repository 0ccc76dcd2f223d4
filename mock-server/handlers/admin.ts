/** Admin routes of the mock (loopback only; off with --no-admin): reset and a look at the state. */
import { http } from 'msw';
import { formatDateTime } from '../../src/contract/dates.js';
import type { MockContext } from '../context.js';
import { route } from './route.js';

/** Counts and balances: what a test or a curious user wants to see at a glance. */
export function stateSummary(ctx: MockContext): Record<string, unknown> {
  const s = ctx.store;
  const listingsByStatus: Record<string, number> = {};
  for (const l of s.listings) listingsByStatus[l.listing_status] = (listingsByStatus[l.listing_status] ?? 0) + 1;
  const accounts = [...s.accounts.values()].map((a) => ({
    account_id: a.id, user: a.userId, external_user_id: a.externalUserId, cash: a.cash,
  }));
  return {
    now: formatDateTime(ctx.clock.now()),
    frozen: ctx.clock.frozen,
    seed: s.seed,
    listings: s.listings.length,
    listings_by_status: listingsByStatus,
    orders: s.orders.size,
    loans: s.loans.size,
    notes: s.notes.length,
    accounts,
  };
}

/** The admin handlers. */
export function adminHandlers(ctx: MockContext) {
  return [
    http.post('*/__mock/reset', route(() => {
      ctx.reset();
      return stateSummary(ctx);
    })),
    http.get('*/__mock/state', route(() => stateSummary(ctx))),
  ];
}
