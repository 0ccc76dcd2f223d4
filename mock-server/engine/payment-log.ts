/**
 * A loan's payment log: what each servicing step paid, kept on the loan (`Loan.paymentLog`) so that
 * GET /loans/payments can show every payment; only on a loan some account holds a note in (notes come
 * only at origination, so a loan without one never shows its payments to anybody: postings.ts). Only what cannot be recomputed is kept: the step's time,
 * its days past due and the change it made to each money figure of the loan, in whole cents, and of
 * those only the figures it moved. A plain array of numbers, so the state file saves it as it is.
 *
 * Layout: `[paymentsMadeBeforeTheFirstEntry, entry, entry, …]`, where an entry is
 * `[t, code, …moved figures]` and code = kind + 2 × (bit mask of the moved figures) + 128 × days past due.
 * An on-time payment takes five numbers (time, code, principal, interest, service fee); a late one seven.
 */
import type { Loan } from '../world/world.js';

/** The money figures of a loan a servicing step moves, in the order an entry keeps them. */
export const PAID_FIGURES = ['principal', 'interest', 'lateFees', 'serviceFees', 'platformFees', 'collectionFees'] as const;
/** One of the figures. */
export type PaidFigure = (typeof PAID_FIGURES)[number];
/** Whole cents of each figure; the service fee counts up (the loan's `service_fees_paid` is its negative). */
export type PaidCents = Record<PaidFigure, number>;

/**
 * What a logged step was: a payment; a charge-off (it moves no money: the notes' principal is written off, not
 * paid); or what a collection agency collected on a charged-off loan (principal, less its collection fee).
 */
export type LoggedKind = 'payment' | 'chargeoff' | 'collection';

/** One entry of the log, read back. */
export interface LoggedStep {
  at: number;
  kind: LoggedKind;
  /** Days past due when the step ran. */
  daysPastDue: number;
  /** What the step changed, whole cents. */
  moved: PaidCents;
}

/**
 * The kind's code in an entry: a collection shares the charge-off's (both are the collection agency's: CAP rows)
 * and is told from it by the principal it moves, which a charge-off never does. So a log written before
 * collections existed (its charge-offs moving a collection fee alone) reads as it did.
 */
const KIND_CODES: Readonly<Record<LoggedKind, number>> = { payment: 0, chargeoff: 1, collection: 1 };
const MASK_UNIT = 2;
const DPD_UNIT = MASK_UNIT << PAID_FIGURES.length;

const wholeCents = (x: number): number => Math.round(x * 100);
/** A log at least this long grows in place (logStep). */
const LONG_LOG = 60;

/** Nothing of every figure. */
export const noCents = (): PaidCents => ({ principal: 0, interest: 0, lateFees: 0, serviceFees: 0, platformFees: 0, collectionFees: 0 });

/** The loan's figures now, whole cents. */
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
 * Logs the step that has just run on `loan` at `t`: what it moved of each figure (whole cents, as it moved
 * the loan's figures). `paymentsBefore` is the loan's payments made before the step, kept by the first
 * entry so that the payments a loan was seeded with can be told from the logged ones.
 */
export function logStep(loan: Loan, kind: LoggedKind, t: number, daysPastDue: number, moved: PaidCents, paymentsBefore: number): void {
  const entry = [t, 0];
  let mask = 0;
  for (let i = 0; i < PAID_FIGURES.length; i++) {
    const m = moved[PAID_FIGURES[i]!];
    if (m === 0) continue;
    mask |= 1 << i;
    entry.push(m);
  }
  // The kind is read back from its code and its principal (KIND_CODES): a step that could not be read back is a bug.
  const movesPrincipal = (mask & 1) === 1;
  if (kind === 'collection' && !movesPrincipal) throw new Error('payment log: a collection moves principal');
  if (kind === 'chargeoff' && movesPrincipal) throw new Error('payment log: a charge-off moves no principal');
  entry[1] = KIND_CODES[kind] + MASK_UNIT * mask + DPD_UNIT * Math.max(0, Math.floor(daysPastDue));
  // concat makes an array of the exact length: a log grows by one entry a month, and most loans hold few. A long log
  // grows in place (copying it whole at each entry made the seed's years of history quadratic; its slack is a part of it).
  const log = loan.paymentLog;
  if (log && log.length >= LONG_LOG) {
    log.push(...entry);
    loan.paymentLog = log;
  } else loan.paymentLog = (log ?? [paymentsBefore]).concat(entry);
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
    const kind: LoggedKind = code % MASK_UNIT === 0 ? 'payment' : moved.principal !== 0 ? 'collection' : 'chargeoff';
    out.push({ at, kind, daysPastDue: Math.floor(code / DPD_UNIT), moved });
  }
  return out;
}
