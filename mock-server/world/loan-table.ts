/**
 * Loans kept by column, as listings are (row-table.ts: the same table; a row reads and writes as the
 * plain loan it was made from, and serialises to the same fields). A 15-day clock move at a million
 * listings originates ~780,000 loans: as plain objects they grew the heap by ~240 MB (every amount and date a
 * boxed number) that each young collection copied and every full one walked; as rows, typed columns the
 * collector never walks.
 */
import { emptyRowTable, reserveRows, tableRow, type RowTable } from './row-table.js';
import type { Loan } from './records.js';

/**
 * The fields servicing sets on some loans only (arrears, a charge-off time, the engine's payment log, collections to come):
 * sparse columns, so a loan without them holds nothing for them and its text leaves them out.
 */
const LOAN_LATER_FIELDS: readonly (keyof Loan)[] = ['missedPayments', 'oldestMissedDue', 'chargeOffAt', 'paymentLog', 'collections'];

/** A world's loans by column: the world holds its own (`world.loanTable`), made with it. */
export type LoanTable = RowTable;

/** An empty table, for a new world. */
export function emptyLoanTable(): LoanTable {
  return emptyRowTable(LOAN_LATER_FIELDS);
}

/** Makes room for `rows` loans in all, and for what clock moves add (reserveRows reserves 2.5 times as many). */
export function reserveLoanRows(t: LoanTable, rows: number): void {
  reserveRows(t, rows);
}

/** `loan` as a row of table `t`: the object to keep in `world.loans` instead of the plain one. */
export function loanRow(t: LoanTable, loan: Loan): Loan {
  return tableRow(t, loan);
}
