/**
 * A statement of a period: per note and in total, the money its payment rows moved between two days
 * (both included), and the principal lost to a charge-off in the period. Every figure is added up in
 * whole units (payment-rows.ts), so the total of a column is the sum of its rows exactly; dollars only
 * at the end. It is a record of flows, not a tax computation.
 */
import { formatDay } from '../contract/calendar.js';
import type { NoteLedger } from './note-ledger.js';
import { netUnits, noUnits, ROW_FIGURES, toDollars, type RowUnits } from './payment-rows.js';

/** Said with every statement, in every format. */
export const NOT_TAX_ADVICE =
  'A record of the flows the marketplace reported (payments, charge-offs, sales), not tax advice: '
  + 'what is taxable, and when, is for you or your tax preparer to decide.';

/** The columns of a statement line, in order (the CSV's header; README and --help explain each). */
export const STATEMENT_COLUMNS = [
  'loan_note_id',
  'loan_number',
  'payments',
  'interest_received',
  'late_fees_received',
  'service_fees_paid',
  'collection_fees_paid',
  'principal_received',
  'principal_lost',
  'loss_date',
  'sale_proceeds',
  'net_cash',
] as const;

/** One line: a note, or the total (loan_note_id `TOTAL`). Amounts in dollars. */
export interface StatementLine {
  loan_note_id: string;
  loan_number: number | null;
  /** Payment rows in the period. */
  payments: number;
  interest_received: number;
  late_fees_received: number;
  service_fees_paid: number;
  collection_fees_paid: number;
  principal_received: number;
  /** Principal written off by a charge-off in the period. */
  principal_lost: number;
  /** The charge-off's day (yyyy-MM-dd), '' when none in the period (the total's is the count's, blank). */
  loss_date: string;
  /** A sale of the note in the period, net of its fees. */
  sale_proceeds: number;
  /** Principal, interest and late fees received, less service and collection fees, plus sale proceeds: the cash the notes brought. */
  net_cash: number;
}

/** The statement (`-o json` prints it as is). */
export interface Statement {
  from: string;
  to: string;
  notice: string;
  notes: StatementLine[];
  total: StatementLine;
  /** Notes that have received money by their own figures but have no payment rows: not in the statement. */
  notes_without_payments: string[];
}

/** A note's sums over the period, whole units. */
interface Sums extends RowUnits {
  payments: number;
  lost: number;
  sale: number;
}

const noSums = (): Sums => ({ ...noUnits(), payments: 0, lost: 0, sale: 0 });

function line(id: string, loan: number | null, s: Sums, lossDate: string): StatementLine {
  return {
    loan_note_id: id,
    loan_number: loan,
    payments: s.payments,
    interest_received: toDollars(s.interest),
    late_fees_received: toDollars(s.lateFees),
    service_fees_paid: toDollars(s.serviceFees),
    collection_fees_paid: toDollars(s.collectionFees),
    principal_received: toDollars(s.principal),
    principal_lost: toDollars(s.lost),
    loss_date: lossDate,
    sale_proceeds: toDollars(s.sale),
    net_cash: toDollars(netUnits(s) + s.sale),
  };
}

/** The statement from day `from` to day `to` (UTC days, epoch ms, both included). */
export function statement(ledgers: readonly NoteLedger[], from: number, to: number): Statement {
  const total = noSums();
  const notes: StatementLine[] = [];
  const inPeriod = (day: number): boolean => day >= from && day <= to;
  for (const l of ledgers) {
    const s = noSums();
    for (const r of l.rows) {
      if (!inPeriod(r.day)) continue;
      s.payments++;
      for (const f of ROW_FIGURES) s[f] += r[f];
    }
    const lost = l.loss !== null && inPeriod(l.loss.day) ? l.loss : null;
    if (lost) s.lost = lost.principal;
    if (l.sale !== null && inPeriod(l.sale.day)) s.sale = l.sale.proceeds;
    if (s.payments === 0 && lost === null && s.sale === 0) continue;
    for (const f of ROW_FIGURES) total[f] += s[f];
    total.payments += s.payments;
    total.lost += s.lost;
    total.sale += s.sale;
    notes.push(line(l.note.loan_note_id, l.note.loan_number, s, lost ? formatDay(lost.day) : ''));
  }
  return {
    from: formatDay(from),
    to: formatDay(to),
    notice: NOT_TAX_ADVICE,
    notes,
    total: line('TOTAL', null, total, ''),
    notes_without_payments: ledgers.filter((l) => !l.fromPayments).map((l) => l.note.loan_note_id),
  };
}
