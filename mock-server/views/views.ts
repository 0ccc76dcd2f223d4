/**
 * Orders, order listings and loans as the API returns them (the contract's answer types): dates in the request's zone, money to the
 * cent, deprecated yields only for listings that started on or before 2018-08-08.
 */
import { formatDate, formatDateTime } from '../../src/contract/dates.js';
import { LISTING_CATEGORIES, LOAN_DEFAULT_REASONS, LOAN_STATUSES } from '../../src/contract/enums.js';
import { hasDeprecatedFields } from '../../src/contract/listing-fields.js';
import { cents } from '../kit/money.js';
import type { Loan as LoanAnswer, Order as OrderAnswer, OrderListing } from '../../src/contract/resources.js';
import type { Bid, Listing, Loan, Order, World } from '../world/world.js';
import { notesOf } from '../world/world-index.js';

const DAY = 86_400_000;

/** True when a listing is old enough to carry the deprecated yield fields. */
export function hasDeprecatedYields(l: Listing | undefined): boolean {
  return !!l && hasDeprecatedFields(l.listing_start_date);
}

/** The deprecated yields of an order: bid-weighted over its old listings, or nothing. */
function orderYields(world: World, order: Order): Record<string, number> {
  let weight = 0;
  let ret = 0;
  let loss = 0;
  let eff = 0;
  for (const b of order.bids) {
    const l = world.listingByNumber.get(b.listing_id);
    if (!l || !hasDeprecatedYields(l)) continue;
    weight += b.bid_amount;
    ret += l.estimated_return * b.bid_amount;
    loss += l.estimated_loss_rate * b.bid_amount;
    eff += l.effective_yield * b.bid_amount;
  }
  if (weight === 0) return {};
  const r = (x: number): number => Math.round((x / weight) * 10000) / 10000;
  return { estimated_return: r(ret), estimated_loss: r(loss), effective_yield: r(eff) };
}

/** The answer to POST /orders: every bid PENDING, the order IN_PROGRESS. */
export function createdOrderView(world: World, o: Order, zone: string | undefined): OrderAnswer {
  return {
    order_id: o.order_id,
    order_date: formatDateTime(o.order_date, zone),
    bid_requests: o.bids.map((b) => ({ listing_id: b.listing_id, bid_amount: b.bid_amount, bid_status: 'PENDING' })),
    order_status: 'IN_PROGRESS',
    source: o.source,
    ...orderYields(world, o),
  };
}

/** An order as GET /orders/{id} and GET /orders/ return it. */
export function orderView(world: World, o: Order, zone: string | undefined): OrderAnswer {
  const sum = (f: (b: Bid) => number): number => cents(o.bids.reduce((s, b) => s + f(b), 0));
  return {
    order_id: o.order_id,
    order_date: formatDateTime(o.order_date, zone),
    order_amount: sum((b) => b.bid_amount),
    order_amount_placed: sum((b) => b.bid_amount_placed),
    order_amount_invested: sum((b) => (b.bid_status === 'INVESTED' ? b.bid_amount_placed : 0)),
    bid_requests: o.bids.map((b) => ({
      listing_id: b.listing_id,
      bid_amount: b.bid_amount,
      bid_amount_placed: b.bid_amount_placed,
      bid_status: b.bid_status,
      bid_result: b.bid_result,
    })),
    // No saved searches in the mock: left out rather than null (the real marketplace's clients do not expect it).
    order_status: o.order_status,
    source: o.source,
    ...orderYields(world, o),
  };
}

const STATUS_REASON: Readonly<Record<string, string>> = {
  PENDING: 'Bid placed; waiting for the listing to originate',
  INVESTED: 'Invested: the listing originated',
  EXPIRED: 'Expired: no note was bought',
};

/** One listing of an order (GET /orders/{id}/listings), flat values for sorting and filtering. */
export function orderListingView(world: World, o: Order, b: Bid, zone: string | undefined): OrderListing {
  const l = world.listingByNumber.get(b.listing_id)!;
  let invested = 0;
  for (const n of notesOf(world, o.accountId)) if (n.listingNumber === l.listing_number) invested += n.amount;
  const reason =
    b.bid_status === 'PENDING' && b.bid_result === 'NONE'
      ? 'Waiting to be processed'
      : b.bid_status === 'EXPIRED' && b.bid_result !== 'BID_SUCCEEDED' && b.bid_result !== 'PARTIAL_BID_SUCCEEDED'
        ? `Expired: ${b.bid_result}`
        : STATUS_REASON[b.bid_status]!;
  const out: OrderListing = {
    listing_title: l.listing_title,
    invested_amount: cents(invested),
    listing_amount: l.listing_amount,
    loan_term_months: l.listing_term,
    current_yield: l.lender_yield,
    amount_funded: l.amount_funded,
    platform_rating: l.platform_rating,
    verification_stage: l.verification_stage,
    percent_funded: l.percent_funded,
    historical_return: l.historical_return,
    historical_return_10th_pctl: l.historical_return_10th_pctl,
    historical_return_90th_pctl: l.historical_return_90th_pctl,
    listing_duration: Math.round((l.listing_end_date - l.listing_start_date) / DAY),
    listing_number: String(l.listing_number),
    status: b.bid_status,
    status_reason: reason,
    listing_status_reason: l.listing_status_reason,
    estimated_end_date: formatDate(l.listing_end_date, zone),
    listing_status: l.listing_status,
    start_date: formatDate(l.listing_start_date, zone),
    note_number: b.bid_status === 'INVESTED' ? b.note_number : null,
    listing_category_id: l.listing_category_id,
    listing_category_name: LISTING_CATEGORIES[l.listing_category_id] ?? null,
  };
  if (hasDeprecatedYields(l)) {
    out.effective_yield = l.effective_yield;
    out.estimated_loss = l.estimated_loss_rate;
    out.estimated_return = l.estimated_return;
  }
  return out;
}

/** Whole months from `from` to `to`. */
function monthsBetween(from: number, to: number): number {
  const a = new Date(from);
  const b = new Date(to);
  let m = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
  if (b.getUTCDate() < a.getUTCDate()) m -= 1;
  return Math.max(0, m);
}

/** A loan's `origination_date` as its view shows it in `zone`: the key lists are ordered by without viewing every loan. */
export function originationDate(loan: Loan, zone: string | undefined): string {
  return formatDate(loan.origination_date, zone);
}

/** A loan as GET /loans/ and GET /loans/{id} return it. */
export function loanView(world: World, loan: Loan, now: number, zone: string | undefined): LoanAnswer {
  const out: LoanAnswer = {
    loan_number: loan.loan_number,
    age_in_months: monthsBetween(loan.origination_date, now),
    amount_borrowed: loan.amount_borrowed,
    borrower_rate: loan.borrower_rate,
    days_past_due: loan.days_past_due,
    collection_fees_paid: loan.collection_fees_paid,
    debt_sale_proceeds_received: loan.debt_sale_proceeds_received,
    interest_paid: loan.interest_paid,
    late_fees_paid: loan.late_fees_paid,
    loan_default_reason: loan.loan_default_reason,
    loan_default_reason_description: loan.loan_default_reason === null ? null : (LOAN_DEFAULT_REASONS[loan.loan_default_reason] ?? null),
    loan_status: loan.loan_status,
    loan_status_description: LOAN_STATUSES[loan.loan_status] ?? null,
    next_payment_due_date: formatDate(loan.next_payment_due_date, zone),
    next_payment_due_amount: loan.next_payment_due_amount,
    origination_date: originationDate(loan, zone),
    principal_balance: loan.principal_balance,
    principal_paid: loan.principal_paid,
    platform_fees_paid: loan.platform_fees_paid,
    platform_rating: loan.platform_rating,
    service_fees_paid: loan.service_fees_paid,
    term: loan.term,
  };
  if (hasDeprecatedYields(world.listingByNumber.get(loan.listingNumber))) out.group_leader_award = 0;
  return out;
}
