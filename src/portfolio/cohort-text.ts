/**
 * The cohort report as a person reads it: a table of the cohorts and their total, fitted to the width
 * (the least needed columns dropped first), a legend, and on a terminal a chart: the realised return by
 * vintage as a line (asciichart, as `invest simulate` draws), the default rate by rating as bars.
 */
import type * as AsciiChart from 'asciichart';
import { requireCommonJs } from '../os/require-common-js.js';
import { barLines } from '../output/bars.js';
import { money, percent } from '../output/columns.js';
import { wrapText } from '../output/table.js';
import type { Cohort, CohortReport } from './cohorts.js';

const pct = (x: number | null, places = 1): string => (x === null ? 'n/a' : percent(x, places));

/** A column of the table: its header, its cell, and how much it is needed (lower is kept longer). */
interface Column {
  header: string;
  cell: (c: Cohort) => string;
  need: number;
}

const COLUMNS: readonly Column[] = [
  { header: 'cohort', cell: (c) => c.cohort, need: 0 },
  { header: 'notes', cell: (c) => String(c.notes), need: 1 },
  { header: 'cancelled', cell: (c) => String(c.cancelled_notes), need: 11 },
  { header: 'invested', cell: (c) => money(c.invested), need: 2 },
  { header: 'received', cell: (c) => money(c.received), need: 3 },
  { header: 'outstanding', cell: (c) => money(c.outstanding), need: 7 },
  { header: 'charged off', cell: (c) => money(c.charged_off_principal), need: 6 },
  { header: 'default n', cell: (c) => pct(c.default_rate_by_count), need: 8 },
  { header: 'default $', cell: (c) => pct(c.default_rate_by_principal), need: 5 },
  { header: 'c/o n', cell: (c) => pct(c.charge_off_rate_by_count), need: 10 },
  { header: 'c/o $', cell: (c) => pct(c.charge_off_rate_by_principal), need: 9 },
  { header: 'return', cell: (c) => pct(c.realised_return, 2), need: 4 },
];

const GAP = '  ';

/** The table's lines, `width` columns at most (the cohort name is never dropped); numbers right-aligned. */
export function cohortTable(r: CohortReport, width: number): string[] {
  const rows = [...r.cohorts, r.total];
  // The cancelled column only when there are cancelled notes: most portfolios have none.
  let shown = COLUMNS.filter((col) => col.header !== 'cancelled' || r.total.cancelled_notes > 0)
    .map((col) => ({ ...col, cells: rows.map(col.cell) }))
    .map((col) => ({ ...col, width: Math.max(col.header.length, ...col.cells.map((s) => s.length)) }));
  const total = () => shown.reduce((s, c) => s + c.width, 0) + GAP.length * (shown.length - 1);
  while (total() > width && shown.length > 1) {
    const drop = shown.reduce((a, b) => (b.need > a.need ? b : a));
    shown = shown.filter((c) => c !== drop);
  }
  const line = (cells: string[]): string =>
    cells
      .map((s, i) => (i === 0 ? s.padEnd(shown[0]!.width) : s.padStart(shown[i]!.width)))
      .join(GAP)
      .trimEnd();
  return [line(shown.map((c) => c.header)), ...rows.map((_, k) => line(shown.map((c) => c.cells[k]!)))];
}

/** `text` in lines of at most `width` columns, broken between words. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return line === '' ? lines : [...lines, line];
}

/** What the columns mean, under the table, wrapped to `width`. */
export function cohortLegend(r: CohortReport, width: number): string[] {
  const what = r.by === 'rating' ? 'rating' : `vintage, the loan's origination ${r.period}`;
  const text =
    `cohort: ${what}. invested: what the notes cost (a cancelled note counts in notes and cancelled, not as money: its bid came back). received: cash in to ${r.as_of}, `
    + 'net of fees. outstanding: principal at par. charged off: principal lost to charge-off. default n / $: defaulted and '
    + 'charged-off notes by count / their unpaid principal over what was invested; c/o n / $: the same for charged-off notes '
    + 'alone. return: realised, an effective annual rate (calendar-day XIRR; outstanding principal at par). A rate over nothing is n/a.'
    + (r.left_out > 0 ? ` ${r.left_out} note(s) bought after ${r.as_of} are in no cohort.` : '');
  return wrap(text, Math.max(40, width));
}

/** The realised return of each vintage with one, as a line chart `width` columns wide; none with fewer than two. */
export async function vintageChart(r: CohortReport, width: number): Promise<string[]> {
  const points = r.cohorts.filter((c) => c.realised_return !== null);
  if (points.length < 2) return [];
  const { plot } = requireCommonJs<typeof AsciiChart>('asciichart');
  // Each vintage a step of equal width, so that the line reads as one value per cohort.
  const step = Math.max(1, Math.floor(Math.min(72, width - 16) / points.length));
  const series = points.flatMap((c) => Array<number>(step).fill(c.realised_return! * 100));
  const chart = plot(series, { height: 10, format: (v) => percent(v / 100, 1).padStart(9) });
  const first = points[0]!.cohort;
  const last = points[points.length - 1]!.cohort;
  const axis = `${' '.repeat(11)}${first}${last.padStart(Math.max(last.length + 1, points.length * step - first.length))}`;
  return ['', ...wrapText(`realised return by vintage, ${first} to ${last} (a year)`, width), ...chart.split('\n'), axis];
}

/** The default rate by principal of each rating, as bars `width` columns wide. */
export function ratingBars(r: CohortReport, width: number, paint?: (s: string) => string): string[] {
  if (r.cohorts.length === 0) return [];
  const bars = r.cohorts.map((c) => ({
    label: c.cohort,
    value: c.default_rate_by_principal ?? 0,
    text: `${pct(c.default_rate_by_principal)} of principal, ${c.defaulted_notes + c.charged_off_notes} of ${c.notes - c.cancelled_notes} notes`,
  }));
  // The bars are indented by 2: they get the rest of the line.
  return [
    '',
    ...wrapText('defaulted and charged-off principal by rating', width),
    ...barLines(bars, width - 2, paint).map((l) => `  ${l}`),
  ];
}
