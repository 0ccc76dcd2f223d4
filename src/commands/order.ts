/** `mkt order submit|get|list|listings|journal`: place bids and read orders. */
import type { Command } from '@commander-js/extra-typings';
import { PAGINATION } from '../contract/enums.js';
import type { CommandContext } from '../context.js';
import { EXIT, UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { WAIT_DEFAULTS } from '../orders/resume.js';
import { groupCommand } from './groups.js';
import { checkOrderId, pageQuery, parseCount, parseLimit } from './options.js';
import { addSubmitCommand } from './order-submit.js';
import { progressOn, WAIT_COLUMNS, waitPlan } from './order-wait.js';

const ORDER_COLUMNS = ['order_id', 'order_date', 'order_status', 'order_amount', 'order_amount_placed', 'order_amount_invested'];
const JOURNAL_CHECK_COLUMNS = ['file', 'line', 'problem', 'fatal'];
const ORDER_LISTING_COLUMNS = [
  'listing_number',
  'status',
  'listing_status',
  'invested_amount',
  'amount_funded',
  'percent_funded',
  'note_number',
  'platform_rating',
];

/** The `order` command group, typed by its definitions. */
export function orderCommand(ctx: CommandContext): Command {
  const order = groupCommand('order');
  addSubmitCommand(ctx, order);

  order
    .command('get')
    .description('one order with the status and result of each bid')
    .argument('<id>', 'order id')
    .option('--wait', 'poll until every bid has a result (see --until)')
    .option('--until <what>', 'with --wait: processed or completed', WAIT_DEFAULTS.until)
    .option('--timeout <seconds>', 'with --wait: give up after this many seconds', String(WAIT_DEFAULTS.timeoutSeconds))
    .action(
      ctx.action(async (id, opts): Promise<Output> => {
        checkOrderId(id);
        const wait = opts.wait ? waitPlan(opts, ctx.settings().profile) : undefined;
        const [orders, { followOrders, bidRows }, client] = await Promise.all([
          import('../api/orders.js'),
          import('../orders/wait.js'),
          ctx.api(),
        ]);
        if (wait) {
          const { clockWatchOf } = await import('../orders/open-desk.js');
          const { rows, incomplete } = await followOrders([id], wait, {
            get: (orderId) => orders.get(client, orderId),
            watch: clockWatchOf(client),
            clock: ctx.io,
            progress: progressOn(ctx),
            info: (l) => ctx.info(l),
          });
          if (incomplete) ctx.exitCode = EXIT.INCOMPLETE;
          const final = await orders.get(client, id);
          return { kind: 'item', item: final, table: { rows, columns: WAIT_COLUMNS } };
        }
        const o = await orders.get(client, id);
        return { kind: 'item', item: o, table: { rows: bidRows(o), columns: WAIT_COLUMNS } };
      }),
    );

  order
    .command('list')
    .description('your orders, newest first')
    .option('--all', 'every page, streamed')
    .option('--limit <n>', `orders per page (default ${PAGINATION.orders.default}, maximum ${PAGINATION.orders.max})`)
    .option('--offset <n>', 'index of the first order')
    .action(
      ctx.action(async (opts): Promise<Output> => {
        const limit = opts.limit === undefined ? undefined : parseLimit(opts.limit, PAGINATION.orders);
        const offset = opts.offset === undefined ? 0 : parseCount('--offset', opts.offset, 0);
        const [orders, client] = await Promise.all([import('../api/orders.js'), ctx.api()]);
        if (opts.all) return { kind: 'stream', items: orders.listAll(client), columns: ORDER_COLUMNS };
        return { kind: 'page', envelope: await orders.list(client, offset, limit), columns: ORDER_COLUMNS };
      }),
    );

  order
    .command('listings')
    .description('the listings within one order')
    .argument('<id>', 'order id')
    .option('--status <status>', 'only listings with this status within the order (e.g. INVESTED)')
    .option('--sort-by <clauses>', "e.g. 'listing_number desc'")
    .option('--limit <n>', 'listings per page (default and maximum 100)')
    .option('--offset <n>', 'index of the first listing')
    .action(
      ctx.action(async (id, opts): Promise<Output> => {
        checkOrderId(id);
        const q = pageQuery(opts, PAGINATION.orderListings);
        if (opts.status) q.set('status', opts.status);
        const [orders, client] = await Promise.all([import('../api/orders.js'), ctx.api()]);
        return { kind: 'page', envelope: await orders.listings(client, id, q), columns: ORDER_LISTING_COLUMNS };
      }),
    );

  order
    .command('journal')
    .description(
      'what was sent for the accounts this profile submits to (by any profile): every order before it was sent and its result after',
    )
    .option('--check', 'read every journal whole: exit 2 naming each damaged line (bad bytes, not UTF-8, a failed checksum)')
    .option(
      '--repair',
      'keep a copy of each damaged journal beside it, cut it at its first damaged line, then record what the marketplace holds',
    )
    .action(
      ctx.action(
        async (opts): Promise<Output> => {
          const settings = ctx.settings();
          const [desks, { checkProfileJournals }] = await Promise.all([import('../orders/open-desk.js'), import('../state-files.js')]);
          // A state directory that is a file, or a FIFO or device where a journal should be, is named before anything is read.
          checkProfileJournals(settings.stateDir, settings.profile);
          const setting = {
            stateDir: settings.stateDir,
            profile: settings.profile,
            clock: ctx.io,
            info: (l: string) => ctx.info(l),
            holder: 'order submit or invest run',
          };
          if (opts.check && opts.repair)
            throw new UsageError('--check and --repair are two runs: pick one', 'run --check first to see what --repair would cut');
          if (opts.check) {
            const problems = desks.checkJournals(settings.stateDir, settings.profile);
            const fatal = problems.filter((p) => p.fatal).length;
            ctx.info(
              fatal === 0
                ? 'the journal reads whole: nothing damaged'
                : `${fatal} damaged line${fatal > 1 ? 's' : ''}: \`mkt order journal --repair\` keeps a copy and cuts at the first`,
            );
            if (fatal > 0) ctx.exitCode = EXIT.USAGE;
            return { kind: 'rows', rows: problems, columns: JOURNAL_CHECK_COLUMNS };
          }
          if (opts.repair) {
            const cuts = await desks.cutDamagedJournals(setting);
            for (const c of cuts)
              ctx.info(
                `${c.path}: cut at line ${c.bad.line} (${c.bad.what}), ${c.dropped} line${c.dropped === 1 ? '' : 's'} dropped; the whole file is kept as ${c.copy}`,
              );
            if (cuts.length === 0) ctx.info('no damaged line: nothing was cut');
            // What a cut dropped may have been bids still pending: the marketplace says which, and the journal records them again.
            const { deskWindows } = await import('../config/timeouts.js');
            const desk = await desks.openDesk(await ctx.api(), { ...setting, ...deskWindows(ctx.io.env) });
            ctx.info('asking the marketplace which orders still hold listings…');
            const adopted = await desk.session(() => desk.adoptOpenOrders());
            ctx.info(
              adopted === 0
                ? 'the journal already records every order with a pending bid'
                : `recorded ${adopted} order${adopted > 1 ? 's' : ''} the journal had lost`,
            );
            const rows = cuts.map((c) => ({ file: c.path, line: c.bad.line, problem: c.bad.what, copy: c.copy, dropped_lines: c.dropped }));
            return { kind: 'rows', rows, columns: ['file', 'line', 'problem', 'copy', 'dropped_lines'] };
          }
          const damaged = desks.checkJournals(settings.stateDir, settings.profile).filter((p) => p.fatal);
          for (const p of damaged)
            ctx.info(`warning: ${p.file} line ${p.line}: ${p.problem} (left out below; see \`mkt order journal --check\`)`);
          return {
            kind: 'rows',
            rows: desks.journalRows(settings.stateDir, settings.profile),
            columns: ['at', 'event', 'batch', 'order_id', 'bids', 'detail'],
          };
        },
        ['at', 'event', 'batch', 'order_id', 'bids', 'detail', ...JOURNAL_CHECK_COLUMNS, 'copy', 'dropped_lines'],
      ),
    );
  return order;
}
