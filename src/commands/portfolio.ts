/** `mkt portfolio [--as-of DATE]`: the account and every note, summed up, with the realised and expected returns from the payments. */
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import type { Portfolio } from '../portfolio/model.js';
import { formatDay, parseDay } from '../portfolio/calendar.js';
import { groupCommand } from './groups.js';
import type { Grouping } from '../portfolio/cohorts.js';
import { COHORT_HELP, cohortOutput, parseGrouping } from './portfolio-cohorts.js';

/** The method, for --help (README.md in src/portfolio and src/flows have it in full). */
export const RETURN_METHOD = `
Two returns, each the internal rate of return of your own cash flows on notes: each note's
purchase (an outflow on its ownership start date), every payment it received, dated as the
payments resource (GET /loans/payments) dates it, net of service and collection fees, and
its outstanding principal as a final inflow at the as-of date:
  realised  cash in and out to date, the outstanding principal at its written-down value:
            at par, nothing once the loan was charged off.
  expected  the same, the outstanding principal at par less the expected loss of its days
            past due at the date: 1-15 days 10%, 16-30 25%, 31-120 50%, over 120 all of it.
Days past due come from the payments (from the last payment that left the loan current,
the next due date on the loan's calendar). A note the payments resource has nothing for,
though its figures show money received, is rebuilt from its loan's schedule instead (the
report says how many). Time runs in months; a rate is twelve times the monthly rate, as
loan rates and lender yields are quoted, so a note paying as scheduled returns its lender
yield. --as-of uses the payments up to that day: a true historical view of the returns and
of what was received (the account, note counts and splits stay today's).
JSON: realised_return and expected_return are fractions (0.071 is 7.1%) or null with
annualized_return_reason / expected_return_reason; annualized_return is the realised one.
`;

/** Reads `--as-of`: a day as yyyy-MM-dd (checked before anything is sent). */
function parseAsOf(text: string): number {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? parseDay(text.trim()) : null;
  if (day === null) throw new UsageError(`--as-of must be a date as yyyy-MM-dd, got '${text}'`);
  return day;
}

/** The notes, the marketplace's today and each note's payments (its ledger), up to `asOf` checked against today. */
async function ledgersAt(ctx: CommandContext, asOf: number | undefined, asOfText: string | undefined) {
  const [model, gather, client] = await Promise.all([import('../portfolio/model.js'), import('../flows/gather.js'), ctx.api()]);
  const notes = await gather.readNotes(client);
  const today = model.marketToday(client.marketNow(), notes);
  if (asOf !== undefined && asOf > today) {
    throw new UsageError(`--as-of ${asOfText} is after the marketplace's today (${formatDay(today)}): the report cannot look ahead`);
  }
  const rows = await gather.readPayments(client, notes.map((n) => n.loan_number));
  const { noteLedgers } = await import('../flows/note-ledger.js');
  return { client, model, gather, notes, today, ledgers: noteLedgers(notes, rows) };
}

/** The report at `asOf` (default: the marketplace's today) from the account, the notes and their payments. */
async function reportAt(ctx: CommandContext, asOf: number | undefined, asOfText: string | undefined): Promise<Portfolio> {
  const [accounts, { required }] = await Promise.all([import('../api/accounts.js'), import('../contract/decode.js')]);
  const { client, model, gather, notes, today, ledgers } = await ledgersAt(ctx, asOf, asOfText);
  const account = await accounts.platform(client);
  // The report cannot work without the cash, nor a note without what was invested in it: exit 5, naming the field.
  gather.readable('account', () => required(account.available_cash_balance, 'answer.available_cash_balance'));
  return model.portfolioReport(account, notes, today, asOf ?? today, ledgers);
}

/** The notes split into cohorts at `asOf`, each note's flows from its payments (rebuilt from the schedule where there are none). */
async function cohortsAt(ctx: CommandContext, grouping: Grouping, asOf: number | undefined, asOfText: string | undefined): Promise<Output> {
  const { today, ledgers } = await ledgersAt(ctx, asOf, asOfText);
  const cut = asOf ?? today;
  const { ledgerFlows } = await import('../portfolio/cohorts.js');
  return cohortOutput(ctx, grouping, ledgers.map((l) => ({ note: l.note, flows: ledgerFlows(l, today, cut) })), cut);
}

/** The `portfolio` command. */
export function makePortfolioCommand(ctx: CommandContext) {
  return groupCommand('portfolio')
    .option('--as-of <date>', "the returns and what was received from the payments up to this past date (yyyy-MM-dd); the account and the notes' counts are today's")
    .option('--by <cohort>', 'split the notes into cohorts: vintage (origination month) or rating; see below')
    .option('--period <period>', 'with --by vintage: month (yyyy-MM, the default), quarter (yyyy-Qn) or year (yyyy)')
    .addHelpText('after', RETURN_METHOD + COHORT_HELP)
    .action(ctx.action(async (opts): Promise<Output> => {
      const asOf = opts.asOf === undefined ? undefined : parseAsOf(opts.asOf);
      const grouping = parseGrouping(opts.by, opts.period);
      if (grouping !== undefined) return cohortsAt(ctx, grouping, asOf, opts.asOf);
      const report = await reportAt(ctx, asOf, opts.asOf);
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
