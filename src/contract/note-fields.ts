/** Every field of a note, named once: the mock's sort fields and the CLI's `--columns` both read this list. */
import type { NoteAnswerFields } from './resources.js';

/** The fields of a note, in the order the API lists them. */
export const NOTE_FIELDS = [
  'loan_note_id',
  'loan_number',
  'listing_number',
  'note_ownership_amount',
  'principal_balance_pro_rata_share',
  'principal_paid_pro_rata_share',
  'interest_paid_pro_rata_share',
  'service_fees_paid_pro_rata_share',
  'platform_fees_paid_pro_rata_share',
  'late_fees_paid_pro_rata_share',
  'collection_fees_paid_pro_rata_share',
  'debt_sale_proceeds_received_pro_rata_share',
  'platform_proceeds_net_received',
  'next_payment_due_amount_pro_rata_share',
  'next_payment_due_date',
  'note_status',
  'note_status_description',
  'note_default_reason',
  'note_default_reason_description',
  'platform_rating',
  'term',
  'borrower_rate',
  'lender_yield',
  'amount_borrowed',
  'age_in_months',
  'accrued_interest',
  'payment_received',
  'loan_settlement_status',
  'loan_extension_status',
  'loan_extension_term',
  'days_past_due',
  'origination_date',
  'ownership_start_date',
  'ownership_end_date',
  'is_sold',
  'is_sold_folio',
  'note_sale_gross_amount_received',
  'note_sale_fees_paid',
  'is_in_bankruptcy',
  'co_borrower_application',
] as const satisfies readonly (keyof NoteAnswerFields)[];

// A field added to the note's answer and not to the list above fails to compile here.
type Unlisted = Exclude<keyof NoteAnswerFields, (typeof NOTE_FIELDS)[number]>;
const complete: [Unlisted] extends [never] ? true : Unlisted = true;
void complete;

/** A loan_note_id as the API hands them out: `{loan_number}-{n}` (the loan number is the first group). */
export const NOTE_ID = /^(\d{1,15})-\d{1,15}$/;
