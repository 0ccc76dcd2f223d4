/** `mkt order submit FILE|-`: read and check the bids, then hand them to the order desk. */
import type { Command } from '@commander-js/extra-typings';
import type CliTable3 from 'cli-table3';
import type { CommandContext } from '../context.js';
import { EXIT, UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { readInput } from '../input.js';
import { readBids } from '../orders/bids-file.js';
import type { DeskBid } from '../orders/desk-api.js';
import { WAIT_DEFAULTS } from '../orders/resume.js';
import { requireCommonJs } from '../os/require-common-js.js';
import { progressOn, WAIT_COLUMNS, waitLock, waitPlan } from './order-wait.js';

/** What --columns may pick from the report, checked before any bid is sent (a typo must not cost an order). */
const SUBMIT_FIELDS = [
  ...new Set([...WAIT_COLUMNS, 'order_id', 'listing_id', 'bid_amount', 'bid_status', 'line', 'amount_remaining', 'verdict']),
];

/** Largest bids file read: far beyond any real order book, small enough to hold in memory. */
const MAX_BIDS_FILE = 16 << 20;

async function confirmBids(ctx: CommandContext, bids: readonly DeskBid[], yes: boolean | undefined): Promise<boolean> {
  if (yes) return true;
  const total = Math.round(bids.reduce((s, b) => s + b.bid_amount, 0) * 100) / 100;
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {
    throw new UsageError(
      'not on a terminal: nothing was sent',
      'add --yes to place these bids without a prompt (or --dry-run to check them)',
    );
  }
  const Table = requireCommonJs<typeof CliTable3>('cli-table3');
  const { money } = await import('../output/columns.js');
  const t = new Table({ head: ['line', 'listing', 'amount'], style: { compact: true } });
  for (const b of bids) t.push([b.line ?? '', b.listing_id, money(b.bid_amount)]);
  ctx.info(t.toString());
  const { confirm } = await import('@inquirer/prompts');
  return confirm(
    { message: `Place ${bids.length} bid${bids.length > 1 ? 's' : ''} for a total of ${money(total)}?`, default: false },
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
    .option('--until <what>', 'with --wait: processed (every bid has a bid_result) or completed (order COMPLETED)', WAIT_DEFAULTS.until)
    .option('--timeout <seconds>', 'with --wait: give up after this many seconds', String(WAIT_DEFAULTS.timeoutSeconds))
    .option(
      '--wait-lock <seconds>',
      'wait up to this many seconds for another submit or invest run on the account to finish (default: exit 2 at once, sending nothing)',
    )
    .option(
      '--skip-held',
      'leave out listings the journal or the marketplace already holds (a pending or placed bid, money in it) and place the rest',
    )
    .option(
      '--allow-duplicate',
      'bid even on listings already held (journal: outcome unknown, PENDING or INVESTED; marketplace: a bid or money in it)',
    )
    .action(
      ctx.action(async (file, opts): Promise<Output> => {
        if (opts.skipHeld && opts.allowDuplicate)
          throw new UsageError(
            '--skip-held and --allow-duplicate contradict each other: nothing was sent',
            'use --skip-held to leave held listings out, or --allow-duplicate to bid on them again',
          );
        const { text, source } = await readInput(ctx.io, file, MAX_BIDS_FILE);
        const bids = await readBids(text, source, opts.amount);
        const wait = opts.wait ? waitPlan(opts, ctx.settings().profile) : undefined;
        const waitLockMs = waitLock(opts.waitLock);
        const settings = ctx.settings();
        const [client, { deskWindows }] = await Promise.all([ctx.api(), import('../config/timeouts.js')]);
        const setting = {
          stateDir: settings.stateDir,
          profile: settings.profile,
          clock: ctx.io,
          info: (l: string) => ctx.info(l),
          // An order accepted is in the rows on stdout: said on a terminal (or --progress), not mailed by cron.
          progress: (l: string) => ctx.progress(l),
          holder: 'order submit or invest run',
          waitLockMs,
          ...deskWindows(ctx.io.env),
        };
        if (opts.dryRun) {
          const [{ dryRun }, { openDeskToRead }] = await Promise.all([import('../orders/dry-run.js'), import('../orders/open-desk.js')]);
          // What the run would refuse as held, asked as the run asks it (--allow-duplicate asks nothing).
          const reasons = opts.allowDuplicate ? new Map<number, string>() : await (await openDeskToRead(client, setting)).review(bids);
          const report = await dryRun(client, bids, () => client.marketNow(), { reasons, skip: opts.skipHeld === true });
          const sent = bids.filter((b) => !(opts.skipHeld && reasons.has(b.listing_id)) && !report.unbiddable.has(b.listing_id));
          const { money } = await import('../output/columns.js');
          ctx.info(
            `${sent.length} bid${sent.length === 1 ? '' : 's'}, total ${money(report.total)}; available cash ${money(report.cash)}${report.cash < report.total ? ' — NOT ENOUGH (ORD0021)' : ''}`,
          );
          if (reasons.size > 0 && !opts.skipHeld) {
            ctx.info(
              `${reasons.size} bid${reasons.size > 1 ? 's' : ''} on listings already held: the run would refuse the file and send nothing (exit 2); --skip-held places the others`,
            );
          }
          if (report.cash < report.total || report.rows.some((r) => !r.ok)) ctx.exitCode = EXIT.USAGE;
          return { kind: 'rows', rows: report.rows, columns: ['line', 'listing_id', 'bid_amount', 'amount_remaining', 'verdict'] };
        }
        const { openDesk } = await import('../orders/open-desk.js');
        const desk = await openDesk(client, setting);
        const placed = await desk.place(bids, {
          source,
          allowDuplicate: opts.allowDuplicate,
          skipHeld: opts.skipHeld,
          confirm: (toSend) => confirmBids(ctx, toSend, opts.yes),
          ...(wait ? { wait: { ...wait, progress: progressOn(ctx) } } : {}),
        });
        ctx.exitCode = placed.exitCode;
        if (placed.verdict === 'cancelled') return { kind: 'none' };
        return { kind: 'rows', rows: placed.rows, columns: wait ? WAIT_COLUMNS : ['order_id', 'listing_id', 'bid_amount', 'bid_status'] };
      }, SUBMIT_FIELDS),
    );
}
