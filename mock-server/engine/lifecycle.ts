/**
 * Listing and bid transitions shared by order processing and the market: placing money on a listing,
 * Pending, origination (loan, notes, INVESTED bids), and the endings that EXPIRE bids with refunds
 * (expired unfunded, withdrawn or cancelled by the operator). Orders complete here.
 */
import { LISTING_STATUS, LOAN_STATUS } from '../../src/contract/enums.js';
import { addMonths } from '../../src/contract/amortisation.js';
import { cents, monthlyPayment } from '../kit/money.js';
import { addLoan, type Bid, type Listing, type Loan, type Order, type World } from '../world/world.js';
import { touchListing } from '../search/listing-index.js';
import { addNote, bidsOnListing, type BidRef } from '../world/world-index.js';
import { LEDGER_KINDS, post } from './ledger.js';
import { notifyCompleted } from './notifications.js';
import { fundedAfter, percentFunded, readyToOriginate } from './own-steps.js';
import { setPending, setStatus } from './listing-status.js';
import { listingChanged } from './timeline.js';

export { ORIGINATION_WINDOW_MS } from './own-steps.js';
export { setStatus };

/** Adds `amount` to what a listing has been funded (never above its amount). */
export function fund(world: World, l: Listing, amount: number, at: number): void {
  // Each field read once: they are accessors over the listing table's columns, and the market funds on most of its visits.
  const total = l.listing_amount;
  const funded = fundedAfter(total, l.amount_funded, amount);
  l.amount_funded = funded;
  l.amount_remaining = cents(total - funded);
  l.percent_funded = percentFunded(funded, total);
  l.last_updated_date = at;
  touchListing(world, l);
}

/** Every bid on listing `n` whose order is not yet completed, with its order. */
export function bidsOn(world: World, n: number): readonly BidRef[] {
  const refs = bidsOnListing(world, n);
  // Most listings that end or originate hold no bid of anyone we model: no new array for them.
  return refs.length === 0 ? refs : refs.filter(({ order }) => order.order_status !== 'COMPLETED');
}

/** True while an order not yet processed holds a PENDING bid on listing `n` (a whole loan is then taken). */
export function heldByUnprocessedBid(world: World, n: number): boolean {
  return bidsOnListing(world, n).some(({ order, bid }) => !order.processed && bid.bid_status === 'PENDING');
}

/** Marks an order COMPLETED once every bid is INVESTED or EXPIRED, and emails the investor (once: only on the change). */
export function completeIfDone(world: World, order: Order, at: number): void {
  if (order.order_status === 'COMPLETED') return;
  if (order.processed && order.bids.every((b) => b.bid_status === 'INVESTED' || b.bid_status === 'EXPIRED')) {
    order.order_status = 'COMPLETED';
    notifyCompleted(world, order, at);
  }
}

/** Expires one bid and credits back what it still holds (the whole amount if never processed). */
export function expireBid(world: World, order: Order, bid: Bid, at: number): void {
  if (bid.bid_status !== 'PENDING') return;
  const held = bid.bid_result === 'NONE' ? bid.bid_amount : bid.bid_amount_placed;
  bid.bid_status = 'EXPIRED';
  post(world, order.accountId, held, LEDGER_KINDS.BID_REFUND, `${order.order_id}:${bid.listing_id}`, at);
  completeIfDone(world, order, at);
}

/** Ends a listing without a loan (expired, withdrawn, cancelled): its placed bids EXPIRE with refunds. */
export function endListing(world: World, l: Listing, status: number, at: number): void {
  setStatus(world, l, status, at);
  // Cleared, not null: its column keeps only the listings waiting to originate (listing-table.ts LATER_FIELDS).
  l.originateAt = undefined;
  for (const { order, bid } of bidsOn(world, l.listing_number)) {
    // An unprocessed bid keeps its money until processing finds the listing no longer biddable.
    if (bid.bid_result !== 'NONE') expireBid(world, order, bid, at);
  }
}

/** True when a listing may originate: three verification stages and funded enough. */
export function canOriginate(l: Listing, atEnd: boolean): boolean {
  if (l.verification_stage < 3) return false;
  if (readyToOriginate(l.verification_stage, l.amount_funded, l.listing_amount)) return true;
  return atEnd && l.investment_typeid === 1 && l.partial_funding_indicator && l.percent_funded >= 0.7;
}

/** Moves a funded listing to Pending and picks its origination time inside the 14-day window. */
export function makePending(world: World, l: Listing, at: number): void {
  setPending(world, l, at);
  listingChanged(world, l);
}

/** Calendar months added to a time: the contract's rule, shared with the portfolio report. */
export { addMonths };

/** Originates a Pending listing: a loan of the funded amount, a note per placed bid, bids INVESTED. */
export function originate(world: World, l: Listing, at: number): Loan {
  const amount = l.amount_funded;
  // Arrears and a charge-off time come with servicing (sparse columns of the loan table: loan-table.ts). Written into one
  // scratch record, every field each time (the due date each new time), which the world copies into a row of its columns
  // (a new object per loan was a fifth of what a 15-day move allocated).
  const o = originated;
  const rate = l.borrower_rate;
  const term = l.listing_term;
  // A tick's originations share their time: the first due date is worked out once a time (the record keeps the last).
  if (o.origination_date !== at) {
    o.origination_date = at;
    o.next_payment_due_date = addMonths(at, 1);
  }
  o.loan_number = world.counters.loan++;
  o.listingNumber = l.listing_number;
  o.amount_borrowed = amount;
  o.borrower_rate = rate;
  o.term = term;
  o.platform_rating = l.platform_rating;
  o.loan_status = LOAN_STATUS.CURRENT;
  o.loan_default_reason = null;
  o.days_past_due = 0;
  o.principal_balance = amount;
  o.principal_paid = 0;
  o.interest_paid = 0;
  o.late_fees_paid = 0;
  o.platform_fees_paid = 0;
  o.service_fees_paid = 0;
  o.collection_fees_paid = 0;
  o.debt_sale_proceeds_received = 0;
  o.next_payment_due_amount = monthlyPayment(amount, rate, term);
  o.paymentsMade = 0;
  const loan = addLoan(world, o);
  // The loan first: setStatus moves the listing to the originated ones with its status.
  l.loan_number = loan.loan_number;
  l.loan_origination_date = at;
  l.originateAt = undefined;
  setStatus(world, l, LISTING_STATUS.COMPLETED, at);
  for (const { order, bid } of bidsOn(world, l.listing_number)) {
    // An unprocessed bid is left to processing, which will find the listing no longer biddable.
    if (bid.bid_status !== 'PENDING' || bid.bid_result === 'NONE') continue;
    if (bid.bid_amount_placed <= 0) {
      expireBid(world, order, bid, at);
      continue;
    }
    const note_number = `${loan.loan_number}-${world.counters.note++}`;
    addNote(world, {
      note_number,
      accountId: order.accountId,
      listingNumber: l.listing_number,
      loanNumber: loan.loan_number,
      amount: bid.bid_amount_placed,
      orderId: order.order_id,
      principal: bid.bid_amount_placed,
      initialPrincipal: 0,
      chargedOff: 0,
    });
    bid.bid_status = 'INVESTED';
    bid.note_number = note_number;
    completeIfDone(world, order, at);
  }
  return loan;
}

/** The scratch record originate writes each new loan into. */
const originated = {} as Loan;
