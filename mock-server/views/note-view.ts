/**
 * Notes as GET /notes/ and GET /notes/{loan_note_id} return them: a note is its holder's share of one
 * loan, read off the loan's own view (so status, dates and figures say what the loan says), each money
 * figure split pro rata to the cent.
 *
 * Who holds a loan: its notes and, for the part no note holds, the simulated other investors, whom the
 * market lets fund listings by amount without keeping notes for them. Each figure is split over all of
 * these holders by largest remainder, so every share is its fraction of the figure rounded down or up
 * to the cent and the shares add up to the figure exactly. The other investors' part is never shown:
 * the notes of a loan held by notes alone add up to the loan's figures, and those of any other loan fall
 * short of them by the other investors' share, itself within a cent of their fraction.
 */
import { addMonths } from '../../src/contract/amortisation.js';
import { LOAN_STATUS } from '../../src/contract/enums.js';
import type { Loan as LoanAnswer, NoteAnswerFields as NoteAnswer } from '../../src/contract/resources.js';
import { cents } from '../kit/money.js';
import type { Loan, Note, World } from '../world/world.js';
import { notesOfLoan } from '../world/world-index.js';
import { loanView, originationDate } from './views.js';
import { apportion, holderWeights, toWholeCents } from '../engine/note-shares.js';

/** Each pro-rata field of a note and the loan figure it is a share of. */
export const NOTE_SHARES = {
  principal_balance_pro_rata_share: 'principal_balance',
  principal_paid_pro_rata_share: 'principal_paid',
  interest_paid_pro_rata_share: 'interest_paid',
  service_fees_paid_pro_rata_share: 'service_fees_paid',
  platform_fees_paid_pro_rata_share: 'platform_fees_paid',
  late_fees_paid_pro_rata_share: 'late_fees_paid',
  collection_fees_paid_pro_rata_share: 'collection_fees_paid',
  debt_sale_proceeds_received_pro_rata_share: 'debt_sale_proceeds_received',
  next_payment_due_amount_pro_rata_share: 'next_payment_due_amount',
} as const satisfies Record<string, keyof LoanAnswer>;

type ShareField = keyof typeof NOTE_SHARES;
type Shares = Record<ShareField, number>;

const LOAN_DEFAULT_BANKRUPTCY = 2;
const LOAN_DEFAULT_SETTLED_IN_FULL = 6;

/** The fields of a note's answer worked out from its shares (a field reader gives them the shares). */
const FROM_SHARES: ReadonlySet<string> = new Set(['accrued_interest', 'payment_received']);

/**
 * Months from `from` to `to` on a schedule of due dates a calendar month apart starting at `from`: the whole
 * months passed, plus the part of the current one by time (0 when `to` is not after `from`).
 */
export function monthsOnSchedule(from: number, to: number): number {
  if (to <= from) return 0;
  const a = new Date(from);
  const b = new Date(to);
  // One month short of the calendar difference is never past `to`; step up from there.
  let k = Math.max(0, (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth() - 1);
  while (addMonths(from, k + 1) <= to) k++;
  const start = addMonths(from, k);
  return k + (to - start) / (addMonths(from, k + 1) - start);
}

/** The last due date the borrower paid: a month before the oldest one left unpaid, never before the origination. */
function lastPaidDue(loan: Loan): number {
  return Math.max(loan.origination_date, addMonths(loan.oldestMissedDue ?? loan.next_payment_due_date, -1));
}

/**
 * Interest owed on `principal` (a note's outstanding share) and not yet paid at `now`: principal × borrower_rate / 12
 * for each month on the loan's schedule since the last due date paid, so on a due date it is that month's interest,
 * the interest the servicing then collects on the share (servicing.ts). Only a loan still owed interest accrues:
 * current, or defaulted and not yet charged off (the real answer shows a defaulted note accruing); charged off,
 * completed, cancelled or not yet originated, nothing.
 */
export function accruedInterest(loan: Loan, principal: number, now: number): number {
  if (loan.loan_status !== LOAN_STATUS.CURRENT && loan.loan_status !== LOAN_STATUS.DEFAULTED) return 0;
  return cents(((principal * loan.borrower_rate) / 12) * monthsOnSchedule(lastPaidDue(loan), now));
}

/**
 * The shares of every note of `loan`, by note number. The weights are the notes' ownership amounts and,
 * last, the other investors' part: the amount borrowed that no note holds. While the loan's principal paid
 * and its balance make up the amount borrowed, a note's principal paid is its amount less its share of the
 * balance: the servicing pays a note the fall of its balance share (servicing.ts payNotes, and its payment
 * rows: payment-view.ts), and two splits rounded on their own could hand a tied cent to different notes.
 */
export function loanShares(view: LoanAnswer, notes: readonly Note[]): Map<string, Shares> {
  const weights = holderWeights(view.amount_borrowed, notes);
  const out = new Map<string, Shares>(notes.map((n) => [n.note_number, {} as Shares]));
  const [paid, balance, borrowed] = [view.principal_paid, view.principal_balance, view.amount_borrowed].map((x) => toWholeCents(Number(x)));
  const paidIsRest = paid! + balance! === borrowed && weights.reduce((s, w) => s + w, 0n) === borrowed;
  let balances: bigint[] = [];
  for (const [field, figure] of Object.entries(NOTE_SHARES) as [ShareField, keyof typeof view & string][]) {
    // NOTE_SHARES lists the balance before the principal paid.
    const parts =
      field === 'principal_paid_pro_rata_share' && paidIsRest
        ? weights.map((w, i) => w - balances[i]!)
        : apportion(toWholeCents(Number(view[figure])), weights);
    if (field === 'principal_balance_pro_rata_share') balances = parts;
    notes.forEach((n, i) => (out.get(n.note_number)![field] = Number(parts[i]!) / 100));
  }
  return out;
}

/** The note as the API returns it at `now`, given its loan's view and its shares. */
function noteAnswer(world: World, note: Note, view: LoanAnswer, shares: Shares, now: number): NoteAnswer {
  const listing = world.listingByNumber.get(note.listingNumber);
  const loan = world.loans.get(note.loanNumber)!;
  return {
    loan_note_id: note.note_number,
    loan_number: view.loan_number,
    listing_number: note.listingNumber,
    note_ownership_amount: note.amount,
    ...shares,
    // The mock has no repurchases or loan sales: nothing reaches a note from the platform itself.
    platform_proceeds_net_received: 0,
    next_payment_due_date: view.next_payment_due_date,
    note_status: view.loan_status,
    note_status_description: view.loan_status_description,
    note_default_reason: view.loan_default_reason,
    note_default_reason_description: view.loan_default_reason_description,
    platform_rating: view.platform_rating,
    term: view.term,
    borrower_rate: view.borrower_rate,
    lender_yield: listing?.lender_yield ?? view.borrower_rate,
    amount_borrowed: view.amount_borrowed,
    age_in_months: view.age_in_months,
    accrued_interest: accruedInterest(loan, shares.principal_balance_pro_rata_share, now),
    // As the real answer adds it up: principal + interest + service fees (negative) paid, each the note's share.
    payment_received: cents(
      shares.principal_paid_pro_rata_share + shares.interest_paid_pro_rata_share + shares.service_fees_paid_pro_rata_share,
    ),
    loan_settlement_status: view.loan_default_reason === LOAN_DEFAULT_SETTLED_IN_FULL ? 'Settled' : 'Unspecified',
    loan_extension_status: 'Unspecified',
    loan_extension_term: 0,
    days_past_due: view.days_past_due,
    origination_date: view.origination_date,
    // Notes are bought in the primary market only, so a note is owned from its loan's origination.
    ownership_start_date: view.origination_date,
    ownership_end_date: null,
    is_sold: false,
    is_sold_folio: false,
    note_sale_gross_amount_received: 0,
    note_sale_fees_paid: 0,
    is_in_bankruptcy: view.loan_default_reason === LOAN_DEFAULT_BANKRUPTCY,
    co_borrower_application: listing?.co_borrower_application ?? false,
  };
}

/** Each loan's view and split among its holders, made once per loan on first use. */
class LoanSplits {
  private readonly views = new Map<number, LoanAnswer>();
  private readonly splits = new Map<number, Map<string, Shares>>();

  constructor(
    private readonly world: World,
    private readonly now: number,
    private readonly zone: string | undefined,
  ) {}

  view(loanNumber: number): LoanAnswer {
    let view = this.views.get(loanNumber);
    if (!view) {
      const loan: Loan = this.world.loans.get(loanNumber)!;
      view = loanView(this.world, loan, this.now, this.zone);
      this.views.set(loanNumber, view);
    }
    return view;
  }

  shares(note: Note): Shares {
    let split = this.splits.get(note.loanNumber);
    if (!split) {
      split = loanShares(this.view(note.loanNumber), notesOfLoan(this.world, note.loanNumber));
      this.splits.set(note.loanNumber, split);
    }
    return split.get(note.note_number)!;
  }
}

/** The notes as the API returns them, in the order given; each loan is viewed and split once. */
export function noteViews(world: World, notes: readonly Note[], now: number, zone: string | undefined): NoteAnswer[] {
  const loans = new LoanSplits(world, now, zone);
  return notes.map((note) => noteAnswer(world, note, loans.view(note.loanNumber), loans.shares(note), now));
}

/** Stands for the shares where a field other than a share is read: no share is read from it. */
const NO_SHARES = {} as Shares;

/**
 * A reader of one field of a note's answer that builds no more of it than the field needs: the
 * note's own figures and its loan's origination directly, a share (or a figure made of shares) from its
 * loan's split, any other field from its loan's view (each loan viewed and split once per reader).
 */
export function noteFieldReader(world: World, now: number, zone: string | undefined): (note: Note, field: string) => unknown {
  const loans = new LoanSplits(world, now, zone);
  return (note, field) => {
    switch (field) {
      case 'loan_note_id':
        return note.note_number;
      case 'listing_number':
        return note.listingNumber;
      case 'loan_number':
        return note.loanNumber;
      case 'note_ownership_amount':
        return note.amount;
      case 'origination_date':
      case 'ownership_start_date':
        return originationDate(world.loans.get(note.loanNumber)!, zone);
    }
    if (field in NOTE_SHARES) return loans.shares(note)[field as ShareField];
    const shares = FROM_SHARES.has(field) ? loans.shares(note) : NO_SHARES;
    return noteAnswer(world, note, loans.view(note.loanNumber), shares, now)[field as keyof NoteAnswer];
  };
}

/**
 * A reader of a note's outstanding principal: its principal_balance_pro_rata_share as GET /notes shows
 * it, 0 once its loan is charged off (nothing more is owed on it). The account answer sums exactly these,
 * so the account's outstanding principal is the sum of its notes' to the cent (one rounding, the note's).
 * Only the balance is split, once per loan, as `loanShares` splits it (the loan's balance over its holders'
 * weights): the account answer, read daily, split every figure of every loan it held for this one.
 */
export function noteOutstanding(world: World): (note: Note) => number {
  const balances = new Map<number, bigint[]>();
  return (note) => {
    const loan = world.loans.get(note.loanNumber)!;
    if (loan.loan_status === LOAN_STATUS.CHARGEOFF) return 0;
    const notes = notesOfLoan(world, note.loanNumber);
    let parts = balances.get(note.loanNumber);
    if (!parts) {
      parts = apportion(toWholeCents(loan.principal_balance), holderWeights(loan.amount_borrowed, notes));
      balances.set(note.loanNumber, parts);
    }
    // A loan's notes are one or a few: the note's place among them is its weight's.
    return Number(parts[notes.length === 1 ? 0 : notes.indexOf(note)]!) / 100;
  };
}
