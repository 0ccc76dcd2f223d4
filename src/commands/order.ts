/** `mkt order submit|get|list|listings|journal`: place bids and read orders. */
import { Command } from '@commander-js/extra-typings';
import { PAGINATION } from '../contract/enums.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../errors.js';
import type { Output } from '../output/render.js';
import { groupCommand } from './groups.js';
import { checkOrderId, pageQuery, parseCount, parseLimit } from './options.js';
import { addSubmitCommand } from './order-submit.js';
import { progressOn, WAIT_COLUMNS, waitPlan } from './order-wait.js';

const ORDER_COLUMNS = ['order_id', 'order_date', 'order_status', 'order_amount', 'order_amount_placed', 'order_amount_invested'];
const ORDER_LISTING_COLUMNS = ['listing_number', 'status', 'listing_status', 'invested_amount', 'amount_funded', 'percent_funded', 'note_number', 'platform_rating'];

/** The `order` command group, typed by its definitions. */
export function orderCommand(ctx: CommandContext): Command {
  const order = groupCommand('order');
  addSubmitCommand(ctx, order);

  order
    .command('get')
    .description('one order with the status and result of each bid')
    .argument('<id>', 'order id')
    .option('--wait', 'poll until every bid has a result (see --until)')
    .option('--until <what>', 'with --wait: processed or completed', 'processed')
    .option('--timeout <seconds>', 'with --wait: give up after this many seconds', '600')
    .action(ctx.action(async (id, opts): Promise<Output> => {
      checkOrderId(id);
      const wait = opts.wait ? waitPlan(opts) : undefined;
      const [orders, { followOrders, bidRows }, client] = await Promise.all([import('../api/orders.js'), import('../orders/wait.js'), ctx.api()]);
      if (wait) {
        const { rows, incomplete } = await followOrders([id], wait, {
          get: (orderId) => orders.get(client, orderId), clock: ctx.io, progress: progressOn(ctx), info: (l) => ctx.info(l),
        });
        if (incomplete) ctx.exitCode = EXIT.INCOMPLETE;
        const final = await orders.get(client, id);
        return { kind: 'item', item: final, table: { rows, columns: WAIT_COLUMNS } };
      }
      const o = await orders.get(client, id);
      return { kind: 'item', item: o, table: { rows: bidRows(o), columns: WAIT_COLUMNS } };
    }));

  order
    .command('list')
    .description('your orders, newest first')
    .option('--all', 'every page, streamed')
    .option('--limit <n>', `orders per page (default ${PAGINATION.orders.default}, maximum ${PAGINATION.orders.max})`)
    .option('--offset <n>', 'index of the first order')
    .action(ctx.action(async (opts): Promise<Output> => {
      const limit = opts.limit === undefined ? undefined : parseLimit(opts.limit, PAGINATION.orders);
      const offset = opts.offset === undefined ? 0 : parseCount('--offset', opts.offset, 0);
      const [orders, client] = await Promise.all([import('../api/orders.js'), ctx.api()]);
      if (opts.all) return { kind: 'stream', items: orders.listAll(client), columns: ORDER_COLUMNS };
      return { kind: 'page', envelope: await orders.list(client, offset, limit), columns: ORDER_COLUMNS };
    }));

  order
    .command('listings')
    .description('the listings within one order')
    .argument('<id>', 'order id')
    .option('--status <status>', 'only listings with this status within the order (e.g. INVESTED)')
    .option('--sort-by <clauses>', "e.g. 'listing_number desc'")
    .option('--limit <n>', 'listings per page (default and maximum 100)')
    .option('--offset <n>', 'index of the first listing')
    .action(ctx.action(async (id, opts): Promise<Output> => {
      checkOrderId(id);
      const q = pageQuery(opts, PAGINATION.orderListings);
      if (opts.status) q.set('status', opts.status);
      const [orders, client] = await Promise.all([import('../api/orders.js'), ctx.api()]);
      return { kind: 'page', envelope: await orders.listings(client, id, q), columns: ORDER_LISTING_COLUMNS };
    }));

  order
    .command('journal')
    .description('what was sent for the accounts this profile submits to (by any profile): every order before it was sent and its result after')
    .action(ctx.action(async (): Promise<Output> => {
      const settings = ctx.settings();
      const [{ journalRows }, { checkProfileJournals }] = await Promise.all([import('../orders/open-desk.js'), import('../state-files.js')]);
      checkProfileJournals(settings.stateDir, settings.profile);
      return { kind: 'rows', rows: journalRows(settings.stateDir, settings.profile), columns: ['at', 'event', 'batch', 'order_id', 'bids', 'detail'] };
    }));
  return order;
}

