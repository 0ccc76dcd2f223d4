/**
 * Where the `mkt mock` commands that call a running mock's admin routes send them (requests, outbox, snapshot,
 * process): root_url, with the admin token of `--admin-token`, else MKT_MOCK_ADMIN_TOKEN (a mock bound off loopback
 * needs it).
 */
import type { MockAdminTarget } from '../api/mock-admin.js';
import type { CommandContext } from '../context.js';

/** The help of their `--admin-token` flag. */
export const ADMIN_TOKEN_HELP = 'admin token of a mock bound off loopback (env MKT_MOCK_ADMIN_TOKEN)';

/** Where the admin calls go: root_url, with the admin token of the flag or the environment. */
export async function adminTarget(ctx: CommandContext, flag: string | undefined): Promise<MockAdminTarget> {
  return {
    http: await ctx.httpClient(),
    rootUrl: ctx.settings().rootUrl,
    adminToken: flag ?? (ctx.io.env.MKT_MOCK_ADMIN_TOKEN || undefined),
  };
}
