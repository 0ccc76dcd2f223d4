/** GET {base_url}/accounts/platform: the caller's cash, pending investments, invested principal and total value. */
import { http } from 'msw';
import type { MockContext } from '../context.js';
import { balancesOf, bidPending, notePrincipal } from '../engine/ledger.js';
import { cents } from '../money.js';
import { notesOf, ordersOf } from '../store-index.js';
import type { Store } from '../store.js';
import { authedRoute } from './route.js';

/** The rating keys of the real marketplace's per-rating account figures, `NA` for loans rated before ratings. */
const ACCOUNT_RATING_KEYS = ['NA', 'HR', 'E', 'D', 'C', 'B', 'A', 'AA'] as const;

function byRating(): Record<string, number> {
  return Object.fromEntries(ACCOUNT_RATING_KEYS.map((k) => [k, 0]));
}

function add(to: Record<string, number>, rating: string | undefined, amount: number): void {
  const key = rating && rating in to ? rating : 'NA';
  to[key] = cents(to[key]! + amount);
}

/** Outstanding note principal and pending bid amounts of one account, by platform rating. */
export function principalByRating(store: Store, accountId: string): { invested: Record<string, number>; pending: Record<string, number> } {
  const invested = byRating();
  const pending = byRating();
  for (const n of notesOf(store, accountId)) add(invested, store.loans.get(n.loanNumber)?.platform_rating, notePrincipal(n));
  for (const o of ordersOf(store, accountId)) {
    for (const b of o.bids) {
      const amount = bidPending(b);
      if (amount > 0) add(pending, store.listingByNumber.get(b.listing_id)?.platform_rating, amount);
    }
  }
  return { invested, pending };
}

/** The accounts handlers. */
export function accountsHandlers(ctx: MockContext) {
  return [
    http.get('*/v1/accounts/platform', authedRoute(ctx, 'read_platform_account', ({ caller }) => {
      const account = ctx.store.accounts.get(caller.accountId)!;
      const b = balancesOf(ctx.store, account.id);
      const { invested, pending } = principalByRating(ctx.store, account.id);
      return {
        available_cash_balance: b.cash,
        pending_investments: b.pending,
        pending_investments_primary_market: b.pending,
        outstanding_principal_on_active_notes: b.invested,
        total_account_value: b.total,
        external_user_id: account.externalUserId,
        invested_notes: invested,
        pending_bids: pending,
      };
    })),
  ];
}
