/**
 * Payments as GET /loans/payments returns them: one row per payment of a loan per note of the caller's
 * in it, each figure the note's share of the payment's. A note's share of a loan figure is what its note
 * shows (note-view.ts: the figure split over the loan's holders by largest remainder); a row is the step
 * of that share over the payment, share(figures after it) − share(figures before it), but for the
 * principal: what the note held less its share of the new balance, never below nothing, as the servicing
 * pays it into the account (servicing.ts payNotes; the note's principal paid is its amount less its balance
 * share). So the rows of a note add up to its note's figures and to its account's ledger to the cent, at
 * any time, and a row never changes once made. (A row's figure may be a cent below zero where the note's
 * exact share of the payment's is under a cent: the largest remainder of a larger total can fall to
 * another holder.)
 */
import { createHash } from 'node:crypto';
import { formatDateTime } from '../../src/contract/dates.js';
import type { PaymentAnswerFields } from '../../src/contract/resources.js';
import type { Loan, Note, Store } from '../world/store.js';
import { notesOfLoan } from '../world/store-index.js';
import { loanPayments, type LoanPayment } from './loan-payments.js';
import { apportion, holderWeights } from './note-view.js';
import { PAID_FIGURES, type PaidCents } from './payment-log.js';

const DAY = 86_400_000;
/** More payments than any loan makes (its term, its catch-ups, a charge-off): a row's id is its note's serial × this + the payment's place. */
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
export function paymentRows(store: Store, loan: Loan, accountId: string): PaymentRow[] {
  const notes = notesOfLoan(store, loan.loan_number);
  const mine = notes.flatMap((n, i) => (n.accountId === accountId ? [i] : []));
  if (mine.length === 0) return [];
  const weights = holderWeights(loan.amount_borrowed, notes);
  const shareOf = (cents: number): bigint[] => apportion(BigInt(cents), weights);
  const rows: PaymentRow[] = [];
  let before = PAID_FIGURES.map(() => shareOf(0));
  // What each note holds before a payment: its amount (its share of the amount borrowed), then its share of each new balance.
  const held = weights.slice(0, notes.length);
  for (const payment of loanPayments(store, loan)) {
    // A figure the payment did not move keeps its split (most payments move three of the six).
    // The principal is split below, as the servicing pays it.
    const after = PAID_FIGURES.map((f, k) => (payment.moved[f] === 0 || f === 'principal' ? before[k]! : shareOf(payment.cumulative[f])));
    const balances = shareOf(payment.balance);
    for (const i of mine) {
      const share = {} as PaidCents;
      PAID_FIGURES.forEach((f, k) => (share[f] = Number(after[k]![i]! - before[k]![i]!)));
      // The principal a note receives is what it held less its share of the new balance, never below nothing, as the
      // servicing posts it to the account (servicing.ts payNotes): split as the paid principal, a tie in the split
      // could give a cent to another holder than the balance's split took it from (and the statement missed the ledger by it).
      const principal = held[i]! > balances[i]! ? held[i]! - balances[i]! : 0n;
      held[i] = held[i]! - principal;
      share.principal = Number(principal);
      rows.push({ loan, note: notes[i]!, payment, share, balance: Number(balances[i]!) });
    }
    before = after;
  }
  return rows;
}

/** Whole cents as the real answer writes an amount: a decimal in a string, no trailing zeros (`"0.7"`, `"26.01"`, `"0"`). */
export function amountText(cents: number): string {
  const size = Math.abs(cents);
  const fraction = size % 100;
  const text = fraction === 0 ? String((size - fraction) / 100) : `${(size - fraction) / 100}.${String(fraction).padStart(2, '0').replace(/0$/, '')}`;
  return cents < 0 ? `-${text}` : text;
}

/** `yyyy-MM-ddTHH:mm:ss.SSS±hhmm` in `zone`, as the real payments answer writes its dates. */
export function paymentDateText(ms: number, zone: string | undefined): string {
  const text = formatDateTime(ms, zone); // yyyy-MM-dd HH:mm:ss ±hhmm
  const millis = String(((ms % 1000) + 1000) % 1000).padStart(3, '0');
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${millis}${text.slice(20)}`;
}

/** A note's number within the store (the part after the dash), for ids that are unique across notes. */
const noteSerial = (note: Note): number => Number(note.note_number.slice(note.note_number.indexOf('-') + 1));

/** The row as the API returns it. */
export function paymentAnswer(store: Store, row: PaymentRow, zone: string | undefined): PaymentAnswerFields {
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
    // A charge-off moves no money from the borrower: its collection fee is the collection agency's (CAP).
    payment_transaction_code: payment.kind === 'payment' ? 'ACH' : 'CAP',
    payment_status: 'Success',
    // One id per loan payment, the same on every note's row of it, as the real answer's 40 hex digits.
    match_back_id: createHash('sha1').update(`${store.seed}:${row.loan.loan_number}:${payment.seq}`).digest('hex').toUpperCase(),
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
