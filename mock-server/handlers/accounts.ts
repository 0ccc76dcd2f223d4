/** GET {base_url}/accounts/platform: the caller's cash, pending investments and total value. */
import { http } from 'msw';
import type { MockContext } from '../context.js';
import { balancesOf } from '../engine/ledger.js';
import { authedRoute } from './route.js';

/** The accounts handlers. */
export function accountsHandlers(ctx: MockContext) {
  return [
    http.get('*/v1/accounts/platform', authedRoute(ctx, 'read_platform_account', ({ caller }) => {
      const account = ctx.store.accounts.get(caller.accountId)!;
      const b = balancesOf(ctx.store, account.id);
      return {
        available_cash_balance: b.cash,
        pending_investments: b.pending,
        total_account_value: b.total,
        external_user_id: account.externalUserId,
      };
    })),
  ];
}
