/** `mkt order submit FILE|-`: check every bid, never bid twice, place orders of at most 100, optionally follow them. */
import type { Command } from '@commander-js/extra-typings';
import type { CommandContext } from '../context.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { readInput } from '../input.js';
import { readBids, type PlannedBid } from '../orders/bids-file.js';
import { parseCount } from './options.js';
import { followOrders, WAIT_COLUMNS, type WaitFlags } from './order-wait.js';

/** Largest bids file read: far beyond any real order book, small enough to hold in memory. */
const MAX_BIDS_FILE = 16 << 20;

interface SubmitOptions extends WaitFlags {
  amount?: string;
  dryRun?: boolean;
  yes?: boolean;
  wait?: boolean;
  allowDuplicate?: boolean;
}

async function confirmBids(ctx: CommandContext, bids: PlannedBid[], total: number, opts: SubmitOptions): Promise<boolean> {
  if (opts.yes) return true;
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {
    throw new UsageError('not on a terminal: nothing was sent', 'add --yes to place these bids without a prompt (or --dry-run to check them)');
  }
  const { default: Table } = await import('cli-table3');
  const t = new Table({ head: ['line', 'listing', 'amount'], style: { compact: true } });
  for (const b of bids) t.push([b.line, b.listing_id, b.bid_amount.toFixed(2)]);
  ctx.info(t.toString());
  const { confirm } = await import('@inquirer/prompts');
  return confirm(
    { message: `Place ${bids.length} bid${bids.length > 1 ? 's' : ''} for a total of ${total.toFixed(2)}?`, default: false },
    { input: ctx.io.stdin, output: ctx.io.stderr },
  );
}

/** Adds `submit` to the order command group. */
export function addSubmitCommand(ctx: CommandContext, order: Command): void {
  order
    .command('submit')
    .description('place bids from a CSV file (listing_id or listing_number, bid_amount); - reads standard input')
    .argument('<file>', 'bids CSV, or - for standard input')
    .option('--amount <amount>', 'amount for rows without one')
    .option('--dry-run', 'check the file and each listing against the marketplace; send nothing')
    .option('-y, --yes', 'place the bids without asking (required off a terminal)')
    .option('--wait', 'follow the orders until every bid has a result (see --until)')
    .option('--until <what>', 'with --wait: processed (every bid has a bid_result) or completed (order COMPLETED)', 'processed')
    .option('--timeout <seconds>', 'with --wait: give up after this many seconds', '600')
    .option('--allow-duplicate', 'bid even on listings the journal holds (outcome unknown, PENDING or INVESTED)')
    .action(ctx.action(async (file: string, opts: SubmitOptions): Promise<Output> => {
      const { text, source } = await readInput(ctx.io, file, MAX_BIDS_FILE);
      const bids = await readBids(text, source, opts.amount);
      const total = Math.round(bids.reduce((s, b) => s + b.bid_amount, 0) * 100) / 100;
      if (opts.wait) {
        if (opts.until !== 'processed' && opts.until !== 'completed') throw new UsageError(`--until must be processed or completed, got '${opts.until}'`);
        parseCount('--timeout', opts.timeout, 1);
      }
      const settings = ctx.settings();
      const client = await ctx.api();
      if (opts.dryRun) {
        const { dryRun } = await import('../orders/dry-run.js');
        const report = await dryRun(client, bids, ctx.io.now());
        ctx.info(`${bids.length} bids, total ${total.toFixed(2)}; available cash ${report.cash.toFixed(2)}${report.cash < total ? ' — NOT ENOUGH (ORD0021)' : ''}`);
        if (report.cash < total || report.rows.some((r) => !r.ok)) ctx.exitCode = 2;
        return { kind: 'rows', rows: report.rows, columns: ['line', 'listing_id', 'bid_amount', 'amount_remaining', 'verdict'] };
      }
      const [{ openJournal }, { identifyMarketplace }, { withLock }, submit] = await Promise.all([
        import('../orders/journal.js'), import('../orders/marketplace.js'), import('../lock-file.js'), import('../orders/submit.js'),
      ]);
      // Journal and lock belong to the account the credentials act for, whatever the URL's spelling or the profile.
      const market = await identifyMarketplace(client);
      const { journal, lock } = openJournal(settings.stateDir, settings.profile, market);
      // A submit may hold the lock through a long --wait: only a dead owner makes it stale, never its age.
      return withLock(lock, async (): Promise<Output> => {
        await submit.reconcile(client, journal, market, (l) => ctx.info(l));
        if (!opts.allowDuplicate) await submit.checkDuplicates(client, journal, market, bids, source);
        if (!(await confirmBids(ctx, bids, total, opts))) {
          ctx.info('cancelled: nothing was sent');
          ctx.exitCode = 2;
          return { kind: 'none' };
        }
        const sent = await submit.sendOrders(client, journal, market, bids, (l) => ctx.info(l));
        if (!opts.wait) {
          const rows = sent.flatMap((s) => s.order.bid_requests.map((b) => ({ order_id: s.order.order_id, ...b })));
          return { kind: 'rows', rows, columns: ['order_id', 'listing_id', 'bid_amount', 'bid_status'] };
        }
        const rows = await followOrders(ctx, client, sent.map((s) => s.order.order_id), opts, journal);
        return { kind: 'rows', rows, columns: WAIT_COLUMNS };
      }, {
        timeoutMs: 5000, staleMs: Number.POSITIVE_INFINITY, sleep: ctx.io.sleep,
        busy: (path) => new CliError(
          `another mkt order submit is running for account ${market.account} at ${settings.baseUrl} (from this or another profile); nothing was sent`,
          EXIT.USAGE, `wait for it to finish, or remove ${path} if no mkt process is running`,
        ),
      });
    }));
}
