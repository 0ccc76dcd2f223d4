/**
 * A note's figures as the report reckons with them, read from a note as the marketplace sent it:
 * amounts may come as decimal strings and any field may be left out. The report cannot work without
 * what was invested and a date to invest it on; anything else left out counts as nothing paid.
 */
import { DecodeError, required, toNumber, type Note } from '../contract/decode.js';
import type { NoteFields } from '../contract/resources.js';

/** The fields of a note the report reads, each a number or text (the mock's notes are these as they are). */
export type NoteFigures = { days_past_due: number | null } & Pick<
  NoteFields<string>,
  | 'loan_note_id'
  | 'note_ownership_amount'
  | 'principal_balance_pro_rata_share'
  | 'principal_paid_pro_rata_share'
  | 'interest_paid_pro_rata_share'
  | 'service_fees_paid_pro_rata_share'
  | 'late_fees_paid_pro_rata_share'
  | 'collection_fees_paid_pro_rata_share'
  | 'debt_sale_proceeds_received_pro_rata_share'
  | 'note_status'
  | 'term'
  | 'borrower_rate'
  | 'lender_yield'
  | 'amount_borrowed'
  | 'age_in_months'
  | 'platform_rating'
  | 'origination_date'
  | 'ownership_start_date'
  | 'next_payment_due_date'
  | 'loan_number'
  | 'ownership_end_date'
  | 'is_sold'
  | 'note_sale_gross_amount_received'
  | 'note_sale_fees_paid'
>;

/** The figures of note `n` at `path` of the answer; a DecodeError when it lacks the amount invested or any date to date it by. */
export function noteFigures(n: Note, path: string): NoteFigures {
  const owned = required(n.note_ownership_amount, `${path}.note_ownership_amount`);
  const start = n.ownership_start_date ?? n.origination_date;
  if (typeof start !== 'string' || start === '')
    throw new DecodeError(`${path}.ownership_start_date`, 'is missing, and so is origination_date');
  const amount = (v: unknown): number => toNumber(v) ?? 0;
  const rate = amount(n.borrower_rate);
  return {
    loan_note_id: n.loan_note_id ?? '',
    note_ownership_amount: owned,
    principal_balance_pro_rata_share: amount(n.principal_balance_pro_rata_share),
    principal_paid_pro_rata_share: amount(n.principal_paid_pro_rata_share),
    interest_paid_pro_rata_share: amount(n.interest_paid_pro_rata_share),
    service_fees_paid_pro_rata_share: amount(n.service_fees_paid_pro_rata_share),
    late_fees_paid_pro_rata_share: amount(n.late_fees_paid_pro_rata_share),
    collection_fees_paid_pro_rata_share: amount(n.collection_fees_paid_pro_rata_share),
    debt_sale_proceeds_received_pro_rata_share: amount(n.debt_sale_proceeds_received_pro_rata_share),
    // No status: read as current (late by days_past_due), which writes nothing down it does not know of.
    note_status: toNumber(n.note_status) ?? Number.NaN,
    // No term: no schedule to date payments by; what was received counts at the end.
    term: Math.max(0, Math.trunc(amount(n.term))),
    borrower_rate: rate,
    // The 2015 answer has no lender_yield: the fees it paid are in service_fees_paid already.
    lender_yield: toNumber(n.lender_yield) ?? rate,
    amount_borrowed: toNumber(n.amount_borrowed) || owned,
    age_in_months: amount(n.age_in_months),
    // None sent: null, so the report knows to re-derive them from the payment rows (and says so).
    days_past_due: toNumber(n.days_past_due) ?? null,
    platform_rating: n.platform_rating ?? '',
    origination_date: n.origination_date ?? start,
    ownership_start_date: start,
    next_payment_due_date: n.next_payment_due_date ?? '',
    // A note's id is `{loan_number}-{n}`: the loan it is of when the answer leaves the number out.
    loan_number: toNumber(n.loan_number) ?? (Number(String(n.loan_note_id ?? '').split('-')[0]) || 0),
    ownership_end_date: typeof n.ownership_end_date === 'string' ? n.ownership_end_date : null,
    is_sold: n.is_sold === true || n.is_sold === 'true',
    note_sale_gross_amount_received: amount(n.note_sale_gross_amount_received),
    note_sale_fees_paid: amount(n.note_sale_fees_paid),
  };
}
