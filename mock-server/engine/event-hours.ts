/**
 * The market's hours: its time step, the hour of a time, and the hour a loan can next change. The
 * timeline (timeline.ts) queues listings and loans at these hours, and re-exports the first two.
 */
import { LOAN_STATUS } from '../../src/contract/enums.js';
import type { Loan } from '../world/world.js';

/** The market's time step. */
export const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The hour index of the first tick at or after `ms` (a tick at hour h runs at h × HOUR). */
export function hourAtOrAfter(ms: number): number {
  return Math.ceil(ms / HOUR);
}

/** The first hour at or after `from` at which a loan can change: a due date, a day more past due, a charge-off, a collection. */
export function loanHour(loan: Loan, from: number): number {
  let at = Infinity;
  const current = loan.loan_status === LOAN_STATUS.CURRENT;
  if (current) at = hourAtOrAfter(loan.next_payment_due_date);
  if (loan.loan_status === LOAN_STATUS.DEFAULTED && loan.chargeOffAt != null) at = Math.min(at, hourAtOrAfter(loan.chargeOffAt));
  if (loan.loan_status === LOAN_STATUS.CHARGEOFF && loan.collections) at = Math.min(at, hourAtOrAfter(loan.collections[0]!));
  if ((current || loan.loan_status === LOAN_STATUS.DEFAULTED) && loan.oldestMissedDue != null) {
    // days_past_due moves on at each whole day after the oldest missed due date.
    const days = Math.max(-1, Math.floor(((from - 1) * HOUR - loan.oldestMissedDue) / DAY));
    at = Math.min(at, hourAtOrAfter(loan.oldestMissedDue + (days + 1) * DAY));
  }
  return Math.max(from, at);
}
