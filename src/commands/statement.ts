/** `mkt statement --year YYYY | --from DATE [--to DATE]`: what each note's payments brought in a period, and the losses. */
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { parseDay } from '../contract/calendar.js';
import { groupCommand } from './groups.js';

/** The columns, for --help (README.md has the same words). */
export const STATEMENT_HELP = `
Every figure comes from the payments resource (GET /loans/payments): the rows dated in the
period (the day of their transaction_effective_date as the answer writes it: in --timezone
when given), your share of each payment, apportioned to your notes by ownership when you
hold several of one loan. Totals are exact sums of the rows.

Columns (one line per note that had a payment, loss or sale in the period; the last line,
TOTAL, is their sum — leave it out when you add a column up yourself):
  loan_note_id, loan_number  the note and its loan
  payments              payment rows in the period
  interest_received     interest paid by the borrower to you (before fees)
  late_fees_received    late fees passed on to you
  service_fees_paid     the marketplace's servicing fee taken from your payments
  collection_fees_paid  collection agency fees taken on a delinquent or charged-off loan
  principal_received    principal repaid (a return of your money, not income)
  principal_lost        principal written off when the loan was charged off in the period
  loss_date             the day of that charge-off (yyyy-MM-dd)
  sale_proceeds         what a sale of the note in the period brought, net of its fees
  net_cash              principal + interest + late fees - service and collection fees + sale

For interest income a tax preparer usually asks for interest_received and late_fees_received
(with the fees paid beside them); for losses, principal_lost and loss_date per note.
A record of the flows the marketplace reported, not tax advice.
`;

/** A day as yyyy-MM-dd, or a usage error naming the option. */
function dayOption(name: string, text: string): number {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? parseDay(text.trim()) : null;
  if (day === null) throw new UsageError(`${name} must be a date as yyyy-MM-dd, got '${text}'`);
  return day;
}

/** The period asked for: `--year`, or `--from` and `--to` (default: the marketplace's today); null `to` means today. */
export function period(opts: { year?: string; from?: string; to?: string }): { from: number; to: number | null } {
  if (opts.year !== undefined) {
    if (opts.from !== undefined || opts.to !== undefined) throw new UsageError('give --year, or --from and --to, not both');
    if (!/^\d{4}$/.test(opts.year.trim())) throw new UsageError(`--year must be a year as yyyy, got '${opts.year}'`);
    const y = Number(opts.year.trim());
    return { from: Date.UTC(y, 0, 1), to: Date.UTC(y, 11, 31) };
  }
  if (opts.from === undefined) throw new UsageError('say which period: --year yyyy, or --from yyyy-MM-dd [--to yyyy-MM-dd]');
  const from = dayOption('--from', opts.from);
  const to = opts.to === undefined ? null : dayOption('--to', opts.to);
  if (to !== null && to < from) throw new UsageError(`--to ${opts.to} is before --from ${opts.from}`);
  return { from, to };
}

/** The `statement` command. */
export function makeStatementCommand(ctx: CommandContext) {
  return groupCommand('statement')
    .option('--year <yyyy>', 'the calendar year (1 January to 31 December)')
    .option('--from <date>', 'the first day of the period (yyyy-MM-dd)')
    .option('--to <date>', "the last day of the period (yyyy-MM-dd; default: the marketplace's today)")
    .addHelpText('after', STATEMENT_HELP)
    .action(
      ctx.action(async (opts): Promise<Output> => {
        const asked = period(opts);
        const [{ readLedgers }, { statement, STATEMENT_COLUMNS }, { formatDay }, client] = await Promise.all([
          import('../flows/gather.js'),
          import('../flows/statement.js'),
          import('../contract/calendar.js'),
          ctx.api(),
        ]);
        const ledgers = await readLedgers(client);
        const now = new Date(client.marketNow());
        const to = asked.to ?? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
        const s = statement(ledgers, asked.from, to);
        if (ctx.format() === 'table' || ctx.format() === 'csv') {
          const { writeOut } = await import('../io.js');
          const missing = s.notes_without_payments.length;
          const gap =
            missing === 0
              ? ''
              : `; ${missing} note(s) with money received but no payment rows are not in it (${s.notes_without_payments.slice(0, 5).join(', ')}${missing > 5 ? ', …' : ''})`;
          await writeOut(ctx.io.stderr, `statement ${s.from} to ${formatDay(to)}: ${s.notes.length} note(s)${gap}.\n${s.notice}\n`);
        }
        return {
          kind: 'item',
          item: { ...s },
          table: { rows: [...s.notes, s.total].map((l) => ({ ...l })), columns: [...STATEMENT_COLUMNS] },
        };
      }),
    );
}
