/**
 * Every payment of a loan, whole-loan figures in whole cents: the steps its postings logged (payment-log.ts),
 * the seeded history's included (the seed makes it through the same postings: seed-history.ts). A world saved
 * before the seed did so holds seeded loans with totals only: their payments are rebuilt from the totals as
 * that seed made them (its level installment over the payments it had made, one each 30.4375 days from
 * origination; what that schedule does not explain on the last one; the service fee in proportion to interest),
 * so the figures of all payments still add up to the loan's to the cent.
 */
import type { Loan, World } from '../world/world.js';
import { loggedSteps, PAID_FIGURES, paidSoFar, paymentsBeforeLog, type LoggedKind, type PaidCents } from './payment-log.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The seed's month: payments of a seeded loan fall this many days apart. */
const SEEDED_MONTH_DAYS = 30.4375;

/** One payment (or charge-off) of a loan. */
export interface LoanPayment {
  /** Its place among the loan's payments, oldest first from 0: stable, as payments are only ever added. */
  seq: number;
  at: number;
  kind: LoggedKind;
  preDaysPastDue: number;
  /** Null when the loan is current after it (a payment brings it current: the engine catches up every arrear at once); a charge-off or a collection keeps its days past due. */
  postDaysPastDue: number | null;
  /** What it paid, whole cents. */
  moved: PaidCents;
  /** The loan's figures after it: the sums of `moved` so far. */
  cumulative: PaidCents;
  /** Principal outstanding after it, whole cents. */
  balance: number;
}

const zero = (): PaidCents => ({ principal: 0, interest: 0, lateFees: 0, serviceFees: 0, platformFees: 0, collectionFees: 0 });

/** The loan's payments, oldest first. */
export function loanPayments(world: World, loan: Loan): LoanPayment[] {
  const logged = loggedSteps(loan);
  const seededTotals = paidSoFar(loan);
  for (const step of logged) for (const f of PAID_FIGURES) seededTotals[f] -= step.moved[f];
  const steps = [...seededPayments(world, loan, paymentsBeforeLog(loan), seededTotals), ...logged];
  const cumulative = zero();
  const borrowed = Math.round(loan.amount_borrowed * 100);
  return steps.map((s, seq) => {
    for (const f of PAID_FIGURES) cumulative[f] += s.moved[f];
    return {
      seq,
      at: s.at,
      kind: s.kind,
      preDaysPastDue: s.daysPastDue,
      postDaysPastDue: s.kind === 'payment' ? null : s.daysPastDue,
      moved: s.moved,
      cumulative: { ...cumulative },
      balance: borrowed - cumulative.principal,
    };
  });
}

/** The payments of a loan seeded with totals only (a world saved before the seed posted its history) that had made `made` payments and paid `totals` (whole cents). */
function seededPayments(world: World, loan: Loan, made: number, totals: PaidCents) {
  if (made === 0 && PAID_FIGURES.every((f) => totals[f] === 0)) return [];
  const rows: { at: number; kind: LoggedKind; daysPastDue: number; moved: PaidCents }[] = [];
  // On the hour, as the engine's payments are (it services loans on its hourly ticks).
  const at = (m: number): number => Math.floor((loan.origination_date + (m + 1) * SEEDED_MONTH_DAYS * DAY) / HOUR) * HOUR;
  // The seed's schedule: its level installment, interest on the balance at the borrower rate, the rest as principal.
  const installment = Math.round((world.listingByNumber.get(loan.listingNumber)?.listing_monthly_payment ?? 0) * 100);
  let balance = Math.round(loan.amount_borrowed * 100);
  for (let m = 0; m < made && balance > 0; m++) {
    const interest = Math.round((balance * loan.borrower_rate) / 12);
    const principal = Math.min(balance, Math.max(0, installment - interest));
    balance -= principal;
    rows.push({ at: at(m), kind: 'payment', daysPastDue: 0, moved: { ...zero(), principal, interest } });
  }
  if (rows.length === 0) rows.push({ at: at(0), kind: 'payment', daysPastDue: 0, moved: zero() });
  const last = rows[rows.length - 1]!.moved;
  const scheduled = zero();
  for (const r of rows) for (const f of PAID_FIGURES) scheduled[f] += r.moved[f];
  for (const f of PAID_FIGURES) if (f !== 'serviceFees') last[f] += totals[f] - scheduled[f];
  // The service fee in proportion to interest, each payment's part the step of a rounded running share, so the parts add up.
  let interestSoFar = 0;
  let feeSoFar = 0;
  for (const r of rows) {
    interestSoFar += r.moved.interest;
    const fee = totals.interest === 0 ? 0 : Math.round((totals.serviceFees * interestSoFar) / totals.interest);
    r.moved.serviceFees = fee - feeSoFar;
    feeSoFar = fee;
  }
  last.serviceFees += totals.serviceFees - feeSoFar;
  return rows;
}
