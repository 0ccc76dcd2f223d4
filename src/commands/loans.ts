/** `mkt loans list|get|payments`: the loans you hold notes in, and what each payment on them brought you. */
import { PAGINATION } from '../contract/enums.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { groupCommand } from './groups.js';
import { acceptBothSpellings, pageQuery, parseCount } from './options.js';

const LOAN_COLUMNS = [
  'loan_number',
  'origination_date',
  'platform_rating',
  'term',
  'borrower_rate',
  'amount_borrowed',
  'principal_balance',
  'loan_status_description',
  'days_past_due',
  'next_payment_due_date',
];

/** An investor's view of a payment: when, which loan, what it brought, how it splits, what is left. */
const PAYMENT_COLUMNS = [
  'transaction_effective_date',
  'loan_number',
  'payment_amount',
  'principal_amount',
  'interest_amount',
  'service_fee_amount',
  'late_fee_amount',
  'resulting_principal_balance',
];

/** Reads `--since`: a day as yyyy-MM-dd (checked before anything is sent). */
export function parseSince(text: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  const day = m === null ? undefined : new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  // Date.UTC rolls a month 13 or a 31 April over into the next: the day read back must be the day written.
  const ok = m !== null && day!.getUTCFullYear() === +m[1]! && day!.getUTCMonth() === +m[2]! - 1 && day!.getUTCDate() === +m[3]!;
  if (!ok) throw new UsageError(`--since must be a date as yyyy-MM-dd, got '${text}'`);
  return text.trim();
}

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
    .action(
      ctx.action(async (opts): Promise<Output> => {
        const q = pageQuery(opts, PAGINATION.loans);
        const [api, client] = await Promise.all([import('../api/loans.js'), ctx.api()]);
        if (opts.all) return { kind: 'stream', items: api.listAll(client, q), columns: LOAN_COLUMNS };
        return { kind: 'page', envelope: await api.list(client, q), columns: LOAN_COLUMNS };
      }),
    );
  acceptBothSpellings(list);
  loans
    .command('get')
    .description('one loan by number')
    .argument('<number>', 'loan number')
    .action(
      ctx.action(async (text): Promise<Output> => {
        const number = parseCount('loan number', text, 1);
        const [api, client] = await Promise.all([import('../api/loans.js'), ctx.api()]);
        return { kind: 'item', item: await api.get(client, number) };
      }),
    );
  const payments = loans
    .command('payments')
    .description('your share of each payment on these loans, newest first as the marketplace sends them')
    .argument('<loan...>', 'loan numbers')
    .option('--since <date>', 'only payments effective on or after this day (yyyy-MM-dd)')
    .option('--all', 'every page, streamed')
    .option('--limit <n>', `payments per page (default ${PAGINATION.payments.default}, maximum ${PAGINATION.payments.max})`)
    .option('--offset <n>', 'index of the first payment')
    .addHelpText(
      'after',
      `
One row per payment per note you hold, your pro-rata share of it (amounts as the marketplace
sends them: decimal strings in -o json, numbers in the table). --since is sent as the
marketplace's transaction_effective_date filter, which takes a date: payments effective on or
after that day.
`,
    )
    .action(
      ctx.action(async (numbers: string[], opts): Promise<Output> => {
        const loanNumbers = numbers
          .flatMap((t) => t.split(','))
          .filter((t) => t.trim() !== '')
          .map((t) => parseCount('loan number', t.trim(), 1));
        const since = opts.since === undefined ? undefined : parseSince(opts.since);
        const { paymentsQuery, list, listAll } = await import('../api/payments.js');
        const q = pageQuery(opts, PAGINATION.payments, paymentsQuery(loanNumbers, since));
        const client = await ctx.api();
        if (opts.all) return { kind: 'stream', items: listAll(client, q), columns: PAYMENT_COLUMNS };
        return { kind: 'page', envelope: await list(client, q), columns: PAYMENT_COLUMNS };
      }),
    );
  acceptBothSpellings(payments);
  return loans;
}
