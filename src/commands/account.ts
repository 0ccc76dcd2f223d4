/** `mkt account`: cash balance, pending investments, total value and external_user_id. */
import { Command } from 'commander';
import type { CommandContext } from '../context.js';
import type { Output } from '../output/render.js';

/** The `account` command. */
export function makeAccountCommand(ctx: CommandContext): Command {
  return new Command('account')
    .description('cash balance, pending investments, total value and external_user_id')
    .action(ctx.action(async (): Promise<Output> => {
      const [api, client] = await Promise.all([import('../api/accounts.js'), ctx.api()]);
      return { kind: 'item', item: await api.platform(client) };
    }));
}
