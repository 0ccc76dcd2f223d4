/**
 * Each note's own payments: the payment rows of its loan, each given to its note. The payments resource
 * answers a row per payment per note of the caller's; when the caller holds one note of the loan (the
 * usual case) the rows are that note's. When it holds several, each row is matched to its note by the
 * note's principal balance (splitRows), so every note keeps its rows as the marketplace wrote them, to
 * the cent; only rows that match no note are added up and split by ownership.
 */
import { LOAN_STATUS } from '../contract/enums.js';
import type { NoteFigures } from './figures.js';
import { parseDay } from '../contract/calendar.js';
import { apportionUnits } from './apportion.js';
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

/** Notes in the order a payment's rows come (by `transaction_id`): by the number after the dash of their ids, then as text. */
function byNoteId(a: NoteFigures, b: NoteFigures): number {
  const serial = (n: NoteFigures): number => Number(n.loan_note_id.slice(n.loan_note_id.lastIndexOf('-') + 1));
  const [x, y] = [serial(a), serial(b)];
  if (Number.isFinite(x) && Number.isFinite(y) && x !== y) return x - y;
  return a.loan_note_id < b.loan_note_id ? -1 : a.loan_note_id > b.loan_note_id ? 1 : 0;
}

/** A note's principal before the next payment, whole units: known, or estimated after a payment that had to be split. */
interface Held {
  units: number;
  known: boolean;
}

/**
 * Whether `row` can be the row of a note holding `held` before it: the note's balance after it is what it
 * held less the principal it received (or, receiving none, at least what it held). A note whose balance is
 * only estimated takes any row with a balance.
 */
function follows(held: Held, row: FlowRow): boolean {
  if (row.balance === null) return false;
  return !held.known || held.units - row.principal === row.balance || (row.principal === 0 && row.balance >= held.units);
}

/** How far `row` is from following `held` exactly: 0 when it does; for an estimated balance, the gap. */
const gap = (held: Held, row: FlowRow): number =>
  follows({ ...held, known: true }, row) ? 0 : Math.abs(held.units - row.principal - row.balance!);

/** Tries a payment's match may make: notes held in one loan are a handful; an answer that would take more is split instead. */
const MATCH_TRIES = 10_000;

/**
 * The note each row of one payment is (an index into `holders`), or null when no one-to-one match makes
 * every note's balance follow: the rows in their order, each given the note left that it follows most
 * closely (the first in `holders` on a tie), backtracking when a later row would be left without one
 * (within MATCH_TRIES).
 */
function matchRows(rows: readonly FlowRow[], holders: readonly number[], held: readonly Held[]): number[] | null {
  if (rows.length !== holders.length) return null;
  const taken = new Set<number>();
  const out: number[] = [];
  let tries = 0;
  const place = (k: number): boolean => {
    if (k === rows.length) return true;
    const row = rows[k]!;
    const fit = holders.filter((i) => !taken.has(i) && follows(held[i]!, row)).sort((a, b) => gap(held[a]!, row) - gap(held[b]!, row));
    for (const i of fit) {
      if (++tries > MATCH_TRIES) return false;
      taken.add(i);
      out.push(i);
      if (place(k + 1)) return true;
      taken.delete(i);
      out.pop();
    }
    return false;
  };
  return place(0) ? out : null;
}

/** The rows of one payment added up and split over `weights` by largest remainder: for an answer whose rows cannot be told apart. */
function splitPayment(group: readonly FlowRow[], weights: readonly number[]): FlowRow[] {
  const sum: RowUnits = noUnits();
  for (const r of group) for (const f of ROW_FIGURES) sum[f] += r[f];
  const parts = ROW_FIGURES.map((f) => apportionUnits(sum[f], weights));
  return weights.map((_, i) => {
    const row: FlowRow = { ...group[0]!, balance: null, id: null };
    ROW_FIGURES.forEach((f, k) => (row[f] = parts[k]![i]!));
    return row;
  });
}

/**
 * The rows of the notes of one loan, each note's own. The answer has a row per payment per note held
 * (docs/fidelity.md), each the note's figures to the cent, but does not name the note: a row is its
 * note's when the note's principal, from its ownership amount down row by row, follows the row's
 * `resulting_principal_balance`; notes it cannot tell apart (equal balances) take a payment's rows in
 * `transaction_id` order. A payment whose rows match no note one to one (not a row per note held, or
 * no balance sent) is added up and split by ownership instead, in whole units; its notes' balances are
 * then only estimated, and the next rows that carry balances go to the nearest and say them again, so one
 * bad payment spoils no other.
 */
function splitRows(notes: readonly NoteFigures[], rows: readonly FlowRow[]): FlowRow[][] {
  if (notes.length === 1) return [[...rows]];
  const out: FlowRow[][] = notes.map(() => []);
  const order = notes.map((_, i) => i).sort((a, b) => byNoteId(notes[a]!, notes[b]!));
  // Each note's principal before the next payment: estimated after a split payment, until a matched row says it again.
  const held: Held[] = notes.map((n) => ({ units: toUnits(n.note_ownership_amount), known: true }));
  // Oldest payment first (the answer is newest first), so each note's balance runs forward; a payment's rows in id order.
  const payments = [...groupBy(rows, (r) => r.key).values()]
    .reverse()
    .sort((a, b) => a[0]!.day - b[0]!.day)
    .map((group) => [...group].sort((a, b) => (a.id ?? 0) - (b.id ?? 0)));
  for (const group of payments) {
    const day = group[0]!.day;
    // Only the notes held on the payment's day share in it.
    const holders = order.filter((i) => boughtDay(notes[i]!) <= day);
    const match = matchRows(group, holders, held);
    if (match) {
      match.forEach((i, k) => {
        const row = group[k]!;
        held[i] = { units: held[i]!.known ? held[i]!.units - row.principal : row.balance!, known: true };
        out[i]!.push(row);
      });
      continue;
    }
    const parts = splitPayment(
      group,
      notes.map((n, i) => (holders.includes(i) ? toUnits(n.note_ownership_amount) : 0)),
    );
    for (const i of holders) {
      held[i] = { units: held[i]!.units - parts[i]!.principal, known: false };
      out[i]!.push(parts[i]!);
    }
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
  const sale =
    note.is_sold && soldOn !== null
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
