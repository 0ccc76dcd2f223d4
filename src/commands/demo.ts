/** `mkt demo`: the whole story against an embedded mock, with throw-away credentials and state. */
import type { CommandContext } from '../context.js';
import type { Output } from '../output/render.js';
import { groupCommand } from './groups.js';
import { parseCount } from './options.js';

/** The `demo` command. */
export function makeDemoCommand(ctx: CommandContext) {
  return groupCommand('demo')
    .option('--seed <n>', 'seed of the mock world', '1')
    .option('--listings <n>', 'active listings in the mock', '2000')
    .option('--bids <n>', 'how many listings to bid on', '5')
    .action(
      ctx.action(async (opts): Promise<Output> => {
        const { runDemo } = await import('../demo/run-demo.js');
        ctx.exitCode = await runDemo({
          io: ctx.io,
          runMkt: ctx.runMkt,
          seed: parseCount('--seed', opts.seed, 0),
          listings: parseCount('--listings', opts.listings, 50),
          bids: parseCount('--bids', opts.bids, 1),
        });
        return { kind: 'none' };
      }),
    );
}
