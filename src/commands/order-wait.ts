/** Following orders with --wait: progress on stderr, the final per-bid report, exit 6 on a shortfall. */
import type { ApiClient } from '../api/client.js';
import type { CommandContext } from '../context.js';
import type { Journal } from '../orders/journal.js';
import { parseCount } from './options.js';

/** The --wait flags. */
export interface WaitFlags {
  until: string;
  timeout: string;
}

/** Columns of the final report. */
export const WAIT_COLUMNS = ['order_id', 'listing_id', 'bid_amount', 'bid_amount_placed', 'bid_result', 'bid_status'];

/** Waits for each order, records outcomes in the journal (when given), sets exit 6 on a shortfall or timeout. */
export async function followOrders(ctx: CommandContext, client: ApiClient, orderIds: string[], flags: WaitFlags, journal?: Journal): Promise<Record<string, unknown>[]> {
  const [{ waitForOrder, hasShortfall }, { recordOutcome }] = await Promise.all([import('../orders/wait.js'), import('../orders/submit.js')]);
  const until = flags.until as 'processed' | 'completed';
  const timeoutMs = parseCount('--timeout', flags.timeout, 1) * 1000;
  const rows: Record<string, unknown>[] = [];
  const tty = ctx.io.stderrIsTTY;
  for (const id of orderIds) {
    const { order, timedOut } = await waitForOrder(client, id, {
      until, timeoutMs, sleep: ctx.io.sleep, now: ctx.io.now,
      onChange: (line) => (tty ? ctx.io.stderr.write(`\r\x1b[K${line}`) : ctx.info(line)),
    });
    if (tty) ctx.io.stderr.write('\n');
    if (journal) recordOutcome(journal, order);
    if (timedOut) {
      ctx.info(`order ${id}: gave up after ${flags.timeout} s before every bid was ${until}`);
      ctx.exitCode = 6;
    } else if (hasShortfall(order, until)) {
      ctx.exitCode = 6;
    }
    for (const b of order.bid_requests) rows.push({ order_id: order.order_id, ...b });
  }
  if (ctx.exitCode === 6) ctx.info('some bids were not placed or not invested (exit 6)');
  return rows;
}
