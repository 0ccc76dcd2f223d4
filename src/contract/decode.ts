/**
 * The one boundary where JSON becomes a typed resource. The marketplace's resources are read
 * liberally (STYLE.md 18): a decoder names only the fields some command uses, each may be left out
 * or null, a number may come as a decimal string, an enumeration value we do not know is text; a
 * command that cannot work without a field says so itself (`required`). Every field is kept exactly
 * as it came, so `-o json` prints the answer as sent. Past these functions nothing casts to a resource type.
 */
import {
  amount,
  DecodeError,
  each,
  flag,
  ident,
  int,
  list,
  looseShape,
  num,
  optional,
  record,
  shape,
  str,
  text,
  toNumber,
  type Fields,
  type Json,
  type Num,
  type Reader,
} from './decode-kit.js';
import type { Offer, OfferAssertion, OfferError, OfferResponse, OfferResponseFields, Open } from './resources.js';

export { DecodeError, toNumber };
export type { Num, Reader };

const field = <T>(o: Json, path: string, key: string, r: Reader<T>): T => r(o[key], `${path}.${key}`);

// ---------------------------------------------------------------------------------------------
// The marketplace's resources, as the CLI reads them

const LISTING_AMOUNTS = ['listing_number', 'listing_amount', 'amount_remaining'] as const;
/** A listing (GET /listingsvc/v2/listings/): what `order submit --dry-run` and `invest` check; the rest as sent. */
export type Listing = Fields<(typeof LISTING_AMOUNTS)[number], Num>
  & Fields<'listing_creation_date' | 'platform_rating', string>
  & Fields<'partial_funding_indicator', boolean>
  & Open;
export const decodeListing: Reader<Listing> = looseShape<Listing>({
  ...each(LISTING_AMOUNTS, amount),
  listing_creation_date: text,
  platform_rating: text,
  partial_funding_indicator: flag,
});

/** A bid as the order answers carry it; a bid_status or bid_result we do not know is kept as text. */
export type Bid = Fields<'listing_id' | 'bid_amount' | 'bid_amount_placed', Num> & Fields<'bid_status' | 'bid_result', string> & Open;
export const decodeBid: Reader<Bid> = looseShape<Bid>({
  listing_id: ident,
  bid_amount: amount,
  bid_amount_placed: amount,
  bid_status: text,
  bid_result: text,
});

const ORDER_AMOUNTS = ['order_amount', 'order_amount_placed', 'order_amount_invested'] as const;
/** An order (the create answer, or one read back); an order_status we do not know is kept as text. */
export type Order = Fields<'order_id' | 'order_date' | 'order_status' | 'source', string>
  & Fields<(typeof ORDER_AMOUNTS)[number], Num>
  & Fields<'bid_requests', Bid[]>
  & Open;
export const decodeOrder: Reader<Order> = looseShape<Order>({
  order_id: text,
  order_date: text,
  order_status: text,
  source: text,
  ...each(ORDER_AMOUNTS, amount),
  bid_requests: list(decodeBid),
});
/** An order as the create answer carries it: without its id nothing placed can be followed, so the id is required. */
export type PlacedOrder = Order & { readonly order_id: string };
export const decodePlacedOrder: Reader<PlacedOrder> = (v, p) => {
  const o = decodeOrder(v, p);
  return { ...o, order_id: field(o, p, 'order_id', str) };
};

/** The bids of an order (none when the answer leaves them out). */
export const bidsOf = (o: Order): Bid[] => o.bid_requests ?? [];

/** One listing of an order (GET /orders/{id}/listings): printed as sent. */
export type OrderListing = Open;
export const decodeOrderListing: Reader<OrderListing> = record;

/** A loan (GET /loans/ and GET /loans/{id}): printed as sent, `loan_default_reason` null or 0 when not in default. */
export type Loan = Open;
export const decodeLoan: Reader<Loan> = record;

/** The note fields `portfolio` reckons with, and those `notes list --status` filters on. */
export const NOTE_AMOUNTS = [
  'loan_number',
  'note_ownership_amount',
  'principal_balance_pro_rata_share',
  'principal_paid_pro_rata_share',
  'interest_paid_pro_rata_share',
  'service_fees_paid_pro_rata_share',
  'late_fees_paid_pro_rata_share',
  'collection_fees_paid_pro_rata_share',
  'debt_sale_proceeds_received_pro_rata_share',
  'note_status',
  'term',
  'borrower_rate',
  'lender_yield',
  'amount_borrowed',
  'age_in_months',
  'days_past_due',
] as const;
export const NOTE_TEXTS = ['loan_note_id', 'platform_rating', 'origination_date', 'ownership_start_date', 'next_payment_due_date'] as const;
/** A note (GET /notes/ and GET /notes/{loan_note_id}); a rating we do not know (`N/A`) is kept as text. */
export type Note = Fields<(typeof NOTE_AMOUNTS)[number], Num> & Fields<(typeof NOTE_TEXTS)[number], string> & Open;
export const decodeNote: Reader<Note> = looseShape<Note>({ ...each(NOTE_AMOUNTS, amount), ...each(NOTE_TEXTS, text) });

export const ACCOUNT_AMOUNTS = [
  'available_cash_balance',
  'pending_investments_primary_market',
  'pending_investments_secondary_market',
  'pending_quick_invest_orders',
  'total_account_value',
] as const;
/**
 * The account summary: the cash the dry run, the funds message and the portfolio read, and the id
 * the order journal is keyed by (the 2015 answer has none: `mkt account` shows it, the desk refuses).
 */
export type Account = Fields<(typeof ACCOUNT_AMOUNTS)[number], Num> & Fields<'external_user_id', string> & Open;
export const decodeAccount: Reader<Account> = looseShape<Account>({ ...each(ACCOUNT_AMOUNTS, amount), external_user_id: text });

/** One payment row (GET {base_url}/loans/payments): printed as sent, amounts as decimal strings. */
export type Payment = Fields<'loan_number' | 'payment_amount', Num> & Fields<'transaction_effective_date', string> & Open;
export const decodePayment: Reader<Payment> = looseShape<Payment>({
  loan_number: amount,
  payment_amount: amount,
  transaction_effective_date: text,
});

/**
 * The number a command cannot work without, at `path` of an answer to `what`: a DecodeError
 * (exit 5, naming the field) when it is missing or not a number.
 */
export function required(value: unknown, path: string): number {
  const n = toNumber(value);
  if (n === undefined)
    throw new DecodeError(
      path,
      value === undefined ? 'is missing' : `is not a number (got ${typeof value === 'string' ? `'${value.slice(0, 40)}'` : String(value)})`,
    );
  return n;
}

// ---------------------------------------------------------------------------------------------
// Offers (our own partner API's shape, read strictly)

const decodeOffer: Reader<Offer> = shape<Offer>({
  id: int,
  apr: num,
  loan_amount: num,
  origination_fee: optional(num),
  loan_rate: num,
  loan_term_in_months: int,
  loan_term_in_years: int,
  monthly_payment: num,
  offer_url: str,
});

const decodeOfferError: Reader<OfferError> = shape<OfferError>({
  code: str,
  message: str,
  assertions: optional(list(shape<OfferAssertion>({ code: str, message: str }))),
});

/** The offers response: offers, or the errors that kept them from being made. */
export const decodeOfferResponse: Reader<OfferResponse> = shape<OfferResponseFields>({
  referral_code: optional(str),
  offers_url: optional(str),
  identification: optional(record),
  offers: optional(list(decodeOffer)),
  errors: optional(list(decodeOfferError)),
});

/** A list answer: its items, and the counts as sent (a count may come as text, or not at all). */
export type Page<T> = { result: T[] } & Fields<'total_count' | 'result_count', Num> & Open;

/** A list answer whose items `item` decodes: `result` is what a list command cannot work without. */
export const decodeEnvelope =
  <T>(item: Reader<T>): Reader<Page<T>> =>
  (v, p) => {
    const o = looseShape<Page<unknown>>({ total_count: amount, result_count: amount })(v, p);
    return { ...o, result: field(o, p, 'result', list(item)) };
  };
