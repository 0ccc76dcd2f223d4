/**
 * A listing added with fields the caller chooses (POST /__mock/listings): every field not chosen is drawn
 * as the seed draws a listing (listing-maker.ts), from a stream of the world's seed and the listing's
 * number, and the listing starts as one arriving now does (created and started now, unfunded, at the
 * first verification stage), fractional, unless the fields say otherwise. The chosen fields are checked
 * each against the contract (chosen-fields.ts) and then together: a rate inside its rating's band, an
 * income inside its range, funding the status allows, a number no listing has. Fields worked out from
 * others (the percent funded, the payment, the reason text, …) are worked out here; given, they must
 * agree. Every check comes before the world is touched: a refused listing changes nothing.
 */
import { hasDeprecatedFields } from '../../src/contract/listing-fields.js';
import { INCOME_RANGES, INVESTMENT_TYPES, LISTING_CATEGORIES, LISTING_STATUS, LISTING_STATUSES } from '../../src/contract/enums.js';
import { validationError } from '../kit/api-error.js';
import { cents, monthlyPayment } from '../kit/money.js';
import type { Rng } from '../kit/rng.js';
import { addListing, type Listing, type World } from '../world/world.js';
import { readChosenFields, shown, type ChosenFields } from './chosen-fields.js';
import { EMPLOYED, makeListing, MONTHLY_INCOME, RATING_RATE, RATING_SCORE } from './listing-maker.js';
import { originate } from './lifecycle.js';
import { originationTime, ORIGINATION_WINDOW_MS, percentFunded, readyToOriginate } from './own-steps.js';
import { rngFor } from './rng-for.js';

/** Salts of the added listing's streams: its description as the seed draws one, and the values a choice makes drawn again. */
const DRAW_SALT = 0xadd1;
const REDRAW_SALT = 0xadd2;
/** A rate is drawn within this of its rating's central rate; a chosen one must lie there too. */
const BAND = 0.015;
/** The investor's servicing fee: the lender yield is the borrower rate less this. */
const SERVICING_FEE = 0.01;
const NOT_EMPLOYED = 'Not employed';
/** The yearly incomes of income ranges 1 to 6 (0, not displayed, and 7, not employed, take any). */
const YEARLY_INCOME: Readonly<Record<number, readonly [number, number]>> = {
  1: [0, 0],
  2: [0.01, 24_999.99],
  3: [25_000, 49_999.99],
  4: [50_000, 74_999.99],
  5: [75_000, 99_999.99],
  6: [100_000, Infinity],
};

type Fields = Readonly<Record<string, unknown>>;

const round = (v: number, places: number): number => Number(v.toFixed(places));
const fail = (field: string, problem: string): never => {
  throw validationError(field, problem);
};

/**
 * Adds to `world` the listing the caller's `input` (a JSON object of listing fields) chooses, at `now`; returns
 * it as kept. Throws a 400 VAL0001 naming the field and what is wrong, the world unchanged.
 */
export function addChosenListing(world: World, input: unknown, now: number): Listing {
  const chosen = readChosenFields(input);
  const c = chosen.fields;
  const number = (c.listing_number as number | undefined) ?? world.counters.listing;
  if (world.listingByNumber.has(number)) fail('listing_number', `${number} is already a listing's number`);
  const status = (c.listing_status as number | undefined) ?? LISTING_STATUS.ACTIVE;
  const start = (c.listing_start_date as number | undefined) ?? now;
  const created = (c.listing_creation_date as number | undefined) ?? Math.min(start, now);
  if (created > now) fail('listing_creation_date', `must not be after the mock's clock, got ${shown(c.listing_creation_date)}`);
  if (created > start) fail('listing_creation_date', 'must not be after listing_start_date');
  if (status === LISTING_STATUS.ACTIVE && start + ORIGINATION_WINDOW_MS <= now) {
    fail('listing_start_date', 'an active listing must have started less than 14 days ago (it ends 14 days after its start)');
  }

  // Drawn whole as the seed draws a listing (created at `created`, so bureau1 and the decision bureau follow its date), then chosen over.
  const l = makeListing(rngFor(world.seed, DRAW_SALT, number), number, created, now, number, {} as Listing);
  const redraw = rngFor(world.seed, REDRAW_SALT, number);
  const drawnRange = l.income_range;
  for (const [k, v] of Object.entries(c)) if (!DERIVED.has(k)) (l as unknown as Record<string, unknown>)[k] = v;
  l.listing_creation_date = created;
  l.listing_start_date = start;
  l.listing_end_date = start + ORIGINATION_WINDOW_MS;
  l.last_updated_date = now;
  price(l, c, redraw);
  if (l.borrower_apr < l.borrower_rate) fail('borrower_apr', `must not be below borrower_rate ${l.borrower_rate}, got ${l.borrower_apr}`);
  investmentType(l, c);
  borrower(l, c, drawnRange, redraw);
  coBorrower(l, c, redraw);
  bureau(l, chosen);
  funding(l, c, status);
  worked(l);
  for (const k of DERIVED) if (k in c) agree(l, k, c[k]);

  // Every check passed: the world changes from here on.
  if (number >= world.counters.listing) world.counters.listing = number + 1;
  const originates = status === LISTING_STATUS.COMPLETED;
  setStatusFields(l, originates ? LISTING_STATUS.PENDING : status);
  if (l.listing_status === LISTING_STATUS.PENDING) l.originateAt = originationTime(world.seed, number, start, now);
  const row = addListing(world, l);
  if (originates) originate(world, row, now);
  return row;
}

/** Fields worked out from others: given, they must be what is worked out (a listing copied from an answer is taken). */
const DERIVED: ReadonlySet<string> = new Set([
  'listing_status_reason',
  'percent_funded',
  'investment_type_description',
  'funding_threshold',
  'listing_monthly_payment',
  'income_range_description',
  'listing_title',
  'listing_purpose',
  'listing_end_date',
  'effective_yield',
  'estimated_loss_rate',
  'estimated_return',
  'decision_bureau',
  'lender_yield',
]);

/** Throws unless the given `v` of derived field `k` is what the listing has. */
function agree(l: Listing, k: string, v: unknown): void {
  const has = (l as unknown as Record<string, unknown>)[k];
  if (has === v) return;
  fail(k, `is worked out from the listing's other fields (${shown(has)} here), got ${shown(v)}; leave it out`);
}

function setStatusFields(l: Listing, status: number): void {
  l.listing_status = status;
  l.listing_status_reason = LISTING_STATUSES[status]!;
}

/** The rating whose band holds `rate`, if one does. */
function ratingOf(rate: number): string | undefined {
  return Object.keys(RATING_RATE).find((r) => Math.abs(rate - RATING_RATE[r]!) <= BAND + 1e-9);
}

const bands = (): string =>
  Object.entries(RATING_RATE)
    .map(([r, mid]) => `${r} ${round(mid - BAND, 4)}-${round(mid + BAND, 4)}`)
    .join(', ');

/** The rating and rate (the rate from the lender yield when only it is given), and what follows from them. */
function price(l: Listing, c: Fields, rng: Rng): void {
  const yieldGiven = c.lender_yield as number | undefined;
  let rate = c.borrower_rate as number | undefined;
  if (rate === undefined && yieldGiven !== undefined) rate = round(yieldGiven + SERVICING_FEE, 4);
  let rating = c.platform_rating as string | undefined;
  const source = c.borrower_rate === undefined ? 'lender_yield' : 'borrower_rate';
  if (rating === undefined && rate !== undefined) rating = ratingOf(rate) ?? fail(source, `${rate} is in no rating's band (${bands()})`);
  if (rating === undefined) return;
  const mid = RATING_RATE[rating]!;
  if (rate !== undefined && Math.abs(rate - mid) > BAND + 1e-9) {
    fail(source, `${rate} is outside rating ${rating}'s band ${round(mid - BAND, 4)} to ${round(mid + BAND, 4)}`);
  }
  rate ??= round(mid + rng.range(-BAND, BAND), 4);
  const score = RATING_SCORE[rating]!;
  l.platform_rating = rating;
  l.borrower_rate = rate;
  if (c.borrower_apr === undefined) l.borrower_apr = round(rate + 0.02 + rng.range(0, 0.01), 4);
  if (c.platform_score === undefined) l.platform_score = Math.max(1, Math.min(11, score + rng.int(-1, 1)));
  const historical = 0.02 + (score / 11) * 0.05;
  if (c.historical_return === undefined) l.historical_return = round(historical, 4);
  if (c.historical_return_10th_pctl === undefined) l.historical_return_10th_pctl = round(historical - 0.025, 4);
  if (c.historical_return_90th_pctl === undefined) l.historical_return_90th_pctl = round(historical + 0.02, 4);
}

/**
 * Whole loan (2) or fractional (1, unless 2 is chosen: a listing added for a test is one any investor may bid on): a whole
 * loan is never partially funded and is in the whole-loan pool from its creation; a fractional one that passed through
 * that pool (as drawn) left it when it started.
 */
function investmentType(l: Listing, c: Fields): void {
  l.investment_typeid = (c.investment_typeid as number | undefined) ?? 1;
  const whole = l.investment_typeid === 2;
  if (whole && c.partial_funding_indicator === true)
    fail('partial_funding_indicator', 'a whole loan (investment_typeid 2) is never partially funded');
  if (whole) l.partial_funding_indicator = false;
  const pooled = whole || l.whole_loan_start_date !== null;
  if (c.whole_loan_start_date === undefined) l.whole_loan_start_date = pooled ? l.listing_creation_date : null;
  if (c.whole_loan_end_date === undefined) l.whole_loan_end_date = pooled && !whole ? l.listing_start_date : null;
}

/** The income range a monthly income is in, by its yearly income (ranges 1 to 6). */
function rangeOfIncome(monthly: number): number {
  const yearly = monthly * 12;
  return Number(Object.keys(YEARLY_INCOME).find((r) => yearly <= YEARLY_INCOME[Number(r)]![1] + 0.005) ?? 6);
}

/** Employment, the income range and the stated income: one decides the others when only it is given; given together, they must fit. */
function borrower(l: Listing, c: Fields, drawnRange: number, rng: Rng): void {
  const income = c.stated_monthly_income as number | undefined;
  const employment = c.employment_status_description as string | undefined;
  let range = c.income_range as number | undefined;
  if (range === undefined && employment === NOT_EMPLOYED) range = 7;
  else if (range === undefined && income !== undefined) range = rangeOfIncome(income);
  else if (range === undefined && employment !== undefined && l.income_range === 7) range = rng.int(2, 6);
  if (range !== undefined) {
    if (employment !== undefined && (employment === NOT_EMPLOYED) !== (range === 7)) {
      fail('employment_status_description', `must be ${range === 7 ? '' : 'other than '}'${NOT_EMPLOYED}' with income_range ${range}`);
    }
    const band = YEARLY_INCOME[range];
    if (income !== undefined && band && (income * 12 < band[0] - 0.005 || income * 12 > band[1] + 0.005)) {
      fail('stated_monthly_income', `${income} a month is outside income_range ${range} (${INCOME_RANGES[range]} a year)`);
    }
    l.income_range = range;
    if (income === undefined && range !== drawnRange) {
      const [lo, hi] = MONTHLY_INCOME[range]!;
      l.stated_monthly_income = cents(rng.range(lo, hi));
    }
    if (employment === undefined && range === 7) l.employment_status_description = NOT_EMPLOYED;
    else if (employment === undefined && l.employment_status_description === NOT_EMPLOYED)
      l.employment_status_description = rng.pick(EMPLOYED);
  }
  const employed = l.employment_status_description !== NOT_EMPLOYED;
  if (!employed && c.months_employed !== undefined && c.months_employed !== 0)
    fail('months_employed', `must be 0 for someone '${NOT_EMPLOYED}'`);
  if (c.months_employed === undefined) l.months_employed = employed ? l.months_employed || rng.int(1, 360) : 0;
}

/** The combined figures are on co-borrower listings only (drawn when chosen so without them). */
function coBorrower(l: Listing, c: Fields, rng: Rng): void {
  if (!l.co_borrower_application) {
    for (const k of ['combined_dti_wplatform_loan', 'combined_stated_monthly_income'] as const) {
      if (c[k] !== undefined && c[k] !== null) fail(k, 'is only on co-borrower listings (co_borrower_application true)');
      l[k] = null;
    }
    return;
  }
  if (c.combined_dti_wplatform_loan == null) l.combined_dti_wplatform_loan ??= round(rng.range(0.05, 0.45), 2);
  const income = l.stated_monthly_income;
  if (c.combined_stated_monthly_income == null && (l.combined_stated_monthly_income == null || l.combined_stated_monthly_income < income)) {
    l.combined_stated_monthly_income = cents(income + rng.range(1500, 9000));
  }
}

/** The indexed bureau2 values given, over the drawn ones; the FICO bin given with them is the listing's. */
function bureau(l: Listing, chosen: ChosenFields): void {
  l.bureau2 = { ...l.bureau2, ...chosen.bureau2 };
  if (chosen.creditReportDate !== undefined) l.creditReportDate = chosen.creditReportDate;
  if (chosen.bureauFico !== undefined && chosen.bureauFico !== l.fico_score) {
    fail(
      'credit_bureau_values_bureau2_indexed.fico_score',
      `is the listing's fico_score (${shown(l.fico_score)}), got ${shown(chosen.bureauFico)}`,
    );
  }
}

/** What is funded, by the amount funded or the amount remaining; what the status allows (a Pending or Completed listing is ready to originate). */
function funding(l: Listing, c: Fields, status: number): void {
  const amount = l.listing_amount;
  if (amount < 2000 || amount > 35_000)
    fail('listing_amount', `must be from 2000 to 35000 (the loan amounts the marketplace lends), got ${amount}`);
  const funded = c.amount_funded as number | undefined;
  const remaining = c.amount_remaining as number | undefined;
  const originating = status === LISTING_STATUS.PENDING || status === LISTING_STATUS.COMPLETED;
  const f = funded ?? (remaining !== undefined ? cents(amount - remaining) : originating ? amount : 0);
  if (funded !== undefined && remaining !== undefined && cents(funded + remaining) !== amount) {
    fail('amount_remaining', `must be listing_amount less amount_funded (${cents(amount - funded)}), got ${remaining}`);
  }
  if (f > amount || f < 0)
    fail(funded !== undefined ? 'amount_funded' : 'amount_remaining', `must leave the funding between 0 and listing_amount ${amount}`);
  const whole = l.investment_typeid === 2;
  if (whole && status === LISTING_STATUS.ACTIVE && f > 0)
    fail('amount_funded', 'an active whole loan is taken whole by one investor: it is unfunded until then');
  l.amount_funded = f;
  l.amount_remaining = cents(amount - f);
  l.percent_funded = percentFunded(f, amount);
  if (c.verification_stage === undefined) l.verification_stage = originating ? 3 : 1;
  if (!originating) return;
  const partly = !whole && l.partial_funding_indicator && l.percent_funded >= 0.7;
  if (l.verification_stage < 3) fail('verification_stage', `must be 3 for listing_status ${status} (the listing is ready to originate)`);
  if (!readyToOriginate(l.verification_stage, f, amount) && !partly) {
    fail('amount_funded', `must be listing_amount, or 70% of it with partial funding, for listing_status ${status}, got ${f}`);
  }
}

/** The fields worked out from the others. */
function worked(l: Listing): void {
  const rate = l.borrower_rate;
  const whole = l.investment_typeid === 2;
  l.listing_monthly_payment = monthlyPayment(l.listing_amount, rate, l.listing_term);
  l.lender_yield = round(rate - SERVICING_FEE, 4);
  l.investment_type_description = INVESTMENT_TYPES[l.investment_typeid]!;
  l.funding_threshold = whole ? 1 : 0.7;
  l.income_range_description = INCOME_RANGES[l.income_range]!;
  l.listing_title = LISTING_CATEGORIES[l.listing_category_id]!;
  l.listing_purpose = l.listing_title;
  const old = hasDeprecatedFields(l.listing_start_date);
  l.effective_yield = old ? round(rate - 0.03, 4) : 0;
  l.estimated_loss_rate = old ? round(rate / 3, 4) : 0;
  l.estimated_return = old ? round(rate - 0.01 - rate / 3, 4) : 0;
}
