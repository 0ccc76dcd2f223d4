/** `mkt demo`: the whole story against an embedded mock, with throw-away credentials and state. */
import { Command } from 'commander';
import type { CommandContext } from '../context.js';
import type { Output } from '../output/render.js';
import { parseCount } from './options.js';

/** The `demo` command. */
export function makeDemoCommand(ctx: CommandContext): Command {
  return new Command('demo')
    .description('walk through login, search, order, wait, clock, loans against an embedded mock (no network, keychain or browser)')
    .option('--seed <n>', 'seed of the mock world', '1')
    .option('--listings <n>', 'active listings in the mock', '2000')
    .option('--bids <n>', 'how many listings to bid on', '5')
    .action(ctx.action(async (opts: { seed: string; listings: string; bids: string }): Promise<Output> => {
      const { runDemo } = await import('../demo/run-demo.js');
      ctx.exitCode = await runDemo({
        io: ctx.io,
        seed: parseCount('--seed', opts.seed, 0),
        listings: parseCount('--listings', opts.listings, 50),
        bids: parseCount('--bids', opts.bids, 1),
      });
      return { kind: 'none' };
    }));
}
