/**
 * Synthetic notes for the portfolio tests: a note whose figures are what the mock's servicing
 * (mock-server/engine/servicing.ts) would have paid it after some installments, computed the mock's
 * way (whole-loan amounts to the cent, the note's share of each to the cent, service fees negative).
 */
import { addMonths, monthlyPayment } from '../../src/contract/amortisation.js';
import { toCents as cents } from '../../src/contract/bid-rules.js';
import { LOAN_STATUS, LOAN_STATUSES } from '../../src/contract/enums.js';
import type { Note } from '../../src/contract/resources.js';
import { SERVICE_FEE_RATE } from '../../mock-server/engine/servicing.js';

/** What to build. */
export interface NoteSpec {
  id?: string;
  amount?: number;
  loanAmount?: number;
  rate?: number;
  term?: number;
  rating?: string;
  /** `yyyy-MM-dd`; ownership starts the same day unless `bought` says otherwise. */
  originated?: string;
  bought?: string;
  /** Installments paid so far (on schedule). */
  payments?: number;
  status?: number;
  daysPastDue?: number;
}

const day = (text: string): number => Date.parse(`${text}T00:00:00Z`);
const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** A note after `payments` on-schedule installments, as the mock's servicing pays them. */
export function scheduledNote(spec: NoteSpec = {}): Note {
  const { amount = 10_000, rate = 0.12, term = 36, payments = 0, originated = '2024-01-31', rating = 'A' } = spec;
  const loanAmount = spec.loanAmount ?? amount;
  const share = amount / loanAmount;
  const installment = monthlyPayment(loanAmount, rate, term);
  let loanBalance = loanAmount;
  const paid = { principal: 0, interest: 0, fee: 0 };
  let held = amount;
  for (let k = 1; k <= payments && loanBalance > 0; k++) {
    const interest = cents((loanBalance * rate) / 12);
    const fee = cents((loanBalance * SERVICE_FEE_RATE) / 12);
    const principal = k >= term ? loanBalance : Math.min(loanBalance, cents(installment - interest));
    loanBalance = cents(loanBalance - principal);
    const p = loanBalance <= 0 ? held : Math.min(held, cents(principal * share));
    const i = cents(interest * share);
    held = cents(held - p);
    paid.principal = cents(paid.principal + p);
    paid.interest = cents(paid.interest + i);
    paid.fee = cents(paid.fee + Math.min(cents(fee * share), i));
  }
  const status = spec.status ?? (held <= 0 ? LOAN_STATUS.COMPLETED : LOAN_STATUS.CURRENT);
  const origination = day(originated);
  return {
    loan_note_id: spec.id ?? '1-1',
    loan_number: 1,
    listing_number: 1,
    note_ownership_amount: amount,
    principal_balance_pro_rata_share: status === LOAN_STATUS.CHARGEOFF ? 0 : held,
    principal_paid_pro_rata_share: paid.principal,
    interest_paid_pro_rata_share: paid.interest,
    service_fees_paid_pro_rata_share: -paid.fee,
    platform_fees_paid_pro_rata_share: 0,
    late_fees_paid_pro_rata_share: 0,
    collection_fees_paid_pro_rata_share: 0,
    debt_sale_proceeds_received_pro_rata_share: 0,
    next_payment_due_amount_pro_rata_share: held > 0 ? cents(installment * share) : 0,
    next_payment_due_date: iso(addMonths(origination, held > 0 ? payments + 1 : Math.max(1, payments))),
    note_status: status,
    note_status_description: LOAN_STATUSES[status]!,
    note_default_reason: null,
    note_default_reason_description: null,
    platform_rating: rating,
    term,
    borrower_rate: rate,
    lender_yield: cents((rate - SERVICE_FEE_RATE) * 100) / 100,
    amount_borrowed: loanAmount,
    age_in_months: payments,
    days_past_due: spec.daysPastDue ?? 0,
    origination_date: originated,
    ownership_start_date: spec.bought ?? originated,
    ownership_end_date: null,
    is_sold: false,
    is_sold_folio: false,
    note_sale_gross_amount_received: 0,
    note_sale_fees_paid: 0,
    is_in_bankruptcy: false,
    co_borrower_application: false,
  };
}

/** The day (epoch ms) `months` after `originated`. */
export function monthsAfter(originated: string, months: number): number {
  return addMonths(day(originated), months);
}
