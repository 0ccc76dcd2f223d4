/**
 * A loan's payment log: what each servicing step paid, kept on the loan (`Loan.paymentLog`) so that
 * GET /loans/payments can show every payment. Only what cannot be recomputed is kept: the step's time,
 * its days past due and the change it made to each money figure of the loan, in whole cents, and of
 * those only the figures it moved. A plain array of numbers, so the state file saves it as it is.
 *
 * Layout: `[paymentsMadeBeforeTheFirstEntry, entry, entry, …]`, where an entry is
 * `[t, code, …moved figures]` and code = kind + 2 × (bit mask of the moved figures) + 128 × days past due.
 * An on-time payment takes five numbers (time, code, principal, interest, service fee); a late one seven.
 */
import type { Loan } from '../world/store.js';

/** The money figures of a loan a servicing step moves, in the order an entry keeps them. */
export const PAID_FIGURES = ['principal', 'interest', 'lateFees', 'serviceFees', 'platformFees', 'collectionFees'] as const;
/** One of the figures. */
export type PaidFigure = (typeof PAID_FIGURES)[number];
/** Whole cents of each figure; the service fee counts up (the loan's `service_fees_paid` is its negative). */
export type PaidCents = Record<PaidFigure, number>;

/** What a logged step was: a payment, or a charge-off (its collection fee; principal is written off, not paid). */
export type LoggedKind = 'payment' | 'chargeoff';

/** One entry of the log, read back. */
export interface LoggedStep {
  at: number;
  kind: LoggedKind;
  /** Days past due when the step ran. */
  daysPastDue: number;
  /** What the step changed, whole cents. */
  moved: PaidCents;
}

const KIND_CODES: readonly LoggedKind[] = ['payment', 'chargeoff'];
const MASK_UNIT = 2;
const DPD_UNIT = MASK_UNIT << PAID_FIGURES.length;

const wholeCents = (x: number): number => Math.round(x * 100);

/** The loan's figures now, whole cents: taken before a step and handed to `logStep` after it. */
export function paidSoFar(loan: Loan): PaidCents {
  return {
    principal: wholeCents(loan.principal_paid),
    interest: wholeCents(loan.interest_paid),
    lateFees: wholeCents(loan.late_fees_paid),
    serviceFees: -wholeCents(loan.service_fees_paid),
    platformFees: wholeCents(loan.platform_fees_paid),
    collectionFees: wholeCents(loan.collection_fees_paid),
  };
}

/**
 * Logs the step that has just run on `loan` at `t`: what moved since `before` (paidSoFar taken before
 * it). `paymentsBefore` is the loan's payments made before the step, kept by the first entry so that the
 * payments a loan was seeded with can be told from the logged ones.
 */
export function logStep(loan: Loan, kind: LoggedKind, t: number, daysPastDue: number, before: PaidCents, paymentsBefore: number): void {
  const after = paidSoFar(loan);
  const entry = [t, 0];
  let mask = 0;
  PAID_FIGURES.forEach((f, i) => {
    const moved = after[f] - before[f];
    if (moved === 0) return;
    mask |= 1 << i;
    entry.push(moved);
  });
  entry[1] = KIND_CODES.indexOf(kind) + MASK_UNIT * mask + DPD_UNIT * Math.max(0, Math.floor(daysPastDue));
  // concat makes an array of the exact length: a log grows by one entry a month, and most loans hold few.
  loan.paymentLog = (loan.paymentLog ?? [paymentsBefore]).concat(entry);
}

/** Payments the loan had made before its first logged step (all of them when nothing is logged). */
export function paymentsBeforeLog(loan: Loan): number {
  return loan.paymentLog?.[0] ?? loan.paymentsMade;
}

/** The logged steps of a loan, oldest first. */
export function loggedSteps(loan: Loan): LoggedStep[] {
  const log = loan.paymentLog;
  const out: LoggedStep[] = [];
  if (!log) return out;
  for (let i = 1; i < log.length;) {
    const at = log[i]!;
    const code = log[i + 1]!;
    i += 2;
    const mask = Math.floor((code % DPD_UNIT) / MASK_UNIT);
    const moved = {} as PaidCents;
    PAID_FIGURES.forEach((f, b) => (moved[f] = mask & (1 << b) ? log[i++]! : 0));
    out.push({ at, kind: KIND_CODES[code % MASK_UNIT]!, daysPastDue: Math.floor(code / DPD_UNIT), moved });
  }
  return out;
}
