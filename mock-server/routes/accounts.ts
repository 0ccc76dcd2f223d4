/** GET {base_url}/accounts/platform: the caller's account in the real marketplace's shape (views/account-view.ts `accountView`). */
import type { MockContext } from '../context.js';
import { accountView } from '../views/account-view.js';
import { authedRoute, http } from '../route-helper/route.js';

/** The accounts handlers. */
export function accountsHandlers(ctx: MockContext) {
  return [
    http.get(
      '*/v1/accounts/platform',
      authedRoute(ctx, 'read_platform_account', ({ caller, zone }) =>
        accountView(ctx.world, ctx.world.accounts.get(caller.accountId)!, ctx.clock.now(), zone),
      ),
    ),
  ];
}
