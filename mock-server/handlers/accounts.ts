/** GET {base_url}/accounts/platform: the caller's cash, pending investments and total value. */
import { http } from 'msw';
import { authenticate } from '../auth.js';
import type { MockContext } from '../context.js';
import { engineOf } from '../engine/engine.js';
import { balancesOf } from '../engine/ledger.js';
import { route } from './route.js';

/** The accounts handlers. */
export function accountsHandlers(ctx: MockContext) {
  const engine = engineOf(ctx);
  return [
    http.get('*/v1/accounts/platform', route(({ request }) => {
      const caller = authenticate(ctx, request, 'read_platform_account');
      engine.sync();
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
