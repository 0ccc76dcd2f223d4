/** `mkt portfolio [--as-of DATE]`: the account and every note, summed up, with the net annualised return. */
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { formatDay, parseDay } from '../portfolio/calendar.js';
import { groupCommand } from './groups.js';
import { COHORT_HELP, cohortOutput, parseGrouping } from './portfolio-cohorts.js';

/** The method, for --help (README.md in src/portfolio has it in full). */
export const RETURN_METHOD = `
The net annualised return is the internal rate of return of your own cash flows on notes:
each note's purchase (an outflow on its ownership start date), the payments it received net
of service and collection fees (the notes resource gives totals, so they are dated by the
loan's schedule: origination date plus 1..term months, spread in proportion to the schedule
over the installments paid), and its outstanding principal as a final inflow, written down
by the expected loss of late notes (1-15 days 10%, 16-30 25%, 31-120 50%) and to zero for
defaulted or charged-off ones. Time runs in months; the rate is twelve times the monthly
rate, as loan rates and lender yields are quoted, so a note paying as scheduled returns its
lender yield. JSON: annualized_return is a fraction (0.071 is 7.1%), or null with
annualized_return_reason.
`;

/** Reads `--as-of`: a day as yyyy-MM-dd (checked before anything is sent). */
function parseAsOf(text: string): number {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? parseDay(text.trim()) : null;
  if (day === null) throw new UsageError(`--as-of must be a date as yyyy-MM-dd, got '${text}'`);
  return day;
}

/** The `portfolio` command. */
export function makePortfolioCommand(ctx: CommandContext) {
  return groupCommand('portfolio')
    .option('--as-of <date>', "the return from the flows up to this past date (yyyy-MM-dd); the notes' figures and the account are today's")
    .option('--by <cohort>', 'split the notes into cohorts: vintage (origination month) or rating; see below')
    .option('--period <period>', 'with --by vintage: month (yyyy-MM, the default), quarter (yyyy-Qn) or year (yyyy)')
    .addHelpText('after', RETURN_METHOD + COHORT_HELP)
    .action(ctx.action(async (opts): Promise<Output> => {
      const asOf = opts.asOf === undefined ? undefined : parseAsOf(opts.asOf);
      const grouping = parseGrouping(opts.by, opts.period);
      const [accounts, notesApi, model, { noteFigures }, { required, DecodeError }, { BadAnswerError }, client] = await Promise.all([
        import('../api/accounts.js'), import('../api/notes.js'), import('../portfolio/model.js'), import('../portfolio/figures.js'),
        import('../contract/decode.js'), import('../api/errors.js'), ctx.api(),
      ]);
      const account = await accounts.platform(client);
      const notes = [];
      // The report cannot work without the cash, nor a note without what was invested in it: exit 5, naming the field.
      const readable = <T>(what: string, read: () => T): T => {
        try {
          return read();
        } catch (err) {
          throw err instanceof DecodeError ? new BadAnswerError(what, err) : err;
        }
      };
      readable('account', () => required(account.available_cash_balance, 'answer.available_cash_balance'));
      for await (const n of notesApi.listAll(client, new URLSearchParams())) {
        notes.push(readable('note list', () => noteFigures(n, `note ${n.loan_note_id ?? notes.length + 1}`)));
      }
      const today = model.marketToday(client.marketNow(), notes);
      if (asOf !== undefined && asOf > today) {
        throw new UsageError(`--as-of ${opts.asOf} is after the marketplace's today (${formatDay(today)}): the report cannot look ahead`);
      }
      const cut = asOf ?? today;
      if (grouping !== undefined) {
        // The seam: each note's flows to the cut, here rebuilt from the schedule (payments-based flows plug in the same way).
        const { rebuiltFlows } = await import('../portfolio/cohorts.js');
        return cohortOutput(ctx, grouping, notes.map((note) => ({ note, flows: rebuiltFlows(note, today, cut) })), cut);
      }
      const report = model.portfolioReport(account, notes, today, cut);
      if (ctx.format() !== 'table') return { kind: 'item', item: { ...report } };
      const { portfolioLines } = await import('../portfolio/text.js');
      const color = ctx.color();
      const lines = portfolioLines(report, {
        bars: ctx.io.stdoutIsTTY, width: ctx.tableWidth() ?? 100, ...(color ? { paint: (s: string) => `\x1b[36m${s}\x1b[39m` } : {}),
      });
      const { writeOut } = await import('../io.js');
      await writeOut(ctx.io.stdout, lines.map((l) => `${l}\n`).join(''));
      return { kind: 'none' };
    }));
}
