/**
 * A note's status bucket and the share of its outstanding principal not expected back: the one table
 * the portfolio's split, its expected loss and expected return, the cohorts and `invest simulate` all read.
 * A note's days past due are the marketplace's (`days_past_due`) unless the caller has to re-derive them
 * (a past day, or a note sent without them: src/flows/note-state.ts says which).
 */
import { LOAN_STATUS } from '../contract/enums.js';
import { toUnits } from './payment-rows.js';

/** The status buckets of a portfolio, in the order a report lists them. */
export const STATUS_BUCKETS = [
  'current',
  'late_1_15',
  'late_16_30',
  'late_31_120',
  'late_over_120',
  'charged_off',
  'defaulted',
  'paid_in_full',
  'pending',
  'cancelled',
] as const;
/** One of the buckets. */
export type StatusBucket = (typeof STATUS_BUCKETS)[number];

/**
 * The share of a note's outstanding principal not expected back, by bucket. The late rates sit between
 * the mock's roll rates (a missed installment is missed again 45% of the time; 91 days late defaults)
 * and the loss rates lenders publish for their adjusted returns; a note over 120 days late, defaulted or
 * charged off is written off whole (debt-sale proceeds, when any, count as received). A note not yet
 * originated (pending) or cancelled is owed nothing by a borrower yet: nothing to write off.
 */
export const EXPECTED_LOSS: Readonly<Record<StatusBucket, number>> = {
  current: 0,
  late_1_15: 0.1,
  late_16_30: 0.25,
  late_31_120: 0.5,
  late_over_120: 1,
  charged_off: 1,
  defaulted: 1,
  paid_in_full: 0,
  pending: 0,
  cancelled: 0,
};

/** The bucket of a note of loan status `status` (NaN: none sent) that is `days` past due. */
export function statusBucket(status: number, days: number): StatusBucket {
  switch (status) {
    case LOAN_STATUS.COMPLETED:
      return 'paid_in_full';
    case LOAN_STATUS.CHARGEOFF:
      return 'charged_off';
    case LOAN_STATUS.DEFAULTED:
      return 'defaulted';
    case LOAN_STATUS.CANCELLED:
      return 'cancelled';
    case LOAN_STATUS.ORIGINATIONDELAYED:
      return 'pending';
    default:
      return lateBucket(days);
  }
}

/** The bucket of a loan still being paid (current, or the deprecated final-payment status) by its days past due. */
export function lateBucket(days: number): StatusBucket {
  if (!(days > 0)) return 'current';
  if (days <= 15) return 'late_1_15';
  if (days <= 30) return 'late_16_30';
  return days <= 120 ? 'late_31_120' : 'late_over_120';
}

/** Micro-dollars (10⁻⁶) in a dollar: a write-down of any bucket's share of a four-place amount is a whole number of them. */
export const MICROS_PER_DOLLAR = 1_000_000;

/**
 * The expected loss of `outstanding` dollars in `bucket`, in whole micro-dollars, so that a portfolio's
 * or a cohort's sum of them is exact and is rounded once, at the end.
 */
export function expectedLossMicros(outstanding: number, bucket: StatusBucket): number {
  return toUnits(outstanding) * Math.round(EXPECTED_LOSS[bucket] * 100);
}

/** Whole micro-dollars as dollars rounded to the cent (half away from zero on the exact figure). */
export function microsToCents(micros: number): number {
  return Math.round(micros / 10_000) / 100;
}
