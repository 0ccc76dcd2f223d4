/**
 * Deterministic offer pricing from the self-reported credit score, income, amount and term.
 *
 * rate = band base rate (rules.ts) + 0.75 points per year of term beyond 3 (less below)
 *        − 1 point for income ≥ 100,000, + 1.5 points for income < 40,000
 *        + 0.5 points for a requested amount ≥ 20,000, rounded to 4 decimals.
 * loan_amount = the requested amount grossed up by the band's origination fee so that the
 *        borrower receives what was asked for (fee = feeRate × loan_amount), in whole dollars.
 * monthly_payment = level amortisation of loan_amount at rate/12 over the term, rounded to the cent.
 * apr = 12 × the monthly rate at which that payment repays the amount received, 4 decimals.
 * An offer is made only when its payment is at most 35% of gross monthly income.
 */
import type { Offer } from '../world/world.js';
import { cents, monthlyPayment } from '../kit/money.js';
import { CREDIT_SCORES, DEFAULT_CREDIT_SCORE, MAX_PAYMENT_TO_INCOME, OFFER_TERMS } from './rules.js';

/** What pricing needs from the applicant. */
export interface PricingInput {
  /** Requested amount in dollars (2000-35000). */
  amount: number;
  /** Self-reported credit score code, or undefined when left out. */
  creditScore: number | undefined;
  annualIncome: number;
}

/** An offer before it gets an id and a URL. */
export type PricedOffer = Omit<Offer, 'id' | 'offer_url'>;

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** The annual rate offered for `term` months. */
export function offerRate(base: number, term: number, input: PricingInput): number {
  let rate = base + ((term - 36) / 12) * 0.0075;
  if (input.annualIncome >= 100_000) rate -= 0.01;
  else if (input.annualIncome < 40_000) rate += 0.015;
  if (input.amount >= 20_000) rate += 0.005;
  return round4(rate);
}

/** APR: 12 × the monthly rate at which `payment` for `months` repays `received` (bisection). */
export function aprOf(received: number, payment: number, months: number): number {
  const paymentAt = (r: number): number => (r === 0 ? received / months : (received * r) / (1 - Math.pow(1 + r, -months)));
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (paymentAt(mid) < payment) lo = mid;
    else hi = mid;
  }
  return round4(12 * ((lo + hi) / 2));
}

/** The offers an applicant qualifies for, shortest term first; empty when none (MKTPL-1009). */
export function priceOffers(input: PricingInput): PricedOffer[] {
  const band = CREDIT_SCORES[input.creditScore ?? DEFAULT_CREDIT_SCORE]!;
  if (band.baseRate === null) return [];
  // Subtracting a hair before rounding up keeps an exact quotient (e.g. 9500 / 0.95) from growing a dollar.
  const loanAmount = Math.ceil(input.amount / (1 - band.feeRate) - 1e-9);
  const maxPayment = (input.annualIncome / 12) * MAX_PAYMENT_TO_INCOME;
  const offers: PricedOffer[] = [];
  for (const term of OFFER_TERMS) {
    const rate = offerRate(band.baseRate, term, input);
    const payment = monthlyPayment(loanAmount, rate, term);
    if (payment > maxPayment) continue;
    offers.push({
      apr: aprOf(input.amount, payment, term),
      loan_amount: loanAmount,
      origination_fee: cents(loanAmount - input.amount),
      loan_rate: rate,
      loan_term_in_months: term,
      loan_term_in_years: term / 12,
      monthly_payment: payment,
    });
  }
  return offers;
}
