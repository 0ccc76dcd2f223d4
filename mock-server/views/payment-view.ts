/**
 * Payments as GET /loans/payments returns them: one row per payment of a loan per note of the caller's
 * in it, each figure the note's share of the payment's. A row is the loan's logged step split over its holders
 * by the very function the posting split it with when it moved the notes' accounts (postings.ts `splitStep`):
 * each figure the step of the note's largest-remainder share of the loan's figure, the principal what the note
 * held less its share of the new balance. So the rows of a note add up to its note's figures (note-view.ts) and
 * to what its account was paid for it, to the cent, at any time, and a row never changes once made. (A row's
 * figure may be a cent below zero where the note's exact share of the payment's is under a cent: the largest
 * remainder of a larger total can fall to another holder.)
 */
import { sha1Hex } from '../kit/digest.js';
import { formatDateTime } from '../../src/contract/dates.js';
import type { PaymentAnswerFields } from '../../src/contract/resources.js';
import type { Loan, Note, World } from '../world/world.js';
import { notesOfLoan } from '../world/world-index.js';
import { loanPayments, type LoanPayment } from '../engine/loan-payments.js';
import { holderWeights } from '../engine/note-shares.js';
import { noCents, type PaidCents } from '../engine/payment-log.js';
import { splitStep } from '../engine/postings.js';

const DAY = 86_400_000;
/** More payments than any loan makes (its term, its catch-ups, a charge-off, its collections): a row's id is its note's serial × this + the payment's place. */
const ROWS_PER_NOTE = 10_000;

/** One note's share of one payment, whole cents. */
export interface PaymentRow {
  loan: Loan;
  note: Note;
  payment: LoanPayment;
  share: PaidCents;
  /** The note's share of the principal outstanding after the payment. */
  balance: number;
}

/** The rows of `accountId`'s notes in `loan`, oldest payment first; none when the account holds no note in it. */
export function paymentRows(world: World, loan: Loan, accountId: string): PaymentRow[] {
  return loanRows(world, loan, (n) => n.accountId === accountId);
}

/** The rows of the notes of `loan` that `pick` keeps (all by default), oldest payment first, a payment's rows in the loan's note order. */
export function loanRows(world: World, loan: Loan, pick: (n: Note) => boolean = () => true): PaymentRow[] {
  const notes = notesOfLoan(world, loan.loan_number);
  const mine = notes.flatMap((n, i) => (pick(n) ? [i] : []));
  if (mine.length === 0) return [];
  const weights = holderWeights(loan.amount_borrowed, notes).map(Number);
  // What each note holds before a payment: its amount (its weight) at first, then what each step leaves it.
  const held = weights.slice(0, notes.length);
  const rows: PaymentRow[] = [];
  let before = noCents();
  for (const payment of loanPayments(world, loan)) {
    const { parts, balances } = splitStep(weights, before, payment.cumulative, payment.balance, held);
    for (const i of mine) rows.push({ loan, note: notes[i]!, payment, share: parts[i]!, balance: balances[i]! });
    before = payment.cumulative;
  }
  return rows;
}

/** Whole cents as the real answer writes an amount: a decimal in a string, no trailing zeros (`"0.7"`, `"26.01"`, `"0"`). */
export function amountText(cents: number): string {
  const size = Math.abs(cents);
  const fraction = size % 100;
  const text =
    fraction === 0 ? String((size - fraction) / 100) : `${(size - fraction) / 100}.${String(fraction).padStart(2, '0').replace(/0$/, '')}`;
  return cents < 0 ? `-${text}` : text;
}

/** `yyyy-MM-ddTHH:mm:ss.SSS±hhmm` in `zone`, as the real payments answer writes its dates. */
export function paymentDateText(ms: number, zone: string | undefined): string {
  const text = formatDateTime(ms, zone); // yyyy-MM-dd HH:mm:ss ±hhmm
  const millis = String(((ms % 1000) + 1000) % 1000).padStart(3, '0');
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${millis}${text.slice(20)}`;
}

/** A note's number within the world (the part after the dash), for ids that are unique across notes. */
const noteSerial = (note: Note): number => Number(note.note_number.slice(note.note_number.indexOf('-') + 1));

/** The row as the API returns it. */
export function paymentAnswer(world: World, row: PaymentRow, zone: string | undefined): PaymentAnswerFields {
  const { payment, share } = row;
  const at = payment.at;
  const payment_amount = share.principal + share.interest + share.lateFees;
  return {
    loan_number: row.loan.loan_number,
    transaction_id: noteSerial(row.note) * ROWS_PER_NOTE + payment.seq,
    // The real answer's spacing: funds available a day after the payment's effective date, paid out to investors the day after.
    funds_available_date: paymentDateText(at + DAY, zone),
    investor_disbursement_date: paymentDateText(at + 2 * DAY, zone),
    transaction_effective_date: paymentDateText(at, zone),
    account_effective_date: paymentDateText(at, zone),
    // A charge-off (moving no money) and what the collection agency collects after it are the agency's rows (CAP).
    payment_transaction_code: payment.kind === 'payment' ? 'ACH' : 'CAP',
    payment_status: 'Success',
    // One id per loan payment, the same on every note's row of it, as the real answer's 40 hex digits.
    match_back_id: sha1Hex(`${world.seed}:${row.loan.loan_number}:${payment.seq}`).toUpperCase(),
    prior_match_back_id: null,
    loan_payment_cashflow_type: payment.kind === 'payment' ? 'Payment' : 'Other',
    payment_amount: amountText(payment_amount),
    principal_amount: amountText(share.principal),
    interest_amount: amountText(share.interest),
    origination_interest_amount: '0',
    late_fee_amount: amountText(share.lateFees),
    service_fee_amount: amountText(share.serviceFees),
    collection_fee_amount: amountText(share.collectionFees),
    gl_reward_amount: '0',
    nsf_fee_amount: amountText(share.platformFees),
    pre_days_past_due: payment.preDaysPastDue,
    post_days_past_due: payment.postDaysPastDue,
    resulting_principal_balance: amountText(row.balance),
  };
}
