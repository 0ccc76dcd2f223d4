/** `mkt account`: cash balance, pending investments, total value and external_user_id. */
import type { CommandContext } from '../context.js';
import type { Output } from '../output/render.js';
import { groupCommand } from './groups.js';

/** The `account` command. */
export function makeAccountCommand(ctx: CommandContext) {
  return groupCommand('account').action(
    ctx.action(async (): Promise<Output> => {
      const [api, client] = await Promise.all([import('../api/accounts.js'), ctx.api()]);
      return { kind: 'item', item: await api.platform(client) };
    }),
  );
}
