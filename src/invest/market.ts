/**
 * What a run gathers from the marketplace before planning, and the small pure steps that turn API
 * data into it: a rule's listings query, a listing as a candidate, the amount already requested today.
 */
import { toNumber, type Num } from '../contract/decode.js';
import { parseApiDateTime } from './marketplace-rules.js';
import type { Rule } from './strategy.js';

/** A listing as the planner needs it. Amounts in dollars, `created_at` in epoch milliseconds. */
export interface Candidate {
  listing_number: number;
  platform_rating: string;
  listing_amount: number;
  amount_remaining: number;
  partial_funding_indicator: boolean;
  created_at: number;
  /** investment_typeid 2: a whole-loan listing, which a fractional bid cannot go to. */
  whole_loan: boolean;
}

/** Why a listing is already taken before the run starts. */
export type TakenReason = 'held' | 'pending' | 'journal';

/** Everything one run plans from. Dollars throughout; `now` is epoch milliseconds. */
export interface Market {
  now: number;
  /** available_cash_balance. */
  cash: number;
  /** Invested plus pending principal per rating (every rating the account reports, NA included). */
  principal_by_rating: Readonly<Record<string, number>>;
  /** Bid amounts requested in the account's orders dated today in UTC (see requestedToday). */
  requested_today: number;
  /** Listings held (notes), pending in an open order, or in the local journal. */
  taken: ReadonlyMap<number, TakenReason>;
  /** Candidates per rule, in the strategy's rule order, each list in the order the search returned it. */
  candidates: readonly (readonly Candidate[])[];
}

/** The listings query of one rule: its filters, biddable=true, invested=false and its sort. */
export function ruleQuery(rule: Rule): URLSearchParams {
  const q = new URLSearchParams(rule.filters);
  q.set('biddable', 'true');
  q.set('invested', 'false');
  if (rule.sort_by !== undefined) q.set('sort_by', rule.sort_by);
  return q;
}

/** A listing from the API as a candidate, or what is missing (a listing the planner cannot judge is never bid on). */
export function candidateFromListing(l: Readonly<Record<string, unknown>>): Candidate | string {
  const num = (k: string): number | null => {
    const v = l[k];
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    return Number.isFinite(n) ? n : null;
  };
  const listingNumber = num('listing_number');
  const amount = num('listing_amount');
  const remaining = num('amount_remaining');
  const created = typeof l.listing_creation_date === 'string' ? parseApiDateTime(l.listing_creation_date) : null;
  const rating = l.platform_rating;
  if (listingNumber === null || !Number.isSafeInteger(listingNumber) || listingNumber <= 0)
    return 'listing_number is not a positive whole number';
  if (amount === null || remaining === null) return `listing ${listingNumber}: listing_amount or amount_remaining is not a number`;
  if (created === null) return `listing ${listingNumber}: listing_creation_date is not a date`;
  if (typeof rating !== 'string') return `listing ${listingNumber}: platform_rating is missing`;
  return {
    listing_number: listingNumber,
    platform_rating: rating,
    listing_amount: amount,
    amount_remaining: remaining,
    partial_funding_indicator: l.partial_funding_indicator === true,
    created_at: created,
    whole_loan: num('investment_typeid') === 2,
  };
}

/** An order as far as max_per_day reads it. */
export interface OrderForDay {
  order_date?: string | null;
  bid_requests?: readonly { bid_amount?: Num | null }[] | null;
}

/**
 * The bid amounts requested in orders dated on `now`'s calendar day in UTC: what max_per_day
 * counts, read from the marketplace's own orders so the cap holds across runs and machines.
 */
export function requestedToday(orders: Iterable<OrderForDay>, now: number): number {
  const start = Math.floor(now / 86_400_000) * 86_400_000;
  let cents = 0;
  for (const o of orders) {
    const at = parseApiDateTime(o.order_date ?? '');
    if (at === null || at < start || at >= start + 86_400_000) continue;
    for (const b of o.bid_requests ?? []) cents += Math.round((toNumber(b.bid_amount) ?? 0) * 100);
  }
  return cents / 100;
}
