/**
 * The deterministic seed: the same seed and start time always build the same world. Active listings
 * of every rating, term, category, state and funding level; a history of originated loans in every
 * status; the fixed investor users, the demo OAuth client and the partner codes of DESIGN.md.
 */
import { BUREAU1_UNTIL } from '../../src/contract/listing-fields.js';
import {
  EMPLOYMENT_STATUSES, FICO_BINS, INCOME_RANGES, INVESTMENT_TYPES, LISTING_CATEGORIES, LISTING_STATUS,
  LISTING_RATINGS, LISTING_STATUSES, LISTING_TERMS, LOAN_STATUS, US_STATES,
} from '../../src/contract/enums.js';
import { cents, monthlyPayment } from '../kit/money.js';
import { investorEmail } from './notifications.js';
import { seedEngineExtras, seedFundingHistory } from './seed-extras.js';
import { Rng } from '../kit/rng.js';
import { Bureau2, fillBureau2 } from './seed-bureau.js';
import { reserveListingRows } from '../world/listing-table.js';
import { reserveLoanRows } from '../world/loan-table.js';
import { addNote } from '../world/store-index.js';
import type { ExistingBorrower } from '../world/store.js';
import { addListing, addLoan, emptyStore, type Account, type Listing, type Loan, type Store, type User } from '../world/store.js';
import { DEMO_CLIENT } from '../../src/contract/demo-client.js';

/** Whether the world starts with a history of originated loans and notes ('seeded', the default) or none. */
export type SeedHistory = 'seeded' | 'none';

/** What to build. */
export interface SeedOptions {
  seed: number;
  /** Active listings (0: none; the market then adds none either, arrivals keeping the seeded number steady). */
  listings: number;
  /** 'none': no history listings, loans or notes; the investors keep their funded accounts (their deposits and withdrawals). */
  history?: SeedHistory;
  /** The virtual time the world is built around. */
  now: number;
  /** A fresh investor, one funded account and no history (`mkt invest simulate`); the rest of the world is unchanged. */
  investor?: { id: string; cash: number };
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
const BUREAU1_CUTOFF = Date.parse(`${BUREAU1_UNTIL}T00:00:00Z`);
const HISTORY_START = Date.parse('2015-06-01T00:00:00Z');
/** Listings that started before this show the deprecated yields (parsed once: per listing it was a tenth of seeding). */
const OLD_YIELDS_UNTIL = Date.parse('2018-08-08T23:59:59Z');

/** First listing number handed out to active listings; history numbers sit below it. */
export const FIRST_ACTIVE_LISTING = 10_000_000;

const RATING_RATE: Readonly<Record<string, number>> = { AA: 0.06, A: 0.09, B: 0.12, C: 0.16, D: 0.2, E: 0.25, HR: 0.3 };
const RATING_SCORE: Readonly<Record<string, number>> = { AA: 11, A: 9, B: 8, C: 6, D: 4, E: 3, HR: 1 };
const OCCUPATIONS = ['Accountant/CPA', 'Analyst', 'Clerical', 'Engineer - Mechanical', 'Nurse (RN)', 'Professional', 'Sales - Retail', 'Teacher', 'Truck Driver', 'Computer Programmer'];
/** Employment texts of someone employed, and acquisition channels: shared, not rebuilt per listing. */
const EMPLOYED = EMPLOYMENT_STATUSES.filter((e) => e !== 'Not employed');
const CHANNELS = ['40000', '80000', '90000'] as const;
const HEX_UPPER = '0123456789ABCDEF';
const MONTHLY_INCOME: Readonly<Record<number, [number, number]>> = {
  0: [1500, 9000], 1: [0, 0], 2: [300, 2080], 3: [2084, 4166], 4: [4167, 6249], 5: [6250, 8333], 6: [8334, 25000], 7: [0, 1500],
};

/** The fixed investor users of DESIGN.md; each is registered for notifications (investorEmail). */
const USERS: ReadonlyArray<Omit<User, 'accountIds'> & { cash: number[] }> = [
  { id: 'alice', name: 'Alice Archer', state: 'CA', active: true, emailVerified: true, wholeLoanEligible: true, stateAllowsInvesting: true, cash: [250_000, 10_000] },
  { id: 'bob', name: 'Bob Baker', state: 'NY', active: true, emailVerified: true, wholeLoanEligible: false, stateAllowsInvesting: true, cash: [40] },
  { id: 'carol', name: 'Carol Chen', state: 'OH', active: true, emailVerified: true, wholeLoanEligible: false, stateAllowsInvesting: false, cash: [5_000] },
  { id: 'dave', name: 'Dave Diaz', state: 'TX', active: true, emailVerified: true, wholeLoanEligible: false, stateAllowsInvesting: true, cash: [5_000] },
  { id: 'erin', name: 'Erin Evans', state: 'WA', active: false, emailVerified: true, wholeLoanEligible: false, stateAllowsInvesting: true, cash: [1_000] },
];

export { DEMO_CLIENT };
/** Partner source codes: one valid, one expired. */
export const PARTNER_CODES = { valid: 'PARTNER-DEMO', expired: 'PARTNER-EXPIRED' } as const;

/**
 * Applicants who already borrowed (offers answer MKTPL-100 when an applicant's SSN, or first name,
 * last name and date of birth, match one). Dave is also the borrower of a listing.
 */
export const EXISTING_BORROWERS: ReadonlyArray<ExistingBorrower> = [
  { firstName: 'Dave', lastName: 'Diaz', dateOfBirth: '1985-04-12', ssn: '555001234' },
  { firstName: 'Grace', lastName: 'Green', dateOfBirth: '1979-11-03', ssn: '555005678' },
  { firstName: 'Henry', lastName: 'Hill', dateOfBirth: '1992-06-30', ssn: '555009012' },
];

/** Builds the whole world for `opts`. */
export function seedStore(opts: SeedOptions): Store {
  const rng = new Rng(opts.seed);
  const store = emptyStore(opts.seed);
  seedUsers(store, rng, opts.now);
  store.clients.set(DEMO_CLIENT.clientId, { ...DEMO_CLIENT });
  store.partnerCodes.set(PARTNER_CODES.valid, { code: PARTNER_CODES.valid, expired: false });
  store.partnerCodes.set(PARTNER_CODES.expired, { code: PARTNER_CODES.expired, expired: true });
  store.existingBorrowers = EXISTING_BORROWERS.map((b) => ({ ...b }));

  const historyCount = opts.history === 'none' ? 0 : Math.min(2000, Math.max(100, Math.round(opts.listings / 4)));
  store.counters = { listing: FIRST_ACTIVE_LISTING - historyCount, loan: 500_000, note: 900_000 };
  reserveListingRows(store.listingTable, historyCount + opts.listings);
  // A 15-day clock move originates about three loans for every four listings the world holds.
  reserveLoanRows(store.loanTable, historyCount + opts.listings);
  seedHistory(store, rng, historyCount, opts.now);

  store.counters.listing = FIRST_ACTIVE_LISTING;
  const scratch = {} as Listing;
  for (let i = 0; i < opts.listings; i++) {
    const created = opts.now - Math.floor(rng.range(0, 13.5 * DAY));
    addListing(store, makeListing(rng, store.counters.listing++, created, opts.now, i, scratch));
  }
  const own = store.listings.find((l) => l.listing_status === LISTING_STATUS.ACTIVE && l.investment_typeid === 1);
  if (own) own.borrowerUserId = 'dave';
  seedEngineExtras(store, opts.now, opts.listings);
  if (opts.investor) seedInvestor(store, opts.investor, opts.seed, opts.now);
  return store;
}

/** Adds a fresh investor with account `{id}-1` holding `cash`, drawn from its own stream so the world stays as seeded. */
function seedInvestor(store: Store, investor: { id: string; cash: number }, seed: number, now: number): void {
  if (store.users.has(investor.id)) throw new Error(`seed: the investor '${investor.id}' already exists`);
  const account: Account = { id: `${investor.id}-1`, userId: investor.id, externalUserId: new Rng(seed ^ 0x5eed1e).uuid(), cash: investor.cash };
  store.accounts.set(account.id, account);
  store.ledger.push({ at: now, accountId: account.id, amount: investor.cash, kind: 'DEPOSIT', ref: null });
  store.users.set(investor.id, {
    id: investor.id, name: investor.id, state: 'CA', active: true, emailVerified: true, wholeLoanEligible: false, stateAllowsInvesting: true,
    accountIds: [account.id],
  });
}

function seedUsers(store: Store, rng: Rng, now: number): void {
  for (const u of USERS) {
    const accountIds: string[] = [];
    u.cash.forEach((cash, i) => {
      const account: Account = { id: `${u.id}-${i + 1}`, userId: u.id, externalUserId: rng.uuid(), cash: 0 };
      store.accounts.set(account.id, account);
      seedFundingHistory(store, account.id, cash, now);
      accountIds.push(account.id);
    });
    const { cash: _cash, ...user } = u;
    store.users.set(u.id, { ...user, accountIds, email: investorEmail(u.id) });
  }
}

/**
 * Builds one listing. The first listings cycle through every rating, term, category, state, FICO bin
 * and income range (coprime cycle lengths cover every value of each), the rest are drawn at random.
 * Every field is written into `into`, a fresh object unless the caller passes one to reuse: the seed
 * fills one scratch listing (and its bureau2 values) over and over, since the store copies each into
 * its columns (a fresh object of ~80 fields per listing was most of the garbage of seeding a million).
 */
export function makeListing(rng: Rng, number: number, created: number, now: number, index: number, into?: Listing): Listing {
  const o = into ?? ({} as Listing);
  const cycle = index < 128;
  const rating = cycle ? LISTING_RATINGS[index % LISTING_RATINGS.length]! : rng.pick(LISTING_RATINGS);
  const term = cycle ? LISTING_TERMS[index % LISTING_TERMS.length]! : rng.pick(LISTING_TERMS);
  const category = cycle ? 1 + (index % 21) : rng.int(1, 21);
  const state = index < US_STATES.length ? US_STATES[index]! : rng.pick(US_STATES);
  const fico = cycle ? FICO_BINS[index % FICO_BINS.length]! : rng.pick(FICO_BINS);
  const incomeRange = cycle ? index % 8 : rng.int(0, 7);
  const whole = index % 10 === 9;
  const coBorrower = index % 11 === 5;

  const amount = rng.int(80, 1400) * 25;
  const rate = Math.round((RATING_RATE[rating]! + rng.range(-0.015, 0.015)) * 10000) / 10000;
  const payment = monthlyPayment(amount, rate, term);
  const fundedShare = whole ? 0 : index % 17 === 3 ? 1 - rng.int(1, 4) * 25 / amount : rng.range(0, 0.97);
  const funded = Math.min(amount - 25, Math.floor((amount * fundedShare) / 25) * 25);
  const [incLo, incHi] = MONTHLY_INCOME[incomeRange]!;
  const income = cents(rng.range(incLo, incHi));
  const priorLoans = rng.chance(0.3) ? rng.int(1, 4) : 0;
  const priorBorrowed = priorLoans ? rng.int(40, 1000) * 25 : 0;
  const priorOutstanding = priorLoans ? cents(priorBorrowed * rng.range(0, 0.6)) : 0;
  const cyclesBilled = priorLoans ? rng.int(priorLoans * 3, priorLoans * 40) : 0;
  const lateCycles = priorLoans ? rng.int(0, Math.min(5, cyclesBilled)) : 0;
  const start = created + rng.int(5, 60) * 60_000;
  const old = start <= OLD_YIELDS_UNTIL;
  const historical = 0.02 + (RATING_SCORE[rating]! / 11) * 0.05;
  const employment = incomeRange === 7 ? 'Not employed' : rng.pick(EMPLOYED);
  const passedWholePool = !whole && rng.chance(0.2);

  o.listing_number = number;
  o.listing_status = LISTING_STATUS.ACTIVE;
  o.listing_status_reason = LISTING_STATUSES[LISTING_STATUS.ACTIVE]!;
  o.listing_amount = amount;
  o.amount_funded = funded;
  o.amount_remaining = amount - funded;
  o.percent_funded = Math.round((funded / amount) * 10000) / 10000;
  o.funding_threshold = whole ? 1 : 0.7;
  o.partial_funding_indicator = !whole && rng.chance(0.85);
  o.investment_typeid = whole ? 2 : 1;
  o.investment_type_description = INVESTMENT_TYPES[whole ? 2 : 1]!;
  o.investment_product_id = 1;
  o.listing_term = term;
  o.listing_monthly_payment = payment;
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
  o.occupation = rng.chance(0.8) ? rng.pick(OCCUPATIONS) : null;
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

const HISTORY_STATUSES = [
  LOAN_STATUS.CURRENT, LOAN_STATUS.COMPLETED, LOAN_STATUS.CHARGEOFF, LOAN_STATUS.DEFAULTED,
  LOAN_STATUS.ORIGINATIONDELAYED, LOAN_STATUS.CANCELLED,
] as const;

/** Originated listings with their loans, spread from mid-2015 to a month ago; alice and bob hold notes in some. */
function seedHistory(store: Store, rng: Rng, count: number, now: number): void {
  const end = now - 30 * DAY;
  const scratch = {} as Listing;
  for (let i = 0; i < count; i++) {
    const created = HISTORY_START + Math.floor(((end - HISTORY_START) * i) / count) + rng.int(0, DAY);
    const listing = makeListing(rng, store.counters.listing++, created, now, i, scratch);
    // Some old loans carry N/A, the rating of loans made before the ratings (alice holds every fifth history loan, so some of these).
    if (i % 40 === 5) listing.platform_rating = 'N/A';
    listing.investment_typeid = 1;
    listing.investment_type_description = INVESTMENT_TYPES[1]!;
    listing.amount_funded = listing.listing_amount;
    listing.amount_remaining = 0;
    listing.percent_funded = 1;
    listing.verification_stage = 3;
    listing.listing_status = LISTING_STATUS.COMPLETED;
    listing.listing_status_reason = LISTING_STATUSES[LISTING_STATUS.COMPLETED]!;
    const originated = Math.min(listing.listing_end_date, listing.listing_start_date + rng.int(3, 13) * DAY);
    const loan = makeHistoricLoan(rng, listing, store.counters.loan++, originated, now, i);
    listing.loan_number = loan.loan_number;
    listing.loan_origination_date = originated;
    listing.last_updated_date = originated;
    addListing(store, listing);
    addLoan(store, loan);
    const holder = i % 5 === 0 ? 'alice-1' : i % 23 === 1 ? 'bob-1' : null;
    if (holder) {
      addNote(store, {
        note_number: `${loan.loan_number}-${store.counters.note++}`,
        accountId: holder, listingNumber: listing.listing_number, loanNumber: loan.loan_number,
        amount: rng.int(1, 4) * 25, orderId: null,
      });
    }
  }
  settleSomeDefaults(store);
}

/**
 * PaidInFull and SettledInFull are default reasons: they belong to loans that defaulted first. Every fourth
 * defaulted history loan (past the first few, which show each status) was later paid in full, and every
 * fourth after it settled; both end COMPLETED. Chosen by position, so the seed's random draws stay as they were.
 */
function settleSomeDefaults(store: Store): void {
  let k = 0;
  for (const loan of [...store.loans.values()].slice(HISTORY_STATUSES.length)) {
    if (loan.loan_status !== LOAN_STATUS.DEFAULTED && loan.loan_status !== LOAN_STATUS.CHARGEOFF) continue;
    k += 1;
    if (k % 4 !== 1 && k % 4 !== 3) continue;
    Object.assign(loan, {
      loan_status: LOAN_STATUS.COMPLETED, loan_default_reason: k % 4 === 1 ? 5 : 6, days_past_due: 0,
      principal_paid: loan.amount_borrowed, principal_balance: 0, next_payment_due_amount: 0,
    });
  }
}

/** A month of a seeded loan's schedule. */
const SEED_MONTH = 30.4375 * DAY;

/**
 * Days past due that agree with the loan's dates: a defaulted or charged-off loan counts them from its
 * next payment date, the oldest one unpaid; a current loan drawn late (`drawn` > 0) from the due date
 * before its next one, missed (none before the first is due). `drawn` is the seed's old draw, kept so
 * the random stream, and so the rest of the world, stays as it was.
 */
function daysPastDue(drawn: number, defaulted: boolean, made: number, nextDue: number, now: number): number {
  if (defaulted) return Math.max(0, Math.floor((now - nextDue) / DAY));
  if (drawn === 0 || made === 0) return 0;
  return Math.max(0, Math.floor((now - (nextDue - SEED_MONTH)) / DAY));
}

/** A loan with a history consistent with its status: payments made, balance, default reason. */
function makeHistoricLoan(rng: Rng, listing: Listing, number: number, originated: number, now: number, i: number): Loan {
  let status: number = i < HISTORY_STATUSES.length ? HISTORY_STATUSES[i]! : rng.chance(0.7) ? LOAN_STATUS.CURRENT : rng.pick(HISTORY_STATUSES);
  const monthsAged = Math.max(0, Math.floor((now - originated) / (30.4375 * DAY)));
  const principal = listing.listing_amount;
  const rate = listing.borrower_rate;
  const pay = listing.listing_monthly_payment;
  let made = Math.min(listing.listing_term, monthsAged);
  if (status === LOAN_STATUS.CHARGEOFF || status === LOAN_STATUS.DEFAULTED) made = Math.max(0, made - rng.int(4, 8));
  if (status === LOAN_STATUS.ORIGINATIONDELAYED || status === LOAN_STATUS.CANCELLED) made = 0;
  if (status === LOAN_STATUS.CURRENT && made >= listing.listing_term) status = LOAN_STATUS.COMPLETED;
  let balance = principal;
  let interest = 0;
  for (let m = 0; m < made && balance > 0; m++) {
    const int = cents((balance * rate) / 12);
    interest += int;
    balance = cents(Math.max(0, balance - (pay - int)));
  }
  const completed = status === LOAN_STATUS.COMPLETED;
  if (completed) balance = 0;
  if (status === LOAN_STATUS.CANCELLED) balance = 0;
  const defaulted = status === LOAN_STATUS.CHARGEOFF || status === LOAN_STATUS.DEFAULTED;
  // The next due date; an ended loan keeps the last one its schedule reached (paid off: its final payment; defaulted: the first one missed).
  const nextDue = Math.round(originated + Math.max(1, completed ? made : made + 1) * SEED_MONTH);
  return {
    loan_number: number,
    listingNumber: listing.listing_number,
    amount_borrowed: principal,
    borrower_rate: rate,
    term: listing.listing_term,
    platform_rating: listing.platform_rating,
    origination_date: originated,
    loan_status: status,
    // Completed on schedule is not a default: no reason (spec: null, not in default).
    loan_default_reason: defaulted ? rng.pick([1, 2, 3]) : null,
    days_past_due: daysPastDue(defaulted ? rng.int(121, 400) : status === LOAN_STATUS.CURRENT && rng.chance(0.1) ? rng.int(1, 29) : 0, defaulted, made, nextDue, now),
    principal_balance: balance,
    principal_paid: status === LOAN_STATUS.CANCELLED ? 0 : cents(principal - balance),
    interest_paid: cents(interest),
    late_fees_paid: made > 0 && rng.chance(0.15) ? 15 : 0,
    platform_fees_paid: 0,
    // 0 minus: a loan without interest pays +0 in fees, not -0 (which a column of cents cannot hold).
    service_fees_paid: 0 - cents(interest * 0.08),
    collection_fees_paid: defaulted ? cents(rng.range(0, 200)) : 0,
    debt_sale_proceeds_received: 0,
    next_payment_due_date: nextDue,
    next_payment_due_amount: status === LOAN_STATUS.CURRENT ? pay : 0,
    paymentsMade: made,
  };
}
