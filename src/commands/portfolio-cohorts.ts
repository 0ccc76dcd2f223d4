/** `mkt portfolio --by vintage|rating [--period month|quarter|year]`: the notes split into cohorts, apart from the report so either can change alone. */
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { writeOut } from '../io.js';
import type { Output } from '../output/render.js';
import type { CohortNote, CohortReport, Grouping, Period } from '../portfolio/cohorts.js';

/** The columns of `-o csv` (and what `--columns` picks from), in order. */
export const COHORT_COLUMNS = [
  'cohort',
  'notes',
  'cancelled_notes',
  'invested',
  'received',
  'outstanding',
  'expected_loss',
  'defaulted_notes',
  'charged_off_notes',
  'defaulted_principal',
  'charged_off_principal',
  'default_rate_by_count',
  'default_rate_by_principal',
  'charge_off_rate_by_count',
  'charge_off_rate_by_principal',
  'realised_return',
];

/** What --by and --period do, for --help. */
export const COHORT_HELP = `
--by vintage splits the notes by their loan's origination date: a month (yyyy-MM), or with
--period quarter (yyyy-Qn) or year (yyyy). --by rating splits them by rating, best first.
Each cohort: notes (cancelled_notes of them cancelled: counted, never as money), invested
(what the notes cost), received (cash in to the as-of day, net of service and collection
fees, debt-sale proceeds included), outstanding principal at par, expected loss (as above),
defaulted and charged-off notes and the principal they did not repay, the default rate
(defaulted and charged-off notes: _by_count over the notes not cancelled, _by_principal
their unpaid principal over what was invested), the charge-off rate (the same for
charged-off notes alone), and the realised return (the method above, for the cohort's notes
alone; null with realised_return_reason when there is none). Statuses are those of the
as-of day (a past day: read off the payment rows, a note then over 120 days late counting
as defaulted). Money is summed exactly and rounded once: the total is the portfolio's
figure, the cohorts add up to it. Rates are fractions. -o json: {as_of, by, period,
return_method, left_out, cohorts: [...], total}; -o csv: one row per cohort (no total row),
columns as in JSON; -o ndjson: a line per cohort. A terminal also gets a chart.
`;

/** Reads `--by` and `--period` (checked before anything is sent); undefined without --by. */
export function parseGrouping(by: string | undefined, period: string | undefined): Grouping | undefined {
  if (by === undefined) {
    if (period !== undefined) throw new UsageError('--period goes with --by vintage');
    return undefined;
  }
  const b = by.trim().toLowerCase();
  if (b === 'rating') {
    if (period !== undefined) throw new UsageError('--period goes with --by vintage, not --by rating');
    return { by: 'rating' };
  }
  if (b !== 'vintage') throw new UsageError(`--by must be vintage or rating, got '${by}'`);
  const p = (period ?? 'month').trim().toLowerCase();
  if (p !== 'month' && p !== 'quarter' && p !== 'year') throw new UsageError(`--period must be month, quarter or year, got '${period}'`);
  return { by: 'vintage', period: p satisfies Period };
}

/**
 * The cohorts of `entries` (each note with its flows to `asOf`) as the output format wants them: the
 * report in JSON, its cohorts as rows in CSV and ndjson, a table, a legend and (on a terminal) a chart otherwise.
 */
export async function cohortOutput(ctx: CommandContext, g: Grouping, entries: readonly CohortNote[], asOf: number): Promise<Output> {
  const [{ cohortReport }, text] = await Promise.all([import('../portfolio/cohorts.js'), import('../portfolio/cohort-text.js')]);
  const report: CohortReport = cohortReport(entries, g, asOf);
  const rows = report.cohorts.map((c) => ({ ...c }));
  // ndjson is a line per cohort, as csv is a row per cohort; json is the whole report.
  if (ctx.format() === 'ndjson') return { kind: 'rows', rows, columns: COHORT_COLUMNS };
  if (ctx.format() !== 'table') return { kind: 'item', item: { ...report }, table: { rows, columns: COHORT_COLUMNS } };
  const width = ctx.tableWidth() ?? 100;
  const tty = ctx.io.stdoutIsTTY;
  const paint = ctx.color() ? (s: string) => `\x1b[36m${s}\x1b[39m` : undefined;
  const chart = !tty ? [] : g.by === 'vintage' ? await text.vintageChart(report, width) : text.ratingBars(report, width, paint);
  const lines = [`as of ${report.as_of}`, ...text.cohortTable(report, width), '', ...text.cohortLegend(report, width), ...chart];
  await writeOut(ctx.io.stdout, lines.map((l) => `${l}\n`).join(''));
  return { kind: 'none' };
}
