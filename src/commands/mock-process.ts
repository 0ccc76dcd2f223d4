/**
 * `mkt mock process`: every order the running mock (at root_url) has queued, processed now without moving its clock
 * (POST /__mock/process), so that a bid submitted a moment ago shows its result at once on a frozen mock.
 */
import type { Command } from '@commander-js/extra-typings';
import type { CommandContext } from '../context.js';
import { MOCK_ADMIN_PREFIX } from '../contract/mock-admin.js';
import type { Output } from '../output/render.js';
import { ADMIN_TOKEN_HELP, adminTarget } from './mock-admin-target.js';

/** Adds `process` to the `mock` group. */
export function addProcessCommand(mock: Command, ctx: CommandContext): void {
  mock
    .command('process')
    .description(`process every order the running mock has queued, now, its clock left where it is (${MOCK_ADMIN_PREFIX}/process)`)
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .action(
      ctx.action(async (opts): Promise<Output> => {
        const [{ processQueued }, to] = await Promise.all([import('../api/mock-admin.js'), adminTarget(ctx, opts.adminToken)]);
        const { processed } = await processQueued(to);
        ctx.info(`processed ${processed} queued order${processed === 1 ? '' : 's'}`);
        return { kind: 'item', item: { processed } };
      }),
    );
}
