/**
 * A note's status bucket at a day, told one way for every figure that reads it: the status split, the
 * expected loss, the expected return, the cohorts (and so `invest simulate`, which reports them).
 *   - Today: the marketplace's status and days past due (`days_past_due`). Only a note sent without
 *     them has its days re-derived from its payment rows, and the report counts it.
 *   - A past day: the marketplace keeps no history of a note's status, so it is read off the payment
 *     rows: charged off from its charge-off row, paid in full once its rows had repaid what it cost,
 *     otherwise late by the days past due re-derived from the rows (a loan that defaulted shows as over
 *     120 days late: the same expected loss). A cancelled or pending note moved no money: as today.
 *     A note rebuilt from its schedule (no rows) has nothing to read a past status from: null.
 */
import { addMonths } from '../contract/amortisation.js';
import { LOAN_STATUS } from '../contract/enums.js';
import { parseDay } from '../contract/calendar.js';
import { lateBucket, statusBucket, type StatusBucket } from './expected-loss.js';
import type { NoteLedger } from './note-ledger.js';
import { toUnits } from './payment-rows.js';

const DAY = 86_400_000;
/** A payment this close after a due date paid that one (the mock's seeded payments fall 30.4375 days apart, up to two days off the calendar). */
const DUE_SLACK = 3 * DAY;

/**
 * Where the days past due that decided a note's bucket came from: the marketplace's figure, re-derived
 * from its payment rows, or neither (its status said it all; or none sent and no rows to read: current).
 */
export type DaysPastDueSource = 'marketplace' | 'payments' | 'none';

/** A note's bucket at a day and where its days past due came from. */
export interface NoteState {
  /** Null: a note rebuilt from its schedule, on a past day. */
  bucket: StatusBucket | null;
  daysPastDue: number;
  from: DaysPastDueSource;
}

/**
 * Days past due of a note at `cut`, re-derived from its payments: the last row's `post_days_past_due`
 * counted on to the day, or, after a row that left the loan current (none sent), the days since the
 * first due date on the loan's calendar (origination plus whole months) after that row.
 */
export function daysPastDueAt(l: NoteLedger, cut: number): number {
  const paid = l.rows.filter((r) => r.day <= cut && !r.chargeOff);
  const last = paid[paid.length - 1];
  if (last && last.postDaysPastDue !== null) return Math.max(0, last.postDaysPastDue + Math.floor((cut - last.day) / DAY));
  const origination = parseDay(l.note.origination_date) ?? l.bought;
  const after = last ? last.day + DUE_SLACK : origination;
  let k = 1;
  while (addMonths(origination, k) <= after) k++;
  return Math.max(0, Math.floor((cut - addMonths(origination, k)) / DAY));
}

/** Statuses that say a note's bucket without its days past due (the rest, current or the deprecated final-payment status, need them). */
const SETTLED: ReadonlySet<number> = new Set([
  LOAN_STATUS.COMPLETED,
  LOAN_STATUS.CHARGEOFF,
  LOAN_STATUS.DEFAULTED,
  LOAN_STATUS.CANCELLED,
  LOAN_STATUS.ORIGINATIONDELAYED,
]);

/** The note's state at `cut`, a UTC day not after `today` (the day its figures are of). */
export function noteState(l: NoteLedger, today: number, cut: number): NoteState {
  const n = l.note;
  if (
    SETTLED.has(n.note_status)
    && (cut >= today || n.note_status === LOAN_STATUS.CANCELLED || n.note_status === LOAN_STATUS.ORIGINATIONDELAYED)
  ) {
    // Its status says it all (and a cancelled or pending note moved no money, whatever the day).
    return {
      bucket: statusBucket(n.note_status, 0),
      daysPastDue: n.days_past_due ?? 0,
      from: n.days_past_due !== null ? 'marketplace' : 'none',
    };
  }
  if (cut >= today) {
    if (n.days_past_due !== null)
      return { bucket: statusBucket(n.note_status, n.days_past_due), daysPastDue: n.days_past_due, from: 'marketplace' };
    // None sent: re-derived from the rows (counted in the report); with no rows to read, current.
    const days = l.fromPayments ? daysPastDueAt(l, cut) : 0;
    return { bucket: statusBucket(n.note_status, days), daysPastDue: days, from: l.fromPayments ? 'payments' : 'none' };
  }
  if (!l.fromPayments) return { bucket: null, daysPastDue: 0, from: 'none' };
  const settled = (bucket: StatusBucket): NoteState => ({ bucket, daysPastDue: 0, from: 'none' });
  if (l.loss !== null && l.loss.day <= cut) return settled('charged_off');
  const repaid = l.rows.reduce((s, r) => (r.day <= cut ? s + r.principal : s), 0);
  if (repaid >= toUnits(n.note_ownership_amount)) return settled('paid_in_full');
  const days = daysPastDueAt(l, cut);
  return { bucket: lateBucket(days), daysPastDue: days, from: 'payments' };
}
