/**
 * The one boundary where JSON becomes a typed resource: one decoder per resource checks the fields
 * the client relies on and keeps every other field as it came (so `-o json` prints the answer
 * unchanged). Past these functions nothing casts to a resource type.
 */
import { BID_STATUSES, ORDER_STATUSES } from './enums.js';
import type {
  Account, AccountFields, Bid, BidFields, ListEnvelope, Listing, ListingCheckedFields, Loan, LoanAnswerFields, Note, NoteFields, Offer, OfferAssertion, OfferError, OfferResponse, OfferResponseFields, Open, Order, OrderAnswerFields, OrderListing, OrderListingFields,
} from './resources.js';

/** An answer without the shape the client relies on: `path` names the value, `problem` what is wrong with it. */
export class DecodeError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path} ${problem}`);
    this.name = 'DecodeError';
  }
}

/** A JSON object whose fields are yet to be checked. */
type Json = { readonly [field: string]: unknown };
/** Reads one value at `path`, or throws DecodeError. */
type Reader<T> = (value: unknown, path: string) => T;

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'string' ? `'${v.slice(0, 40)}'` : typeof v);

function record(v: unknown, path: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new DecodeError(path, `is not an object (got ${kind(v)})`);
  return { ...v };
}

const num: Reader<number> = (v, p) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new DecodeError(p, `is not a number (got ${kind(v)})`);
  return v;
};
const int: Reader<number> = (v, p) => {
  const n = num(v, p);
  if (!Number.isSafeInteger(n)) throw new DecodeError(p, `is not a whole number (got ${n})`);
  return n;
};
const str: Reader<string> = (v, p) => {
  if (typeof v !== 'string') throw new DecodeError(p, `is not a string (got ${kind(v)})`);
  return v;
};
const bool: Reader<boolean> = (v, p) => {
  if (typeof v !== 'boolean') throw new DecodeError(p, `is not true or false (got ${kind(v)})`);
  return v;
};
const optional = <T>(r: Reader<T>): Reader<T | undefined> => (v, p) => (v === undefined ? undefined : r(v, p));
const member = <T extends string>(values: readonly T[]): Reader<T> => (v, p) => {
  const found = values.find((x) => x === v);
  if (found === undefined) throw new DecodeError(p, `is not one of ${values.join(', ')} (got ${kind(v)})`);
  return found;
};
const list = <T>(r: Reader<T>): Reader<T[]> => (v, p) => {
  if (!Array.isArray(v)) throw new DecodeError(p, `is not an array (got ${kind(v)})`);
  return v.map((x: unknown, i) => r(x, `${p}[${i}]`));
};
/** A bid's listing id: the spec types it as a string, sample payloads as an integer. */
const listingId: Reader<number | string> = (v, p) => (typeof v === 'string' ? v : int(v, p));

/** Reads field `key` of `o` with `r`. */
const field = <T>(o: Json, path: string, key: string, r: Reader<T>): T => r(o[key], `${path}.${key}`);

/** One reader per named field of `T`. */
type Table<T> = { readonly [K in keyof T]-?: Reader<T[K]> };

/** Reads every named field of `T` with its reader; fields beyond them are kept as they came. */
function shape<T extends object>(table: Table<T>): Reader<T & Open> {
  return (v, p) => {
    const o = record(v, p);
    for (const key of Object.keys(table)) {
      const read: Reader<unknown> = table[key as keyof T];
      read(o[key], `${p}.${key}`);
    }
    // Every named field was read by its reader just above, which is what this widening stands for.
    return o as T & Open;
  };
}

/** A listing (GET /listingsvc/v2/listings/). */
export const decodeListing: Reader<Listing> = shape<ListingCheckedFields>({
  listing_number: int, listing_amount: num, amount_remaining: num, listing_creation_date: str, partial_funding_indicator: bool,
});

/** A bid as read back. */
export const decodeBid: Reader<Bid> = shape<BidFields>({
  listing_id: listingId, bid_amount: num, bid_amount_placed: optional(num), bid_status: member(BID_STATUSES), bid_result: optional(str),
});

/** An order (the create answer, or one read back). */
export const decodeOrder: Reader<Order> = shape<OrderAnswerFields>({
  order_id: str, order_date: str, order_status: member(ORDER_STATUSES), source: optional(str), bid_requests: list(decodeBid),
  order_amount: optional(num), order_amount_placed: optional(num), order_amount_invested: optional(num),
  saved_search: optional((x) => x), estimated_return: optional(num), estimated_loss: optional(num), effective_yield: optional(num),
});

const date = str;
const nullableNum: Reader<number | null> = (v, p) => (v === null ? null : num(v, p));
const nullableStr: Reader<string | null> = (v, p) => (v === null ? null : str(v, p));

/** One listing of an order (GET /orders/{id}/listings). */
export const decodeOrderListing: Reader<OrderListing> = shape<OrderListingFields>({
  listing_number: str, listing_title: str, invested_amount: num, listing_amount: num, loan_term_months: int,
  current_yield: num, amount_funded: num, platform_rating: str, verification_stage: int, percent_funded: num,
  historical_return: num, historical_return_10th_pctl: num, historical_return_90th_pctl: num,
  listing_duration: int, status: member(BID_STATUSES), status_reason: str, listing_status_reason: str,
  estimated_end_date: date, listing_status: int, start_date: date, note_number: nullableStr,
  listing_category_id: int, listing_category_name: nullableStr,
  effective_yield: optional(num), estimated_loss: optional(num), estimated_return: optional(num),
});

/** A loan (GET /loans/ and GET /loans/{id}). */
export const decodeLoan: Reader<Loan> = shape<LoanAnswerFields>({
  loan_number: int, age_in_months: int, amount_borrowed: num, borrower_rate: num, term: int, platform_rating: str,
  origination_date: date, loan_status: int, loan_status_description: nullableStr,
  loan_default_reason: nullableNum, loan_default_reason_description: nullableStr, days_past_due: int,
  principal_balance: num, principal_paid: num, interest_paid: num, late_fees_paid: num, platform_fees_paid: num,
  service_fees_paid: num, collection_fees_paid: num, debt_sale_proceeds_received: num,
  next_payment_due_date: date, next_payment_due_amount: num, group_leader_award: optional(int),
});

/** A note (GET /notes/ and GET /notes/{loan_note_id}). */
export const decodeNote: Reader<Note> = shape<NoteFields<string>>({
  loan_note_id: str, loan_number: int, listing_number: int, note_ownership_amount: num,
  principal_balance_pro_rata_share: num, principal_paid_pro_rata_share: num, interest_paid_pro_rata_share: num,
  service_fees_paid_pro_rata_share: num, platform_fees_paid_pro_rata_share: num, late_fees_paid_pro_rata_share: num,
  collection_fees_paid_pro_rata_share: num, debt_sale_proceeds_received_pro_rata_share: num,
  next_payment_due_amount_pro_rata_share: num, next_payment_due_date: date,
  note_status: int, note_status_description: nullableStr, note_default_reason: nullableNum, note_default_reason_description: nullableStr,
  platform_rating: str, term: int, borrower_rate: num, lender_yield: num, amount_borrowed: num, age_in_months: int,
  days_past_due: int, origination_date: date, ownership_start_date: date, ownership_end_date: nullableStr,
  is_sold: bool, is_sold_folio: bool, note_sale_gross_amount_received: num, note_sale_fees_paid: num,
  is_in_bankruptcy: bool, co_borrower_application: bool,
});

/** The account summary: the cash the dry run and the funds message read, the id the journal is keyed by. */
export const decodeAccount: Reader<Account> = shape<AccountFields>({ available_cash_balance: num, external_user_id: str });

const decodeOffer: Reader<Offer> = shape<Offer>({
  id: int, apr: num, loan_amount: num, origination_fee: optional(num), loan_rate: num, loan_term_in_months: int,
  loan_term_in_years: int, monthly_payment: num, offer_url: str,
});

const decodeOfferError: Reader<OfferError> = shape<OfferError>({
  code: str, message: str, assertions: optional(list(shape<OfferAssertion>({ code: str, message: str }))),
});

/** The offers response: offers, or the errors that kept them from being made. */
export const decodeOfferResponse: Reader<OfferResponse> = shape<OfferResponseFields>({
  referral_code: optional(str), offers_url: optional(str), identification: optional(record),
  offers: optional(list(decodeOffer)), errors: optional(list(decodeOfferError)),
});

/** A list answer whose items `item` decodes. */
export const decodeEnvelope = <T>(item: Reader<T>): Reader<ListEnvelope<T>> => (v, p) => {
  const o = record(v, p);
  field(o, p, 'result_count', optional(int));
  return {
    ...o,
    result: field(o, p, 'result', list(item)),
    total_count: field(o, p, 'total_count', int),
  };
};

export type { Reader };
