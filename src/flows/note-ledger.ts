/**
 * Each note's own payments: the payment rows of its loan, apportioned to it. The payments resource
 * answers the caller's share of each payment of a loan; when the caller holds one note of the loan
 * (the usual case) the rows are that note's. When it holds several, each loan payment's rows (one
 * `match_back_id`) are added up and split over the notes held on its day, by ownership amount, by
 * largest remainder in whole units, so the notes' parts add up to the rows exactly.
 */
import { LOAN_STATUS } from '../contract/enums.js';
import type { NoteFigures } from '../portfolio/figures.js';
import { parseDay } from '../portfolio/calendar.js';
import { noUnits, ROW_FIGURES, toUnits, type FlowRow, type RowUnits } from './payment-rows.js';

/** Where a note's loss was dated from: its charge-off row, or (no such row) its last payment. */
export type LossDating = 'charge-off row' | 'last payment';

/** A note and its payments. */
export interface NoteLedger {
  note: NoteFigures;
  /** The day the note was bought (its ownership start, else its loan's origination). */
  bought: number;
  /** Its rows, oldest first, each its own part of the loan payment. */
  rows: FlowRow[];
  /** False when the payments resource had nothing for a note that has received money: its flows are rebuilt from the schedule. */
  fromPayments: boolean;
  /** Principal written off when the loan was charged off (whole units), and when. */
  loss: { day: number; principal: number; dated: LossDating } | null;
  /** What a sale of the note brought, net of its fees (whole units), on its ownership end date. */
  sale: { day: number; proceeds: number } | null;
}

/** `total` split over `weights` by largest remainder (the earlier weight first on a tie); every part is whole. */
export function apportionUnits(total: number, weights: readonly number[]): number[] {
  const whole = weights.reduce((s, w) => s + w, 0);
  if (!(whole > 0)) return weights.map((_, i) => (i === 0 ? total : 0));
  const size = Math.abs(total);
  const exact = weights.map((w) => (size * w) / whole);
  const parts = exact.map(Math.floor);
  let left = size - parts.reduce((s, p) => s + p, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return total < 0 ? parts.map((p) => -p) : parts;
}

/** The day a note was bought. */
export function boughtDay(n: NoteFigures): number {
  return parseDay(n.ownership_start_date) ?? parseDay(n.origination_date) ?? 0;
}

/** Whether a note has received anything by its own figures (so that having no payment rows means they are missing). */
function hasReceived(n: NoteFigures): boolean {
  return n.principal_paid_pro_rata_share !== 0 || n.interest_paid_pro_rata_share !== 0 || n.late_fees_paid_pro_rata_share !== 0;
}

/** Items grouped by a key, each group in the items' order. */
function groupBy<T, K>(items: readonly T[], key: (t: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const t of items) {
    const k = key(t);
    const group = out.get(k);
    if (group) group.push(t);
    else out.set(k, [t]);
  }
  return out;
}

/** The rows of the notes of one loan, each note's part. */
function splitRows(notes: readonly NoteFigures[], rows: readonly FlowRow[]): FlowRow[][] {
  if (notes.length === 1) return [[...rows]];
  const out: FlowRow[][] = notes.map(() => []);
  const payments = groupBy(rows, (r) => r.key);
  for (const group of payments.values()) {
    const first = group[0]!;
    const sum: RowUnits = noUnits();
    for (const r of group) for (const f of ROW_FIGURES) sum[f] += r[f];
    // Only the notes held on the payment's day share in it.
    const weights = notes.map((n) => (boughtDay(n) <= first.day ? toUnits(n.note_ownership_amount) : 0));
    const parts = ROW_FIGURES.map((f) => apportionUnits(sum[f], weights));
    notes.forEach((_, i) => {
      const row: FlowRow = { ...first };
      ROW_FIGURES.forEach((f, k) => (row[f] = parts[k]![i]!));
      if (weights[i]! > 0) out[i]!.push(row);
    });
  }
  return out;
}

/** The ledger of a note given its own rows. */
function ledgerOf(note: NoteFigures, rows: FlowRow[]): NoteLedger {
  rows.sort((a, b) => a.day - b.day);
  const bought = boughtDay(note);
  const owned = toUnits(note.note_ownership_amount);
  let loss: NoteLedger['loss'] = null;
  const chargeOff = rows.find((r) => r.chargeOff);
  if (chargeOff) {
    const repaid = rows.filter((r) => r.day <= chargeOff.day).reduce((s, r) => s + r.principal, 0);
    loss = { day: chargeOff.day, principal: Math.max(0, owned - repaid), dated: 'charge-off row' };
  } else if (note.note_status === LOAN_STATUS.CHARGEOFF && rows.length > 0) {
    // Charged off before the payments kept a row of it (a loan charged off before the history begins).
    const repaid = rows.reduce((s, r) => s + r.principal, 0);
    loss = { day: rows[rows.length - 1]!.day, principal: Math.max(0, owned - repaid), dated: 'last payment' };
  }
  const soldOn = parseDay(note.ownership_end_date);
  const sale = note.is_sold && soldOn !== null
    ? { day: soldOn, proceeds: toUnits(note.note_sale_gross_amount_received) - toUnits(note.note_sale_fees_paid) }
    : null;
  return { note, bought, rows, fromPayments: rows.length > 0 || !hasReceived(note), loss, sale };
}

/** Every note's ledger, in the order of `notes`, from the payment rows of their loans (any order). */
export function noteLedgers(notes: readonly NoteFigures[], rows: readonly FlowRow[]): NoteLedger[] {
  const byLoan = groupBy(rows, (r) => r.loan);
  const notesByLoan = groupBy(notes, (n) => n.loan_number);
  const own = new Map<NoteFigures, FlowRow[]>();
  for (const [loan, held] of notesByLoan) {
    const parts = splitRows(held, byLoan.get(loan) ?? []);
    held.forEach((n, i) => own.set(n, parts[i]!));
  }
  return notes.map((n) => ledgerOf(n, own.get(n) ?? []));
}
