/**
 * The records the world holds: listings, users and accounts, ledger entries, orders and their bids,
 * notes, loans, OAuth clients, grants and tokens, partner codes, offers and sent emails. Types only;
 * the world (world.ts) holds them, and re-exports them so a reader imports the world from one place.
 */
import type { BidResult, BidStatus } from '../../src/contract/enums.js';
import type { OutboxMessage } from '../../src/contract/mock-inspect.js';
import type { BidRequest, ListingFields, LoanFields, Offer as OfferAnswer, OrderFields } from '../../src/contract/resources.js';

/** A listing: its catalogue fields under their API names (dates as epoch ms, from the contract) and internal fields in camelCase. */
export interface Listing extends ListingFields<number> {
  /** Only these users may invest in the listing (ORD0016); absent or null: everyone. */
  authorizedUsers?: string[] | null;
  /** A defective listing whose investment type id is unset in the operator's records (ORD0037). */
  investmentTypeUnset?: boolean;
  /** The special part this listing plays in the seeded world (see seed/seed-extras.ts). */
  mockRole?: string;
  /** When a Pending listing originates (engine). */
  originateAt?: number | null;
  /** Indexed bureau2 values by short name. */
  bureau2: Record<string, number>;
  /** When the bureau2 report was pulled. */
  creditReportDate: number;
  /** Bureau1 data, only for listings created before 2017-03-31. */
  bureau1: Record<string, number> | null;
  /** The investor user who is also this listing's borrower, if any (dave). */
  borrowerUserId: string | null;
}

/** An investor user. */
export interface User {
  id: string;
  name: string;
  state: string;
  active: boolean;
  emailVerified: boolean;
  wholeLoanEligible: boolean;
  /** False where the user's state does not allow investing. */
  stateAllowsInvesting: boolean;
  accountIds: string[];
  /** When the user registered (email verification is asked for within 3 days of it). Absent: long ago. */
  registeredAt?: number;
  /** False when the user has not signed the investor agreements (ORD0039). Absent: signed. */
  agreementsSigned?: boolean;
  /** True when the user has delinquent loans as a borrower (ORD0041). */
  delinquent?: boolean;
  /** False for a whole-loan-only (institutional) investor (ORD0036). Absent: eligible. */
  fractionalEligible?: boolean;
  /** Largest order total the user's state suitability rule allows (ORD0022). Absent: no limit. */
  suitabilityLimit?: number;
  /** The address the user registered for order notifications (engine/notifications.ts). Absent: not registered. */
  email?: string;
}

/** An investor account (a user may have several; one auth key per account). */
export interface Account {
  id: string;
  userId: string;
  externalUserId: string;
  cash: number;
  /** True when the account's ledger is frozen for review: every debit is refused (ORD0035). */
  ledgerFrozen?: boolean;
}

/** One money movement. The sum of entries per account is its cash. */
export interface LedgerEntry {
  at: number;
  accountId: string;
  amount: number;
  kind: string;
  ref: string | null;
}

/** One bid of an order: the contract's request plus what processing made of it. */
export interface Bid extends BidRequest {
  bid_amount_placed: number;
  bid_status: BidStatus;
  bid_result: BidResult;
  note_number: string | null;
}

/** An investment order: the contract's order fields (date as epoch ms) and the mock's own. */
export interface Order extends OrderFields<number> {
  accountId: string;
  source: string;
  bids: Bid[];
  /** When the worker processes the order (virtual time). */
  processAt: number;
  processed: boolean;
}

/** A note: an account's share of one loan. */
export interface Note {
  note_number: string;
  accountId: string;
  listingNumber: number;
  loanNumber: number;
  amount: number;
  orderId: string | null;
  /** Principal still outstanding on the note (absent on notes written before the engine: see `notePrincipal`). */
  principal?: number;
  /** Principal the note held when it entered the world without an order (seeded history notes). */
  initialPrincipal?: number;
  /** Principal written off when the loan was charged off and not yet collected (collections pay it down). */
  chargedOff?: number;
}

/** A whole loan, serviced monthly: the contract's loan fields (dates as epoch ms) and the mock's own. */
export interface Loan extends LoanFields<number> {
  listingNumber: number;
  /** Monthly payments made so far. */
  paymentsMade: number;
  /** Due dates missed and not yet caught up (engine servicing). */
  missedPayments?: number;
  /** The oldest missed due date, for days_past_due. */
  oldestMissedDue?: number | null;
  /** When a defaulted loan is charged off. */
  chargeOffAt?: number | null;
  /** What each payment and charge-off the engine made paid (engine/payment-log.ts); absent until the first. */
  paymentLog?: number[];
  /** A charged-off loan's collections still to come: flat pairs [time, whole cents, …] (engine/collections.ts); absent when none. */
  collections?: number[];
}

/** A registered OAuth agent client. */
export interface OAuthClient {
  clientId: string;
  secret: string;
  redirectUri: string;
}

/** An access grant of one account to one client: the current auth key and its scopes. */
export interface Grant {
  clientId: string;
  accountId: string;
  authKey: string;
  scopes: string[];
  createdAt: number;
}

/** An issued token (access or refresh). */
export interface Token {
  value: string;
  kind: 'access' | 'refresh';
  clientId: string;
  accountId: string;
  scopes: string[];
  expiresAt: number;
  /** The auth key it was issued under (a replaced key leaves its tokens alive until they expire); empty from the password grant. */
  authKey: string;
}

/** A partner source code for the offers endpoint. */
export interface PartnerCode {
  code: string;
  expired: boolean;
}

/** Someone who already borrowed on the marketplace: an offers applicant matching one gets MKTPL-100. */
export interface ExistingBorrower {
  firstName: string;
  lastName: string;
  /** yyyy-MM-dd */
  dateOfBirth: string;
  /** 9 digits */
  ssn: string;
}

/** One offer as the mock makes it: the contract's offer, always with its origination fee. */
export interface Offer extends OfferAnswer {
  origination_fee: number;
}

/** A successful offers response, kept so that its offer pages answer. */
export interface OfferRecord {
  referralCode: string;
  createdAt: number;
  /** The applicant's first name, shown on the pages. */
  firstName: string;
  requestedAmount: number;
  offers: Offer[];
}

/** An email the mock sent (GET /__mock/outbox): the contract's message, its time as epoch ms. */
export interface Message extends Omit<OutboxMessage, 'sent_at'> {
  sent_at: number;
}

/** The notifications sent so far and the id of the next one. */
export interface Outbox {
  next: number;
  messages: Message[];
}
