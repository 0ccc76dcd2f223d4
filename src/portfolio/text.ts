/**
 * The portfolio report as a person reads it: the figures, then the split by status and by rating, as
 * horizontal bars on a terminal and as plain aligned rows elsewhere.
 */
import { barLines } from '../output/bars.js';
import { money, percent } from '../output/columns.js';
import { wrapText } from '../output/table.js';
import type { StatusBucket } from '../flows/expected-loss.js';
import type { Bucket, Portfolio } from './model.js';

/** How buckets are named in text. */
export const STATUS_LABELS: Readonly<Record<StatusBucket, string>> = {
  current: 'current',
  late_1_15: '1–15 days late',
  late_16_30: '16–30 days late',
  late_31_120: '31–120 days late',
  late_over_120: 'over 120 days late',
  charged_off: 'charged off',
  defaulted: 'defaulted',
  paid_in_full: 'paid in full',
  pending: 'not yet originated',
  cancelled: 'cancelled',
};

const pct = (x: number): string => percent(x, 1);

/** The annualised (realised) return as text: a percentage, or n/a with the reason. */
export function returnText(p: Pick<Portfolio, 'annualized_return' | 'annualized_return_reason' | 'realised_return_nominal'>): string {
  return rateText(p.annualized_return, p.annualized_return_reason, p.realised_return_nominal);
}

/** A return as text: the effective annual rate and the nominal one beside it, or n/a with the reason. */
function rateText(rate: number | null, reason: string | null, nominal: number | null): string {
  if (rate === null) return `n/a (${reason})`;
  const beside = nominal === null ? '' : `; ${percent(nominal)} nominal (12 × monthly)`;
  return `${percent(rate)} a year, effective (net, XIRR)${beside}`;
}

/** Where the notes' flows and days past due came from: the payments, the schedule, the marketplace. */
function sourceText(p: Portfolio): string {
  const rebuilt = p.notes_rebuilt === 0 ? '' : `; ${p.notes_rebuilt} without payment rows rebuilt from their loan's schedule`;
  const late =
    p.days_past_due_from_payments === 0 ? '' : `; days past due of ${p.days_past_due_from_payments} re-derived from their payment rows`;
  return `${p.notes_from_payments} note(s) from their payments${rebuilt}${late}`;
}

/** An account figure: today's only, so n/a on a past day. */
const accountMoney = (x: number | null): string => (x === null ? "n/a (today's only: the account keeps no history)" : money(x));

/** The notes, what they cost, and the cancelled ones. */
function notesText(p: Portfolio): string {
  const cancelled = p.cancelled_notes === 0 ? '' : `; ${p.cancelled_notes} cancelled, bids returned`;
  return `${p.notes} (${money(p.invested)} invested${cancelled})`;
}

/** How to draw: bars (a terminal) or plain rows, the width, the colour of the bars. */
export interface TextOptions {
  bars: boolean;
  width: number;
  paint?: (s: string) => string;
}

function split(title: string, buckets: Record<string, Bucket>, label: (k: string) => string, o: TextOptions): string[] {
  const rows = Object.entries(buckets).filter(([, b]) => b.notes > 0);
  if (rows.length === 0) return [];
  const text = (b: Bucket): string =>
    `${money(b.invested)}  ${pct(b.share).padStart(6)}  ${String(b.notes).padStart(5)} notes  ${money(b.outstanding_principal)} outstanding`;
  // The rows are indented by 2: the bars get the rest of the line.
  const lines = o.bars
    ? barLines(
        rows.map(([k, b]) => ({ label: label(k), value: b.invested, text: text(b) })),
        o.width - 2,
        o.paint,
      )
    : rows.map(([k, b]) => `${label(k).padEnd(Math.max(18, ...rows.map(([r]) => label(r).length + 2)))}${text(b)}`);
  return ['', ...fit(`${title} (invested, share, notes, outstanding principal)`, o), ...lines.map((l) => `  ${l}`)];
}

/** `line` wrapped at the width on a terminal (a figure's words never cut); elsewhere as it is. */
const fit = (line: string, o: TextOptions): string[] => (o.bars ? wrapText(line, o.width) : [line]);

/** The lines of the report. */
export function portfolioLines(p: Portfolio, o: TextOptions): string[] {
  const figures: [string, string][] = [
    ['as of', p.as_of],
    ['account value', accountMoney(p.account_value)],
    ['available cash', accountMoney(p.available_cash_balance)],
    ['pending bids', accountMoney(p.pending_bids)],
    ['outstanding principal', money(p.outstanding_principal)],
    ['notes', notesText(p)],
    ['principal received', money(p.principal_received)],
    ['interest received', money(p.interest_received)],
    ['late fees received', money(p.late_fees_received)],
    ['fees paid', money(p.fees_paid)],
    ['expected loss', money(p.expected_loss)],
    ['realised return', returnText(p)],
    ['expected return', rateText(p.expected_return, p.expected_return_reason, p.expected_return_nominal)],
    ['flows', sourceText(p)],
  ];
  const width = Math.max(...figures.map(([k]) => k.length));
  // On a terminal a long value goes on under itself, so no line is wider than the terminal.
  const value = (v: string): string[] => (o.bars ? wrapText(v, Math.max(10, o.width - width - 2)) : [v]);
  return [
    ...figures.flatMap(([k, v]) => value(v).map((l, i) => `${(i === 0 ? k : '').padEnd(width)}  ${l}`)),
    ...(p.by_status === null
      ? ['', ...fit(`by status: n/a (${p.by_status_reason})`, o)]
      : split('by status', p.by_status, (k) => STATUS_LABELS[k as StatusBucket] ?? k, o)),
    ...split('by rating', p.by_rating, (k) => k, o),
  ];
}
