/** `mkt loans list|get`: the loans you hold notes in. */
import { PAGINATION } from '../contract/enums.js';
import type { CommandContext } from '../context.js';
import type { Output } from '../output/render.js';
import { groupCommand } from './groups.js';
import { acceptBothSpellings, pageQuery, parseCount } from './options.js';

const LOAN_COLUMNS = [
  'loan_number', 'origination_date', 'platform_rating', 'term', 'borrower_rate', 'amount_borrowed', 'principal_balance',
  'loan_status_description', 'days_past_due', 'next_payment_due_date',
];

/** The `loans` command group. */
export function makeLoansCommand(ctx: CommandContext) {
  const loans = groupCommand('loans');
  const list = loans
    .command('list')
    .description('your loans (default: newest origination first)')
    .option('--all', 'every page, streamed')
    .option('--sort-by <clause>', "e.g. 'origination_date desc' or 'principal_balance asc'")
    .option('--limit <n>', `loans per page (default and maximum ${PAGINATION.loans.max})`)
    .option('--offset <n>', 'index of the first loan')
    .action(ctx.action(async (opts): Promise<Output> => {
      const q = pageQuery(opts, PAGINATION.loans);
      const [api, client] = await Promise.all([import('../api/loans.js'), ctx.api()]);
      if (opts.all) return { kind: 'stream', items: api.listAll(client, q), columns: LOAN_COLUMNS };
      return { kind: 'page', envelope: await api.list(client, q), columns: LOAN_COLUMNS };
    }));
  acceptBothSpellings(list);
  loans
    .command('get')
    .description('one loan by number')
    .argument('<number>', 'loan number')
    .action(ctx.action(async (text): Promise<Output> => {
      const number = parseCount('loan number', text, 1);
      const [api, client] = await Promise.all([import('../api/loans.js'), ctx.api()]);
      return { kind: 'item', item: await api.get(client, number) };
    }));
  return loans;
}
