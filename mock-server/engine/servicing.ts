/**
 * Monthly loan servicing: on each due date a borrower pays (amortised interest and principal, a
 * service fee for the operator), misses (days past due grow; 91+ days defaults, 121+ charges off),
 * catches up with late fees, pays off early, or defaults outright (bankruptcy, death). Investors'
 * notes get their pro-rata share through the ledger; a charge-off writes the notes' principal off.
 * Each payment and charge-off is logged on its loan (payment-log.ts) for GET /loans/payments.
 */
import { LOAN_STATUS } from '../../src/contract/enums.js';
import { cents, monthlyPayment } from '../kit/money.js';
import type { Loan, Note, Store } from '../world/store.js';
import { notesOfLoan } from '../world/store-index.js';
import { LEDGER_KINDS, post } from './ledger.js';
import { addMonths } from './lifecycle.js';
import { apportion, holderWeights, principalShares } from './note-view.js';
import { logStep, paidSoFar, type PaidCents, type PaidFigure } from './payment-log.js';
import { firstDraw3 } from './rng-for.js';

const DAY = 86_400_000;
/** Late fee per missed installment, paid on catching up. */
export const LATE_FEE = 15;
/** Failed-payment fee per missed installment, the operator's on catching up (platform_fees_paid). */
export const FAILED_PAYMENT_FEE = 15;
/** The operator's servicing fee, a yearly rate on the outstanding balance. */
export const SERVICE_FEE_RATE = 0.01;
/** Salt of the draw that decides what a borrower does on a due date. */
const DUE_DATE_SALT = 0xd0e;
const MISS_BY_RATING: Readonly<Record<string, number>> = { AA: 0.01, A: 0.015, B: 0.02, C: 0.03, D: 0.045, E: 0.06, HR: 0.08 };

/** Money of one payment event, whole-loan figures. */
interface Payment {
  principal: number;
  interest: number;
  lateFees: number;
  serviceFee: number;
}

/**
 * Services one loan at the tick at `t`: a defaulted loan grows past due and charges off at its time;
 * a current one grows past due, defaults at 91 days, and meets its due date once it has come. The
 * timeline (timeline.ts) brings a loan here only at the hours this can change it.
 */
export function serviceLoan(store: Store, loan: Loan, t: number): void {
  if (loan.loan_status === LOAN_STATUS.DEFAULTED) {
    updateArrears(loan, t);
    if (loan.chargeOffAt != null && loan.chargeOffAt <= t) chargeOff(loan, notesOfLoan(store, loan.loan_number), t);
    return;
  }
  if (loan.loan_status !== LOAN_STATUS.CURRENT) return;
  updateArrears(loan, t);
  if (loan.days_past_due >= 91) return defaultLoan(loan, 1, t);
  if (loan.next_payment_due_date > t) return;
  dueDate(store, loan, notesOfLoan(store, loan.loan_number), t);
}

/** Days past due from the oldest missed due date; a loan with none keeps what it has (0, or a seeded default's figure). */
function updateArrears(loan: Loan, t: number): void {
  if (loan.oldestMissedDue != null) loan.days_past_due = Math.max(0, Math.floor((t - loan.oldestMissedDue) / DAY));
}

function defaultLoan(loan: Loan, reason: number, t: number): void {
  loan.loan_status = LOAN_STATUS.DEFAULTED;
  loan.loan_default_reason = reason;
  loan.next_payment_due_amount = 0;
  // next_payment_due_date stays the due date it had: the spec types it as a date, never null.
  // Delinquent loans charge off at 121 days past due; bankruptcy and death 30 days after the default.
  loan.chargeOffAt = reason === 1 && loan.oldestMissedDue != null ? loan.oldestMissedDue + 121 * DAY : t + 30 * DAY;
}

function dueDate(store: Store, loan: Loan, notes: readonly Note[], t: number): void {
  const due = loan.next_payment_due_date;
  const missed = loan.missedPayments ?? 0;
  const r = firstDraw3(store.seed, loan.loan_number, DUE_DATE_SALT, due);
  const missChance = MISS_BY_RATING[loan.platform_rating] ?? 0.03;
  if (r < 0.0008) return defaultLoan(loan, 2, t);
  if (r < 0.0012) return defaultLoan(loan, 3, t);
  if (r < 0.0012 + (missed > 0 ? 0.45 : missChance)) {
    loan.missedPayments = missed + 1;
    loan.oldestMissedDue ??= due;
    loan.next_payment_due_date = addMonths(due, 1);
    loan.next_payment_due_amount = cents(installment(loan) * (missed + 2) + (LATE_FEE + FAILED_PAYMENT_FEE) * (missed + 1));
    updateArrears(loan, t);
    return;
  }
  const payoff = missed === 0 && r > 0.992;
  const before = paidSoFar(loan);
  const paymentsBefore = loan.paymentsMade;
  const daysPastDue = loan.days_past_due;
  const pay: Payment = { principal: 0, interest: 0, lateFees: cents(LATE_FEE * missed), serviceFee: 0 };
  const installments = payoff ? 1 : missed + 1;
  for (let i = 0; i < installments && loan.principal_balance > 0; i++) {
    const interest = cents((loan.principal_balance * loan.borrower_rate) / 12);
    const fee = cents((loan.principal_balance * SERVICE_FEE_RATE) / 12);
    const last = loan.paymentsMade + 1 >= loan.term;
    const principal = payoff || last ? loan.principal_balance : Math.min(loan.principal_balance, cents(installment(loan) - interest));
    pay.interest = cents(pay.interest + interest);
    pay.serviceFee = cents(pay.serviceFee + fee);
    pay.principal = cents(pay.principal + principal);
    loan.principal_balance = cents(loan.principal_balance - principal);
    loan.paymentsMade += 1;
  }
  loan.principal_paid = cents(loan.principal_paid + pay.principal);
  loan.interest_paid = cents(loan.interest_paid + pay.interest);
  loan.late_fees_paid = cents(loan.late_fees_paid + pay.lateFees);
  loan.platform_fees_paid = cents(loan.platform_fees_paid + FAILED_PAYMENT_FEE * missed);
  loan.service_fees_paid = cents(loan.service_fees_paid - pay.serviceFee);
  // Caught up: no arrears left (cleared, so the loan table's sparse columns keep only loans in arrears).
  loan.missedPayments = undefined;
  loan.oldestMissedDue = undefined;
  loan.days_past_due = 0;
  const done = loan.principal_balance <= 0;
  if (done) {
    // Paid off, on schedule or early, is not a default: no reason (PaidInFull is for loans that defaulted first),
    // and the due date stays the last one its schedule reached, the one just paid.
    loan.loan_status = LOAN_STATUS.COMPLETED;
    loan.loan_default_reason = null;
    loan.next_payment_due_amount = 0;
  } else {
    loan.next_payment_due_date = addMonths(due, installments);
    loan.next_payment_due_amount = installment(loan);
  }
  logStep(loan, 'payment', t, daysPastDue, before, paymentsBefore);
  payNotes(store, loan, notes, before, done, t);
}

/** The level installment of a loan over its whole term. */
function installment(loan: Loan): number {
  return monthlyPayment(loan.amount_borrowed, loan.borrower_rate, loan.term);
}

/**
 * Each note's share of a payment, through the ledger: the step of its share of the loan's figures, each
 * figure split over the loan's holders by largest remainder (note-view.ts) before and after the payment,
 * as GET /loans/payments shows it (payment-view.ts). So the cash a note brings its account is, to the
 * cent, what its payment rows and its note say it received (rounding each note's share of each payment
 * on its own drifted a cent at a time: 1.10 over a year of 2,000 rows). What each note still holds after
 * the payment is its share of the loan's new balance as GET /notes shows it (never more than it held), so
 * the account's outstanding principal and its notes never part by a cent.
 */
function payNotes(store: Store, loan: Loan, notes: readonly Note[], before: PaidCents, done: boolean, t: number): void {
  const after = paidSoFar(loan);
  const weights = holderWeights(loan.amount_borrowed, notes);
  const step = (f: PaidFigure): bigint[] => {
    const [was, is] = [apportion(BigInt(before[f]), weights), apportion(BigInt(after[f]), weights)];
    return is.map((x, i) => x - was[i]!);
  };
  const [interests, lates, fees] = (['interest', 'lateFees', 'serviceFees'] as const).map(step);
  const left = principalShares(loan.amount_borrowed, loan.principal_balance, notes);
  notes.forEach((n, i) => {
    const held = n.principal ?? 0;
    if (held <= 0 && !done) return;
    const principal = done ? held : cents(Math.max(0, held - left[i]!));
    const ref = `${loan.loan_number}:${n.note_number}`;
    n.principal = cents(held - principal);
    post(store, n.accountId, principal, LEDGER_KINDS.PRINCIPAL, ref, t);
    post(store, n.accountId, Number(interests![i]!) / 100, LEDGER_KINDS.INTEREST, ref, t);
    post(store, n.accountId, Number(lates![i]!) / 100, LEDGER_KINDS.LATE_FEE, ref, t);
    post(store, n.accountId, -Number(fees![i]!) / 100, LEDGER_KINDS.SERVICE_FEE, ref, t);
  });
}

function chargeOff(loan: Loan, notes: readonly Note[], t: number): void {
  const before = paidSoFar(loan);
  loan.loan_status = LOAN_STATUS.CHARGEOFF;
  loan.chargeOffAt = undefined;
  loan.collection_fees_paid = cents(loan.collection_fees_paid + loan.principal_balance * 0.02);
  logStep(loan, 'chargeoff', t, loan.days_past_due, before, loan.paymentsMade);
  for (const n of notes) {
    n.chargedOff = cents((n.chargedOff ?? 0) + (n.principal ?? 0));
    n.principal = 0;
  }
}
