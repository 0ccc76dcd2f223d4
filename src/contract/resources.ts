/**
 * The marketplace's resources, defined once for both halves: the typed client decodes answers into
 * the wire types (dates as the API formats them), and the mock answers with the same wire types and
 * keeps its records on the shared field sets (dates as epoch ms on its clock, plus its own fields).
 */
import type { BidStatus, OrderStatus } from './enums.js';

/** Fields beyond those a resource names: kept as they came, for printing. */
export type Open = { [field: string]: unknown };

/** The catalogue fields of a listing under their API names; `D` is how a date is held (text on the wire, epoch ms in the mock). */
export interface ListingFields<D> {
  listing_number: number;
  listing_status: number;
  listing_status_reason: string;
  listing_amount: number;
  amount_funded: number;
  amount_remaining: number;
  percent_funded: number;
  funding_threshold: number;
  partial_funding_indicator: boolean;
  investment_typeid: number;
  investment_type_description: string;
  investment_product_id: number;
  listing_term: number;
  listing_monthly_payment: number;
  borrower_rate: number;
  borrower_apr: number;
  lender_yield: number;
  platform_rating: string;
  platform_score: number;
  fico_score: string;
  listing_category_id: number;
  listing_title: string;
  listing_purpose: string;
  borrower_listing_description: string | null;
  channel_code: string;
  borrower_state: string;
  employment_status_description: string;
  occupation: string | null;
  months_employed: number;
  income_range: number;
  income_range_description: string;
  income_verifiable: boolean;
  stated_monthly_income: number;
  dti_wplatform_loan: number;
  estimated_monthly_housing_expense: number;
  has_mortgage: boolean;
  member_key: string;
  lender_indicator: number;
  decision_bureau: string;
  verification_stage: number;
  co_borrower_application: boolean;
  combined_dti_wplatform_loan: number | null;
  combined_stated_monthly_income: number | null;
  historical_return: number;
  historical_return_10th_pctl: number;
  historical_return_90th_pctl: number;
  effective_yield: number;
  estimated_loss_rate: number;
  estimated_return: number;
  max_prior_platform_loan: number | null;
  min_prior_platform_loan: number | null;
  prior_platform_loans: number;
  prior_platform_loan_earliest_pay_off: number;
  prior_platform_loans31dpd: number;
  prior_platform_loans61dpd: number;
  prior_platform_loans_active: number;
  prior_platform_loans_balance_outstanding: number;
  prior_platform_loans_cycles_billed: number;
  prior_platform_loans_late_cycles: number;
  prior_platform_loans_late_payments_one_month_plus: number;
  prior_platform_loans_ontime_payments: number;
  prior_platform_loans_principal_borrowed: number;
  prior_platform_loans_principal_outstanding: number;
  listing_creation_date: D;
  listing_start_date: D;
  listing_end_date: D;
  last_updated_date: D;
  whole_loan_start_date: D | null;
  whole_loan_end_date: D | null;
  loan_number: number | null;
  loan_origination_date: D | null;
}

/** The fields of a listing the client relies on (checked by `decodeListing`). */
export type ListingCheckedFields = Pick<ListingFields<string>, 'listing_number' | 'listing_amount' | 'amount_remaining' | 'listing_creation_date' | 'partial_funding_indicator'>;

/** A listing as the API returns it: the checked fields, and the rest of the catalogue riding along for printing. */
export type Listing = ListingCheckedFields & Open;

/** A bid as sent in POST /orders/. */
export interface BidRequest {
  listing_id: number;
  bid_amount: number;
}

/** The named fields of a bid as read back: the create answer carries listing_id, bid_amount and bid_status only. */
export interface BidFields {
  /** A string in the spec, an integer in its sample payloads. */
  listing_id: number | string;
  bid_amount: number;
  bid_amount_placed?: number;
  bid_status: BidStatus;
  /** Open: the spec does not show the complete list. */
  bid_result?: string;
}

/** A bid as read back. */
export type Bid = BidFields & Open;

/** What an order is on both sides; `D` is how its date is held. */
export interface OrderFields<D> {
  order_id: string;
  order_date: D;
  order_status: OrderStatus;
}

/** The named fields of an order as the API returns it (sums absent on the create answer). */
export interface OrderAnswerFields extends OrderFields<string> {
  order_amount?: number;
  order_amount_placed?: number;
  order_amount_invested?: number;
  bid_requests: Bid[];
  saved_search?: unknown;
  estimated_return?: number;
  estimated_loss?: number;
  effective_yield?: number;
  source?: string;
}

/** An order as POST /orders/, GET /orders/{id} and GET /orders/ return it. */
export type Order = OrderAnswerFields & Open;

/** The named fields of an order listing. */
export interface OrderListingFields {
  listing_number: string;
  listing_title: string;
  invested_amount: number;
  listing_amount: number;
  loan_term_months: number;
  current_yield: number;
  amount_funded: number;
  platform_rating: string;
  verification_stage: number;
  percent_funded: number;
  historical_return: number;
  historical_return_10th_pctl: number;
  historical_return_90th_pctl: number;
  listing_duration: number;
  status: BidStatus;
  status_reason: string;
  listing_status_reason: string;
  estimated_end_date: string;
  listing_status: number;
  start_date: string;
  note_number: string | null;
  listing_category_id: number;
  listing_category_name: string | null;
  effective_yield?: number;
  estimated_loss?: number;
  estimated_return?: number;
}

/** One listing of an order (GET /orders/{id}/listings). */
export type OrderListing = OrderListingFields & Open;

/** What a loan is on both sides; `D` is how a date is held. */
export interface LoanFields<D> {
  loan_number: number;
  amount_borrowed: number;
  borrower_rate: number;
  term: number;
  platform_rating: string;
  origination_date: D;
  loan_status: number;
  loan_default_reason: number | null;
  days_past_due: number;
  principal_balance: number;
  principal_paid: number;
  interest_paid: number;
  late_fees_paid: number;
  platform_fees_paid: number;
  service_fees_paid: number;
  collection_fees_paid: number;
  debt_sale_proceeds_received: number;
  next_payment_due_date: D | null;
  next_payment_due_amount: number;
}

/** The named fields of a loan as the API returns it. */
export interface LoanAnswerFields extends LoanFields<string> {
  age_in_months: number;
  loan_default_reason_description: string | null;
  loan_status_description: string | null;
  /** Deprecated; only on loans of listings that started through 2018-08-08. */
  group_leader_award?: number;
}

/** A loan as GET /loans/ and GET /loans/{id} return it. */
export type Loan = LoanAnswerFields & Open;

/**
 * The caller's share of one loan (GET /notes/ and GET /notes/{loan_note_id}), as the real marketplace's
 * notes resource names its fields (the public clients model them). Every `_pro_rata_share` is the note's
 * ownership fraction of the loan's figure, to the cent; the shares of all holders of a loan add up to the
 * loan's figures. Status, dates and rates are the loan's own, typed as the loan types them.
 */
export interface NoteFields<D> {
  /** `{loan_number}-{n}`: the loan and the note's number on it. */
  loan_note_id: string;
  loan_number: number;
  listing_number: number;
  note_ownership_amount: number;
  principal_balance_pro_rata_share: number;
  principal_paid_pro_rata_share: number;
  interest_paid_pro_rata_share: number;
  service_fees_paid_pro_rata_share: number;
  platform_fees_paid_pro_rata_share: number;
  late_fees_paid_pro_rata_share: number;
  collection_fees_paid_pro_rata_share: number;
  debt_sale_proceeds_received_pro_rata_share: number;
  next_payment_due_amount_pro_rata_share: number;
  next_payment_due_date: D | null;
  /** The loan's status code (as `loan_status`). */
  note_status: number;
  note_status_description: string | null;
  note_default_reason: number | null;
  note_default_reason_description: string | null;
  platform_rating: string;
  term: number;
  borrower_rate: number;
  lender_yield: number;
  amount_borrowed: number;
  age_in_months: number;
  days_past_due: number;
  origination_date: D;
  ownership_start_date: D;
  /** Null while the note is held (the mock has no secondary market, so always). */
  ownership_end_date: D | null;
  is_sold: boolean;
  is_sold_folio: boolean;
  note_sale_gross_amount_received: number;
  note_sale_fees_paid: number;
  /** True when the loan defaulted for bankruptcy (loan_default_reason 2). */
  is_in_bankruptcy: boolean;
  co_borrower_application: boolean;
}

/** A note as the API returns it. */
export type Note = NoteFields<string> & Open;

/** The fields of the account summary the client relies on. */
export interface AccountFields {
  available_cash_balance: number;
  external_user_id: string;
}

/** The investor's account (GET /accounts/platform); the many by-rating figures ride along for printing. */
export type Account = AccountFields & Open;

/** One offer of an offers response. */
export interface Offer {
  id: number;
  apr: number;
  /** Whole dollars, origination fee included. */
  loan_amount: number;
  /** Dollars: loan_amount less the amount requested (the spec shows it on one sample offer only). */
  origination_fee?: number;
  loan_rate: number;
  loan_term_in_months: number;
  loan_term_in_years: number;
  monthly_payment: number;
  offer_url: string;
}

/** One MKTPL-1012 assertion. */
export interface OfferAssertion {
  code: string;
  message: string;
}

/** One entry of an offers response's `errors`. */
export interface OfferError {
  code: string;
  message: string;
  assertions?: OfferAssertion[];
}

/** The named fields of an offers response. */
export interface OfferResponseFields {
  referral_code?: string;
  offers_url?: string;
  identification?: { [field: string]: unknown };
  offers?: Offer[];
  errors?: OfferError[];
}

/** The offers response: offers, or the errors that kept them from being made (both with HTTP 200). */
export type OfferResponse = OfferResponseFields & Open;

/** The token endpoint's answer. */
export interface Token {
  access_token: string;
  token_type: string;
  refresh_token: string;
  expires_in: number;
}

/** A list answer. */
export interface ListEnvelope<T> {
  result: T[];
  result_count?: number;
  total_count: number;
}
