/** `mkt order submit|get|list|listings|journal`: place bids and read orders. */
import { Command } from '@commander-js/extra-typings';
import { PAGINATION } from '../contract/enums.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { groupCommand } from './groups.js';
import type { Output } from '../output/render.js';
import { parseCount } from './options.js';
import { addSubmitCommand } from './order-submit.js';
import { followOrders, WAIT_COLUMNS, type WaitFlags } from './order-wait.js';

const ORDER_COLUMNS = ['order_id', 'order_date', 'order_status', 'order_amount', 'order_amount_placed', 'order_amount_invested'];
const ORDER_LISTING_COLUMNS = ['listing_number', 'status', 'listing_status', 'invested_amount', 'amount_funded', 'percent_funded', 'note_number', 'platform_rating'];

/** The `order` command group. */
export function makeOrderCommand(ctx: CommandContext): Command {
  const order = groupCommand('order');
  addSubmitCommand(ctx, order);

  order
    .command('get')
    .description('one order with the status and result of each bid')
    .argument('<id>', 'order id')
    .option('--wait', 'poll until every bid has a result (see --until)')
    .option('--until <what>', 'with --wait: processed or completed', 'processed')
    .option('--timeout <seconds>', 'with --wait: give up after this many seconds', '600')
    .action(ctx.action(async (id: string, opts: WaitFlags & { wait?: boolean }): Promise<Output> => {
      if (opts.wait && opts.until !== 'processed' && opts.until !== 'completed') throw new UsageError(`--until must be processed or completed, got '${opts.until}'`);
      const [orders, client] = await Promise.all([import('../api/orders.js'), ctx.api()]);
      if (opts.wait) {
        const rows = await followOrders(ctx, client, [id], opts);
        const final = await orders.get(client, id);
        return { kind: 'item', item: final, table: { rows, columns: WAIT_COLUMNS } };
      }
      const o = await orders.get(client, id);
      const rows = o.bid_requests.map((b) => ({ order_id: o.order_id, ...b }));
      return { kind: 'item', item: o, table: { rows, columns: WAIT_COLUMNS } };
    }));

  order
    .command('list')
    .description('your orders, newest first')
    .option('--all', 'every page, streamed')
    .option('--limit <n>', `orders per page (default ${PAGINATION.orders.default}, maximum ${PAGINATION.orders.max})`)
    .option('--offset <n>', 'index of the first order')
    .action(ctx.action(async (opts: { all?: boolean; limit?: string; offset?: string }): Promise<Output> => {
      const limit = opts.limit === undefined ? undefined : parseCount('--limit', opts.limit, 1);
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
    .action(ctx.action(async (id: string, opts: { status?: string; sortBy?: string; limit?: string; offset?: string }): Promise<Output> => {
      const q = new URLSearchParams();
      if (opts.status) q.set('status', opts.status);
      if (opts.sortBy) q.set('sort_by', opts.sortBy);
      if (opts.limit !== undefined) q.set('limit', String(parseCount('--limit', opts.limit, 1)));
      if (opts.offset !== undefined) q.set('offset', String(parseCount('--offset', opts.offset, 0)));
      const [orders, client] = await Promise.all([import('../api/orders.js'), ctx.api()]);
      return { kind: 'page', envelope: await orders.listings(client, id, q), columns: ORDER_LISTING_COLUMNS };
    }));

  order
    .command('journal')
    .description('what was sent for the accounts this profile submits to (by any profile): every order before it was sent and its result after')
    .action(ctx.action(async (): Promise<Output> => {
      const settings = ctx.settings();
      const { profileEntries } = await import('../orders/journal.js');
      // Read from disk only: the journal matters most when the marketplace cannot be reached.
      const rows = profileEntries(settings.stateDir, settings.profile).map((e) => ({
        at: e.at, event: e.t, batch: 'batch' in e ? e.batch : '',
        order_id: 'order_id' in e ? e.order_id : '',
        bids: 'bids' in e ? e.bids.length : '',
        detail: e.t === 'rejected' ? `${e.code ?? e.status}` : e.t === 'lost' ? e.error : e.t === 'intent' ? (e.market ?? e.base_url) : '',
      }));
      return { kind: 'rows', rows, columns: ['at', 'event', 'batch', 'order_id', 'bids', 'detail'] };
    }));
  return order;
}
