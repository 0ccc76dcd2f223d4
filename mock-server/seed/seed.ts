/**
 * The deterministic seed: the same seed and start time always build the same world. Active listings
 * of every rating, term, category, state and funding level; a history of originated loans in every
 * status; the fixed investor users, the demo OAuth client and the partner codes of DESIGN.md.
 */
import { INVESTMENT_TYPES, LISTING_STATUS, LISTING_STATUSES, LOAN_STATUS } from '../../src/contract/enums.js';
import { investorEmail } from '../engine/notifications.js';
import { seedEngineExtras, seedFundingHistory } from './seed-extras.js';
import { postSeededHistory, SEED_MONTH, sweepSeededIncome, type HistoryPlan } from './seed-history.js';
import { Rng } from '../kit/rng.js';
import { makeListing } from '../engine/listing-maker.js';
import { reserveListingRows } from '../world/listing-table.js';
import { prepareRowObjects } from '../world/row-code.js';
import { reserveLoanRows } from '../world/loan-table.js';
import { addNote } from '../world/world-index.js';
import type { ExistingBorrower } from '../world/world.js';
import type { SeedOptions } from '../world/recipe.js';
import { addListing, addLoan, emptyWorld, type Account, type Listing, type Loan, type World, type User } from '../world/world.js';
import { DEMO_CLIENT } from '../../src/contract/demo-client.js';

const DAY = 86_400_000;
const HISTORY_START = Date.parse('2015-06-01T00:00:00Z');

/** First listing number handed out to active listings; history numbers sit below it. */
export const FIRST_ACTIVE_LISTING = 10_000_000;

/** The fixed investor users of DESIGN.md; each is registered for notifications (investorEmail). */
const USERS: ReadonlyArray<Omit<User, 'accountIds'> & { cash: number[] }> = [
  {
    id: 'alice',
    name: 'Alice Archer',
    state: 'CA',
    active: true,
    emailVerified: true,
    wholeLoanEligible: true,
    stateAllowsInvesting: true,
    cash: [250_000, 10_000],
  },
  {
    id: 'bob',
    name: 'Bob Baker',
    state: 'NY',
    active: true,
    emailVerified: true,
    wholeLoanEligible: false,
    stateAllowsInvesting: true,
    cash: [40],
  },
  {
    id: 'carol',
    name: 'Carol Chen',
    state: 'OH',
    active: true,
    emailVerified: true,
    wholeLoanEligible: false,
    stateAllowsInvesting: false,
    cash: [5_000],
  },
  {
    id: 'dave',
    name: 'Dave Diaz',
    state: 'TX',
    active: true,
    emailVerified: true,
    wholeLoanEligible: false,
    stateAllowsInvesting: true,
    cash: [5_000],
  },
  {
    id: 'erin',
    name: 'Erin Evans',
    state: 'WA',
    active: false,
    emailVerified: true,
    wholeLoanEligible: false,
    stateAllowsInvesting: true,
    cash: [1_000],
  },
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

/** How far back the seeded active listings were created: up to 13.5 days, so the oldest still has half a day to run. */
const SEEDED_AGES_MS = 13.5 * DAY;

/**
 * How long before the seed time active listing `i` of `count` was created: in numbering order, as the marketplace
 * numbers listings as they are created (and the mock's arrivals are: arrivals.ts), so a higher number is never older
 * (the special listings of seed-extras.ts aside: their dates are their own). Listing `i` draws its age within the i-th
 * of `count` equal slices of SEEDED_AGES_MS, counted back from the oldest: one draw, as the age drawn anywhere in the
 * span took, so every draw after it is the one it was. In numbering order the listings that end in one hour are
 * neighbours in the world's columns: a clock move at a million listings visits ~3,000 neighbouring rows a tick, not
 * ~3,000 rows scattered across the table (a quarter of the move went to reading them from memory).
 */
function seededAge(rng: Rng, i: number, count: number): number {
  return ((count - 1 - i + rng.range(0, 1)) / count) * SEEDED_AGES_MS;
}

/** The first active fractional listing at or after row `from`. */
function ownListingFrom(listings: readonly Listing[], from: number): Listing | undefined {
  for (let i = from; i < listings.length; i++) {
    const l = listings[i]!;
    if (l.listing_status === LISTING_STATUS.ACTIVE && l.investment_typeid === 1) return l;
  }
  return undefined;
}

/** Builds the whole world for `opts`. */
export function seedWorld(opts: SeedOptions): World {
  const rng = new Rng(opts.seed);
  const world = emptyWorld(opts.seed);
  seedUsers(world, rng);
  world.clients.set(DEMO_CLIENT.clientId, { ...DEMO_CLIENT });
  world.partnerCodes.set(PARTNER_CODES.valid, { code: PARTNER_CODES.valid, expired: false });
  world.partnerCodes.set(PARTNER_CODES.expired, { code: PARTNER_CODES.expired, expired: true });
  world.existingBorrowers = EXISTING_BORROWERS.map((b) => ({ ...b }));

  const historyCount = opts.history === 'none' ? 0 : Math.min(2000, Math.max(100, Math.round(opts.listings / 4)));
  world.counters = { listing: FIRST_ACTIVE_LISTING - historyCount, loan: 500_000, note: 900_000 };
  reserveListingRows(world.listingTable, historyCount + opts.listings);
  // A 15-day clock move originates about three loans for every four listings the world holds.
  reserveLoanRows(world.loanTable, historyCount + opts.listings);
  seedHistory(world, rng, historyCount, opts.now);
  fundUsers(world, opts.now);

  world.counters.listing = FIRST_ACTIVE_LISTING;
  prepareRowObjects(world.listingTable, world.listingTable.size + opts.listings);
  const scratch = {} as Listing;
  for (let i = 0; i < opts.listings; i++) {
    const created = opts.now - Math.floor(seededAge(rng, i, opts.listings));
    addListing(world, makeListing(rng, world.counters.listing++, created, opts.now, i, scratch));
  }
  // Dave's own listing: the first active fractional one from the middle of the numbering on (a week old, a week to run;
  // the first listings end within a day), as the special listings are picked (seed-extras.ts).
  const own = ownListingFrom(world.listings, world.listings.length >> 1) ?? ownListingFrom(world.listings, 0);
  if (own) own.borrowerUserId = 'dave';
  seedEngineExtras(world, opts.now, opts.listings, opts.releases);
  if (opts.investor) seedInvestor(world, opts.investor, opts.seed, opts.now);
  return world;
}

/** Adds a fresh investor with account `{id}-1` holding `cash`, drawn from its own stream so the world stays as seeded. */
function seedInvestor(world: World, investor: { id: string; cash: number }, seed: number, now: number): void {
  if (world.users.has(investor.id)) throw new Error(`seed: the investor '${investor.id}' already exists`);
  const account: Account = {
    id: `${investor.id}-1`,
    userId: investor.id,
    externalUserId: new Rng(seed ^ 0x5eed1e).uuid(),
    cash: investor.cash,
  };
  world.accounts.set(account.id, account);
  world.ledger.push({ at: now, accountId: account.id, amount: investor.cash, kind: 'DEPOSIT', ref: null });
  world.users.set(investor.id, {
    id: investor.id,
    name: investor.id,
    state: 'CA',
    active: true,
    emailVerified: true,
    wholeLoanEligible: false,
    stateAllowsInvesting: true,
    accountIds: [account.id],
  });
}

/** The fixed users and their accounts, empty: their money comes with `fundUsers`, after the history their notes had. */
function seedUsers(world: World, rng: Rng): void {
  for (const u of USERS) {
    const accountIds: string[] = [];
    u.cash.forEach((_, i) => {
      const account: Account = { id: `${u.id}-${i + 1}`, userId: u.id, externalUserId: rng.uuid(), cash: 0 };
      world.accounts.set(account.id, account);
      accountIds.push(account.id);
    });
    const { cash: _cash, ...user } = u;
    world.users.set(u.id, { ...user, accountIds, email: investorEmail(u.id) });
  }
}

/**
 * Each fixed account's last year of deposits and a withdrawal, leaving it its cash; an account that held seeded
 * notes then withdraws what they paid it (seed-history.ts), so it keeps that cash. Posted after the history, in
 * the order of their times.
 */
function fundUsers(world: World, now: number): void {
  for (const u of USERS) {
    u.cash.forEach((cash, i) => {
      const id = `${u.id}-${i + 1}`;
      seedFundingHistory(world, id, cash, now);
      sweepSeededIncome(world, id, cash, now);
    });
  }
}

const HISTORY_STATUSES = [
  LOAN_STATUS.CURRENT,
  LOAN_STATUS.COMPLETED,
  LOAN_STATUS.CHARGEOFF,
  LOAN_STATUS.DEFAULTED,
  LOAN_STATUS.ORIGINATIONDELAYED,
  LOAN_STATUS.CANCELLED,
] as const;

/**
 * Originated listings with their loans, spread from mid-2015 to a month ago; alice and bob hold notes in some.
 * Each loan's history is then posted as servicing posts it (seed-history.ts), from what was drawn for it here.
 */
function seedHistory(world: World, rng: Rng, count: number, now: number): void {
  const end = now - 30 * DAY;
  const scratch = {} as Listing;
  const plans: HistoryPlan[] = [];
  for (let i = 0; i < count; i++) {
    const created = HISTORY_START + Math.floor(((end - HISTORY_START) * i) / count) + rng.int(0, DAY);
    const listing = makeListing(rng, world.counters.listing++, created, now, i, scratch);
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
    const drawn = makeHistoricLoan(rng, listing, world.counters.loan++, originated, now, i);
    listing.loan_number = drawn.loan.loan_number;
    listing.loan_origination_date = originated;
    listing.last_updated_date = originated;
    addListing(world, listing);
    const loan = addLoan(world, drawn.loan);
    plans.push({ ...drawn, loan });
    const holder = i % 5 === 0 ? 'alice-1' : i % 23 === 1 ? 'bob-1' : null;
    if (holder) {
      addNote(world, {
        note_number: `${loan.loan_number}-${world.counters.note++}`,
        accountId: holder,
        listingNumber: listing.listing_number,
        loanNumber: loan.loan_number,
        amount: rng.int(1, 4) * 25,
        orderId: null,
      });
    }
  }
  settleSomeDefaults(world);
  postSeededHistory(world, plans, now);
}

/**
 * PaidInFull and SettledInFull are default reasons: they belong to loans that defaulted first. Every fourth
 * defaulted history loan (past the first few, which show each status) was later paid in full, and every
 * fourth after it settled; both end COMPLETED (their history: seed-history.ts). Chosen by position, so the
 * seed's random draws stay as they were.
 */
function settleSomeDefaults(world: World): void {
  let k = 0;
  for (const loan of [...world.loans.values()].slice(HISTORY_STATUSES.length)) {
    if (loan.loan_status !== LOAN_STATUS.DEFAULTED && loan.loan_status !== LOAN_STATUS.CHARGEOFF) continue;
    k += 1;
    if (k % 4 !== 1 && k % 4 !== 3) continue;
    Object.assign(loan, {
      loan_status: LOAN_STATUS.COMPLETED,
      loan_default_reason: k % 4 === 1 ? 5 : 6,
      days_past_due: 0,
      next_payment_due_amount: 0,
    });
  }
}

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

/**
 * A loan as the seed draws it: its status, the payments it had made, its default reason, days past due and
 * whether one payment was late, owing its whole amount (its history is posted later: seed-history.ts).
 */
function makeHistoricLoan(
  rng: Rng,
  listing: Listing,
  number: number,
  originated: number,
  now: number,
  i: number,
): Omit<HistoryPlan, 'loan'> & { loan: Loan } {
  let status: number =
    i < HISTORY_STATUSES.length ? HISTORY_STATUSES[i]! : rng.chance(0.7) ? LOAN_STATUS.CURRENT : rng.pick(HISTORY_STATUSES);
  const monthsAged = Math.max(0, Math.floor((now - originated) / SEED_MONTH));
  const principal = listing.listing_amount;
  let made = Math.min(listing.listing_term, monthsAged);
  if (status === LOAN_STATUS.CHARGEOFF || status === LOAN_STATUS.DEFAULTED) made = Math.max(0, made - rng.int(4, 8));
  if (status === LOAN_STATUS.ORIGINATIONDELAYED || status === LOAN_STATUS.CANCELLED) made = 0;
  if (status === LOAN_STATUS.CURRENT && made >= listing.listing_term) status = LOAN_STATUS.COMPLETED;
  const completed = status === LOAN_STATUS.COMPLETED;
  const defaulted = status === LOAN_STATUS.CHARGEOFF || status === LOAN_STATUS.DEFAULTED;
  // The next due date; an ended loan keeps the last one its schedule reached (paid off: its final payment; defaulted: the first one missed).
  const nextDue = Math.round(originated + Math.max(1, completed ? made : made + 1) * SEED_MONTH);
  // The draws in the order the seed has always made them, so the stream (and the rest of the world) stays as it was.
  let reason: number | null = defaulted ? rng.pick([1, 2, 3]) : null;
  let dpd = daysPastDue(
    defaulted ? rng.int(121, 400) : status === LOAN_STATUS.CURRENT && rng.chance(0.1) ? rng.int(1, 29) : 0,
    defaulted,
    made,
    nextDue,
    now,
  );
  const lateOnce = made > 0 && rng.chance(0.15);
  // The old seed's collection fee, drawn and set aside: collections now come from what an agency collects (collections.ts).
  if (defaulted) rng.next();
  // A loan not yet a month old has missed no payment, so it cannot have defaulted: drawn so, it is current (set
  // after its draws, so the stream stays as it was). Seen once issue 41's terms moved the stream (seed 2, loan 500499).
  if (defaulted && nextDue > now) [status, reason, dpd] = [LOAN_STATUS.CURRENT, null, 0];
  const loan: Loan = {
    loan_number: number,
    listingNumber: listing.listing_number,
    amount_borrowed: principal,
    borrower_rate: listing.borrower_rate,
    term: listing.listing_term,
    platform_rating: listing.platform_rating,
    origination_date: originated,
    loan_status: status,
    // Completed on schedule is not a default: no reason (spec: null, not in default).
    loan_default_reason: reason,
    days_past_due: dpd,
    // A cancelled loan owes nothing; any other owes its amount until its payments are posted.
    principal_balance: status === LOAN_STATUS.CANCELLED ? 0 : principal,
    principal_paid: 0,
    interest_paid: 0,
    late_fees_paid: 0,
    platform_fees_paid: 0,
    service_fees_paid: 0,
    collection_fees_paid: 0,
    debt_sale_proceeds_received: 0,
    next_payment_due_date: nextDue,
    next_payment_due_amount: status === LOAN_STATUS.CURRENT ? listing.listing_monthly_payment : 0,
    paymentsMade: 0,
  };
  // A current loan late now has not paid the instalment due before its next: servicing catches it up.
  return { loan, made: status === LOAN_STATUS.CURRENT && dpd > 0 ? made - 1 : made, lateOnce, drawn: status };
}
