/** `mkt portfolio [--as-of DATE]`: the account and every note, summed up, with the realised and expected returns from the payments. */
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import type { Portfolio } from '../portfolio/model.js';
import { formatDay, parseDay } from '../contract/calendar.js';
import { groupCommand } from './groups.js';
import type { Grouping } from '../portfolio/cohorts.js';
import { COHORT_HELP, cohortOutput, parseGrouping } from './portfolio-cohorts.js';

/** The method, for --help (README.md in src/portfolio and src/flows have it in full). */
export const RETURN_METHOD = `
Two returns, each the internal rate of return of your own cash flows on notes: each note's
purchase (an outflow on its ownership start date), every payment it received, dated as the
payments resource (GET /loans/payments) dates it, net of service and collection fees, and
its outstanding principal as a final inflow at the as-of date:
  realised  cash in and out to date, the outstanding principal at par (nothing once the
            loan was charged off).
  expected  the same, the outstanding principal less its expected loss by status: 1-15
            days late 10%, 16-30 25%, 31-120 50%; over 120 days late, defaulted or charged
            off all of it; current, paid, not yet originated or cancelled nothing.
Each is an effective annual rate by calendar-day XIRR: the r with
  sum of a_i * (1+r)^(-d_i/365) = 0,  d_i the days from the first flow,
what a bank's APY or a spreadsheet's XIRR gives. Beside it, labelled nominal: twelve times
the monthly IRR, as loan rates and lender yields are quoted (a note paying on schedule
returns its lender yield as the nominal rate, a little more as the effective one).
Days past due are the marketplace's (each note's days_past_due); only a note sent without
them, or a past --as-of date, has them re-derived from its payment rows, and the report
counts those. A note not yet originated is pending: never written off, not in the returns
until its loan is made. A cancelled note (its bid came back) counts as a note, never as
money. A note the payments resource has nothing for, though its figures show money
received, is rebuilt from its loan's schedule (the report says how many).
--as-of DATE shows what the notes and their payment rows tell of that day: the notes bought
by then, what they had received and left outstanding, their status then, the returns. The
account's cash, pending bids and value are today's only: null (n/a), named in
not_known_at_as_of.
JSON: realised_return and expected_return are effective annual rates as fractions (0.071 is
7.1%) or null with annualized_return_reason / expected_return_reason; annualized_return is
the realised one; realised_return_nominal and expected_return_nominal the nominal ones;
return_method names the method.
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
  const rows = await gather.readPayments(
    client,
    notes.map((n) => n.loan_number),
  );
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
  return cohortOutput(
    ctx,
    grouping,
    ledgers.map((l) => ({ note: l.note, flows: ledgerFlows(l, today, cut) })),
    cut,
  );
}

/** The `portfolio` command. */
export function makePortfolioCommand(ctx: CommandContext) {
  return groupCommand('portfolio')
    .option(
      '--as-of <date>',
      "the portfolio on this past date (yyyy-MM-dd), from the notes and their payments up to it; the account's cash and value are today's only",
    )
    .option('--by <cohort>', 'split the notes into cohorts: vintage (origination month) or rating; see below')
    .option('--period <period>', 'with --by vintage: month (yyyy-MM, the default), quarter (yyyy-Qn) or year (yyyy)')
    .addHelpText('after', RETURN_METHOD + COHORT_HELP)
    .action(
      ctx.action(async (opts): Promise<Output> => {
        const asOf = opts.asOf === undefined ? undefined : parseAsOf(opts.asOf);
        const grouping = parseGrouping(opts.by, opts.period);
        if (grouping !== undefined) return cohortsAt(ctx, grouping, asOf, opts.asOf);
        const report = await reportAt(ctx, asOf, opts.asOf);
        if (ctx.format() !== 'table') return { kind: 'item', item: { ...report } };
        const { portfolioLines } = await import('../portfolio/text.js');
        const color = ctx.color();
        const lines = portfolioLines(report, {
          bars: ctx.io.stdoutIsTTY,
          width: ctx.tableWidth() ?? 100,
          ...(color ? { paint: (s: string) => `\x1b[36m${s}\x1b[39m` } : {}),
        });
        const { writeOut } = await import('../io.js');
        await writeOut(ctx.io.stdout, lines.map((l) => `${l}\n`).join(''));
        return { kind: 'none' };
      }),
    );
}
