/**
 * One listing drawn from a random stream: every field of an active listing, as the seed (seed.ts) and the
 * market's arrivals (arrivals.ts) make them, or only the fields the market needs (`marketOnly`).
 */
import { BUREAU1_UNTIL } from '../../src/contract/listing-fields.js';
import {
  EMPLOYMENT_STATUSES,
  FICO_BINS,
  INCOME_RANGES,
  INVESTMENT_TYPES,
  LISTING_CATEGORIES,
  LISTING_STATUS,
  LISTING_RATINGS,
  LISTING_STATUSES,
  LISTING_TERMS,
  US_STATES,
} from '../../src/contract/enums.js';
import { cents, monthlyPayment } from '../kit/money.js';
import type { Rng } from '../kit/rng.js';
import { Bureau2, fillBureau2, skipBureau2 } from './seed-bureau.js';
import type { Listing } from '../world/world.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const BUREAU1_CUTOFF = Date.parse(`${BUREAU1_UNTIL}T00:00:00Z`);
/** Listings that started before this show the deprecated yields (parsed once: per listing it was a tenth of seeding). */
const OLD_YIELDS_UNTIL = Date.parse('2018-08-08T23:59:59Z');

/** Each rating's central borrower rate: a listing's rate is drawn within 0.015 of it (added-listing.ts holds a chosen rate to the same band). */
export const RATING_RATE: Readonly<Record<string, number>> = { AA: 0.06, A: 0.09, B: 0.12, C: 0.16, D: 0.2, E: 0.25, HR: 0.3 };
/** Each rating's central platform score (a listing's is drawn within 1 of it). */
export const RATING_SCORE: Readonly<Record<string, number>> = { AA: 11, A: 9, B: 8, C: 6, D: 4, E: 3, HR: 1 };
const OCCUPATIONS = [
  'Accountant/CPA',
  'Analyst',
  'Clerical',
  'Engineer - Mechanical',
  'Nurse (RN)',
  'Professional',
  'Sales - Retail',
  'Teacher',
  'Truck Driver',
  'Computer Programmer',
  'Other',
];
/**
 * A new listing's term by its share: 36 months 55%, 48 and 60 months 20% each, 24 months 5% (the 2025–26
 * answers: five of 36, two of 48, two of 60 in nine listings, none of 24). One draw, as `rng.pick` makes,
 * and no array walked: the seed draws a million of them.
 */
function drawTerm(rng: Rng): (typeof LISTING_TERMS)[number] {
  const u = rng.next();
  return u < 0.55 ? 36 : u < 0.75 ? 48 : u < 0.95 ? 60 : 24;
}
/** Employment texts of someone employed, and acquisition channels: shared, not rebuilt per listing. */
export const EMPLOYED = EMPLOYMENT_STATUSES.filter((e) => e !== 'Not employed');
const CHANNELS = ['40000', '80000', '90000'] as const;
const HEX_UPPER = '0123456789ABCDEF';
/** The stated monthly income drawn for each income range (range 0, not displayed, and 7, not employed, draw from bands of their own). */
export const MONTHLY_INCOME: Readonly<Record<number, [number, number]>> = {
  0: [1500, 9000],
  1: [0, 0],
  2: [300, 2080],
  3: [2084, 4166],
  4: [4167, 6249],
  5: [6250, 8333],
  6: [8334, 25000],
  7: [0, 1500],
};

/**
 * Builds one listing. The first listings cycle through every rating, term, category, state, FICO bin
 * and income range (coprime cycle lengths cover every value of each), the rest are drawn at random.
 * Every field is written into `into`, a fresh object unless the caller passes one to reuse: the seed
 * fills one scratch listing (and its bureau2 values) over and over, since the world copies each into
 * its columns (a fresh object of ~80 fields per listing was most of the garbage of seeding a million).
 * With `marketOnly`, only the fields the market needs (marketFields), in another scratch object; the
 * stream is left where the whole listing leaves it (skipDescriptionDraws), so the next listing drawn
 * from it is the one it would have been. `startAt`, when given, is its start instead of the drawn one.
 */
export function makeListing(
  rng: Rng,
  number: number,
  created: number,
  now: number,
  index: number,
  into?: Listing,
  marketOnly = false,
  startAt?: number,
): Listing {
  const o = into ?? ({} as Listing);
  const cycle = index < 128;
  const rating = cycle ? LISTING_RATINGS[index % LISTING_RATINGS.length]! : rng.pick(LISTING_RATINGS);
  const term = cycle ? LISTING_TERMS[index % LISTING_TERMS.length]! : drawTerm(rng);
  const category = cycle ? 1 + (index % 21) : rng.int(1, 21);
  const state = index < US_STATES.length ? US_STATES[index]! : rng.pick(US_STATES);
  const fico = cycle ? FICO_BINS[index % FICO_BINS.length]! : rng.pick(FICO_BINS);
  const incomeRange = cycle ? index % 8 : rng.int(0, 7);
  const whole = index % 10 === 9;
  const coBorrower = index % 11 === 5;

  const amount = rng.int(80, 1400) * 25;
  const rate = Math.round((RATING_RATE[rating]! + rng.range(-0.015, 0.015)) * 10000) / 10000;
  const fundedShare = whole ? 0 : index % 17 === 3 ? 1 - (rng.int(1, 4) * 25) / amount : rng.range(0, 0.97);
  const funded = Math.min(amount - 25, Math.floor((amount * fundedShare) / 25) * 25);
  const [incLo, incHi] = MONTHLY_INCOME[incomeRange]!;
  const income = cents(rng.range(incLo, incHi));
  const priorLoans = rng.chance(0.3) ? rng.int(1, 4) : 0;
  const priorBorrowed = priorLoans ? rng.int(40, 1000) * 25 : 0;
  const priorOutstanding = priorLoans ? cents(priorBorrowed * rng.range(0, 0.6)) : 0;
  const cyclesBilled = priorLoans ? rng.int(priorLoans * 3, priorLoans * 40) : 0;
  const lateCycles = priorLoans ? rng.int(0, Math.min(5, cyclesBilled)) : 0;
  // Drawn whether or not `startAt` is given: the stream stays where it was for every draw after.
  const drawnStart = created + rng.int(5, 60) * 60_000;
  const start = startAt ?? drawnStart;
  const old = start <= OLD_YIELDS_UNTIL;
  const historical = 0.02 + (RATING_SCORE[rating]! / 11) * 0.05;
  const employment = incomeRange === 7 ? 'Not employed' : rng.pick(EMPLOYED);
  const passedWholePool = !whole && rng.chance(0.2);
  const partial = !whole && rng.chance(0.85);
  if (marketOnly) {
    skipDescriptionDraws(rng, employment === 'Not employed', coBorrower, priorLoans > 0, created);
    return marketFields(o, number, amount, funded, partial, whole, term, rate, rating, created, start);
  }

  activeWithFunding(o, number, amount, funded);
  o.funding_threshold = whole ? 1 : 0.7;
  o.partial_funding_indicator = partial;
  o.investment_typeid = whole ? 2 : 1;
  o.investment_type_description = INVESTMENT_TYPES[whole ? 2 : 1]!;
  o.investment_product_id = 1;
  o.listing_term = term;
  // Worked out only for a whole listing (no draw: the stream is the same): an arrival's market fields have none, and its
  // description works it out when drawn (a Math.pow an arrival was ~a third of a year's monthlyPayment).
  o.listing_monthly_payment = monthlyPayment(amount, rate, term);
  o.borrower_rate = rate;
  o.borrower_apr = Math.round((rate + 0.02 + rng.range(0, 0.01)) * 10000) / 10000;
  o.lender_yield = Math.round((rate - 0.01) * 10000) / 10000;
  o.platform_rating = rating;
  o.platform_score = Math.max(1, Math.min(11, RATING_SCORE[rating]! + rng.int(-1, 1)));
  o.fico_score = fico;
  o.listing_category_id = category;
  o.listing_title = LISTING_CATEGORIES[category]!;
  o.listing_purpose = LISTING_CATEGORIES[category]!;
  o.borrower_listing_description = null;
  o.channel_code = rng.pick(CHANNELS);
  o.borrower_state = state;
  o.employment_status_description = employment;
  const occupation = rng.chance(0.8) ? rng.pick(OCCUPATIONS) : null;
  // No occupation when the employment is Other, as the 2025–26 answers (the draw stays, so the stream does not move).
  o.occupation = employment === 'Other' ? null : occupation;
  o.months_employed = employment === 'Not employed' ? 0 : rng.int(1, 360);
  o.income_range = incomeRange;
  o.income_range_description = INCOME_RANGES[incomeRange]!;
  o.income_verifiable = rng.chance(0.9);
  o.stated_monthly_income = income;
  o.dti_wplatform_loan = Math.round(rng.range(0.03, 0.55) * 100) / 100;
  o.estimated_monthly_housing_expense = rng.int(0, 60) * 50;
  o.has_mortgage = rng.chance(0.4);
  o.member_key = hexUpper(rng, 24);
  o.lender_indicator = rng.chance(0.05) ? 1 : 0;
  o.decision_bureau = created < BUREAU1_CUTOFF ? 'bureau1' : 'bureau2';
  o.verification_stage = rng.int(1, 3);
  o.co_borrower_application = coBorrower;
  o.combined_dti_wplatform_loan = coBorrower ? Math.round(rng.range(0.05, 0.45) * 100) / 100 : null;
  o.combined_stated_monthly_income = coBorrower ? cents(income + rng.range(1500, 9000)) : null;
  o.historical_return = Math.round(historical * 10000) / 10000;
  o.historical_return_10th_pctl = Math.round((historical - 0.025) * 10000) / 10000;
  o.historical_return_90th_pctl = Math.round((historical + 0.02) * 10000) / 10000;
  o.effective_yield = old ? Math.round((rate - 0.03) * 10000) / 10000 : 0;
  o.estimated_loss_rate = old ? Math.round((rate / 3) * 10000) / 10000 : 0;
  o.estimated_return = old ? Math.round((rate - 0.01 - rate / 3) * 10000) / 10000 : 0;
  o.max_prior_platform_loan = priorLoans ? Math.min(priorBorrowed, rng.int(40, 400) * 25) : null;
  o.min_prior_platform_loan = priorLoans ? Math.min(priorBorrowed, 1000) : null;
  o.prior_platform_loans = priorLoans;
  o.prior_platform_loan_earliest_pay_off = priorLoans ? rng.int(0, 36) : 0;
  o.prior_platform_loans31dpd = priorLoans ? rng.int(0, lateCycles) : 0;
  o.prior_platform_loans61dpd = 0;
  o.prior_platform_loans_active = priorLoans ? rng.int(0, priorLoans) : 0;
  o.prior_platform_loans_balance_outstanding = priorOutstanding;
  o.prior_platform_loans_cycles_billed = cyclesBilled;
  o.prior_platform_loans_late_cycles = lateCycles;
  o.prior_platform_loans_late_payments_one_month_plus = priorLoans ? rng.int(0, lateCycles) : 0;
  o.prior_platform_loans_ontime_payments = cyclesBilled - lateCycles;
  o.prior_platform_loans_principal_borrowed = priorBorrowed;
  o.prior_platform_loans_principal_outstanding = priorOutstanding;
  o.listing_creation_date = created;
  o.listing_start_date = start;
  o.listing_end_date = start + 14 * DAY;
  o.last_updated_date = Math.min(now, start + rng.int(0, 48) * HOUR);
  o.whole_loan_start_date = whole || passedWholePool ? created : null;
  o.whole_loan_end_date = passedWholePool ? start : null;
  o.loan_number = null;
  o.loan_origination_date = null;
  o.bureau2 = fillBureau2(o.bureau2 ?? new Bureau2(), rng);
  o.creditReportDate = created - rng.int(1, 20) * DAY;
  o.bureau1 = created < BUREAU1_CUTOFF ? makeBureau1(rng) : null;
  o.borrowerUserId = null;
  return o;
}

/** A listing's first fields, in the order the seed's columns have them: its number, active, its amount and what is funded of it. */
function activeWithFunding(o: Listing, number: number, amount: number, funded: number): void {
  o.listing_number = number;
  o.listing_status = LISTING_STATUS.ACTIVE;
  o.listing_status_reason = LISTING_STATUSES[LISTING_STATUS.ACTIVE]!;
  o.listing_amount = amount;
  o.amount_funded = funded;
  o.amount_remaining = amount - funded;
  o.percent_funded = Math.round((funded / amount) * 10000) / 10000;
}

/**
 * The market's fields of a listing (listing-table.ts MARKET_FIELDS, but for the verification stage and the
 * last update, which the market's caller sets): what an arriving listing gets until it is described.
 */
export function marketFields(
  o: Listing,
  number: number,
  amount: number,
  funded: number,
  partial: boolean,
  whole: boolean,
  term: number,
  rate: number,
  rating: string,
  created: number,
  start: number,
): Listing {
  activeWithFunding(o, number, amount, funded);
  o.partial_funding_indicator = partial;
  o.investment_typeid = whole ? 2 : 1;
  o.investment_type_description = INVESTMENT_TYPES[whole ? 2 : 1]!;
  o.listing_term = term;
  o.borrower_rate = rate;
  o.platform_rating = rating;
  o.listing_creation_date = created;
  o.listing_start_date = start;
  o.listing_end_date = start + 14 * DAY;
  o.loan_number = null;
  o.loan_origination_date = null;
  o.borrowerUserId = null;
  return o;
}

/**
 * Steps `rng` past the draws `makeListing` makes after the market's fields (the description: from the APR
 * to the bureau values), drawing each as it does but computing no field. A draw that decides whether
 * another follows (a chance, a special bureau value) is compared as there; test/listing-maker.test.ts
 * holds the two to the same place in the stream.
 */
function skipDescriptionDraws(rng: Rng, notEmployed: boolean, coBorrower: boolean, priorLoans: boolean, created: number): void {
  // APR, platform score, channel; occupation (a pick when it has one); months employed.
  rng.skip(3);
  if (rng.next() < 0.8) rng.skip(1);
  if (!notEmployed) rng.skip(1);
  // Income verifiable, DTI, housing expense, mortgage, the member key's 24 digits, lender indicator, verification stage;
  // the co-borrower's DTI and income; the prior loans' maximum, earliest pay-off, 31 days past due, active, late payments;
  // the last update.
  rng.skip(4 + 24 + 2 + (coBorrower ? 2 : 0) + (priorLoans ? 5 : 0) + 1);
  // The bureau2 values; the credit report date; bureau1 before its cut-off.
  skipBureau2(rng);
  rng.skip(1 + (created < BUREAU1_CUTOFF ? 6 : 0));
}

/** `n` upper-case hex digits: the same draws as `rng.hex(n).toUpperCase()`, without building n strings on the way. */
function hexUpper(rng: Rng, n: number): string {
  const codes = new Array<number>(n);
  for (let i = 0; i < n; i++) codes[i] = HEX_UPPER.charCodeAt(rng.int(0, 15));
  return String.fromCharCode(...codes);
}

function makeBureau1(rng: Rng): Record<string, number> {
  return {
    total_trade_items: rng.int(2, 60),
    open_credit_lines: rng.int(1, 30),
    current_delinquencies: rng.int(0, 3),
    inquiries_last6_months: rng.int(0, 8),
    revolving_balance: rng.int(0, 80_000),
    bankcard_utilization: Math.round(rng.range(0, 1) * 100) / 100,
  };
}
