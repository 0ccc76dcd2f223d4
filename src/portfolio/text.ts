/**
 * The portfolio report as a person reads it: the figures, then the split by status and by rating, as
 * horizontal bars on a terminal and as plain aligned rows elsewhere.
 */
import { barLines } from '../output/bars.js';
import type { StatusBucket } from './cash-flows.js';
import type { Bucket, Portfolio } from './model.js';

/** How buckets are named in text. */
export const STATUS_LABELS: Readonly<Record<StatusBucket, string>> = {
  current: 'current', late_1_15: '1–15 days late', late_16_30: '16–30 days late', late_31_120: '31–120 days late',
  charged_off: 'charged off', defaulted: 'defaulted', paid_in_full: 'paid in full', other: 'cancelled, other',
};

const money = (x: number): string => x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** The annualised (realised) return as text: a percentage, or n/a with the reason. */
export function returnText(p: Pick<Portfolio, 'annualized_return' | 'annualized_return_reason'>): string {
  return rateText(p.annualized_return, p.annualized_return_reason);
}

/** A return as text: a percentage a year, or n/a with the reason. */
function rateText(rate: number | null, reason: string | null): string {
  return rate === null ? `n/a (${reason})` : `${(rate * 100).toFixed(2)}% a year (net, IRR)`;
}

/** Where the notes' flows came from: the payments, or for how many the schedule. */
function sourceText(p: Portfolio): string {
  const rebuilt = p.notes_rebuilt === 0 ? '' : `; ${p.notes_rebuilt} without payment rows rebuilt from their loan's schedule`;
  return `${p.notes_from_payments} note(s) from their payments${rebuilt}`;
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
  const text = (b: Bucket): string => `${money(b.invested)}  ${pct(b.share).padStart(6)}  ${String(b.notes).padStart(5)} notes  ${money(b.outstanding_principal)} outstanding`;
  const lines = o.bars
    ? barLines(rows.map(([k, b]) => ({ label: label(k), value: b.invested, text: text(b) })), o.width, o.paint)
    : rows.map(([k, b]) => `${label(k).padEnd(18)}${text(b)}`);
  return ['', `${title} (invested, share, notes, outstanding principal)`, ...lines.map((l) => `  ${l}`)];
}

/** The lines of the report. */
export function portfolioLines(p: Portfolio, o: TextOptions): string[] {
  const figures: [string, string][] = [
    ['as of', p.as_of],
    ['account value', money(p.account_value)],
    ['available cash', money(p.available_cash_balance)],
    ['pending bids', money(p.pending_bids)],
    ['outstanding principal', money(p.outstanding_principal)],
    ['notes', `${p.notes} (${money(p.invested)} invested)`],
    ['principal received', money(p.principal_received)],
    ['interest received', money(p.interest_received)],
    ['late fees received', money(p.late_fees_received)],
    ['fees paid', money(p.fees_paid)],
    ['expected loss', money(p.expected_loss)],
    ['realised return', returnText(p)],
    ['expected return', rateText(p.expected_return, p.expected_return_reason)],
    ['flows', sourceText(p)],
  ];
  const width = Math.max(...figures.map(([k]) => k.length));
  return [
    ...figures.map(([k, v]) => `${k.padEnd(width)}  ${v}`),
    ...split('by status', p.by_status, (k) => STATUS_LABELS[k as StatusBucket] ?? k, o),
    ...split('by rating', p.by_rating, (k) => k, o),
  ];
}
