/**
 * What the engine adds to the seeded world, without drawing from the main seed's random stream
 * (so every listing and loan the foundation seeds stays as it was): investors whose flags trigger
 * the order errors no base user can, listings with the special traits some ORD codes and bid
 * results need, the arrears of seeded loans late now, and the engine's starting state.
 */
import { LISTING_STATUS, LOAN_STATUS } from '../../src/contract/enums.js';
import { Rng } from '../kit/rng.js';
import type { Listing, World, User } from '../world/world.js';
import { LEDGER_KINDS, post } from '../engine/ledger.js';
import { rngFor } from '../engine/rng-for.js';
import { investorEmail } from '../engine/notifications.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Mixed into the seed for the accounts' funding histories. */
const FUNDING_SALT = 0xf0d5;

/** Extra investors and what each is for (DESIGN.md names alice…erin; these follow the alphabet). */
const EXTRA_USERS: ReadonlyArray<Omit<User, 'accountIds'> & { cash: number; ledgerFrozen?: boolean; registeredDaysAgo?: number }> = [
  {
    id: 'frank',
    name: 'Frank Fischer',
    state: 'IL',
    active: true,
    emailVerified: true,
    wholeLoanEligible: false,
    stateAllowsInvesting: true,
    agreementsSigned: false,
    cash: 5_000,
  },
  {
    id: 'gina',
    name: 'Gina Garcia',
    state: 'GA',
    active: true,
    emailVerified: true,
    wholeLoanEligible: false,
    stateAllowsInvesting: true,
    delinquent: true,
    cash: 5_000,
  },
  {
    id: 'hank',
    name: 'Hank Hughes',
    state: 'MA',
    active: true,
    emailVerified: false,
    wholeLoanEligible: false,
    stateAllowsInvesting: true,
    registeredDaysAgo: 1,
    cash: 5_000,
  },
  {
    id: 'ivy',
    name: 'Ivy Ito',
    state: 'KY',
    active: true,
    emailVerified: true,
    wholeLoanEligible: false,
    stateAllowsInvesting: true,
    suitabilityLimit: 2_500,
    cash: 20_000,
  },
  {
    id: 'kate',
    name: 'Kate Kim',
    state: 'NJ',
    active: true,
    emailVerified: true,
    wholeLoanEligible: true,
    stateAllowsInvesting: true,
    fractionalEligible: false,
    cash: 500_000,
  },
  {
    id: 'lena',
    name: 'Lena Lopez',
    state: 'CO',
    active: true,
    emailVerified: true,
    wholeLoanEligible: false,
    stateAllowsInvesting: true,
    ledgerFrozen: true,
    cash: 5_000,
  },
];

/** Special listings by role: the numbers a test or a script looks up in GET /__mock/state. */
export type SpecialRole = 'restricted' | 'not_started' | 'type_unset' | 'young_partial';
const ROLES: readonly SpecialRole[] = ['restricted', 'not_started', 'type_unset', 'young_partial'];

/** Adds the engine's part of the seed to a freshly seeded world. */
export function seedEngineExtras(world: World, now: number, activeListings: number, releases?: readonly number[] | 'steady'): void {
  const rng = new Rng((world.seed ^ 0x5eed_e4) >>> 0);
  for (const u of EXTRA_USERS) {
    const { cash, ledgerFrozen, registeredDaysAgo, ...user } = u;
    const id = `${u.id}-1`;
    world.accounts.set(id, { id, userId: u.id, externalUserId: rng.uuid(), cash: 0, ...(ledgerFrozen ? { ledgerFrozen } : {}) });
    seedFundingHistory(world, id, cash, now);
    const registeredAt = registeredDaysAgo === undefined ? undefined : now - registeredDaysAgo * DAY;
    world.users.set(u.id, {
      ...user,
      accountIds: [id],
      email: investorEmail(u.id),
      ...(registeredAt !== undefined ? { registeredAt } : {}),
    });
  }
  markSpecialListings(world, now);
  // A current history loan late now owes the instalment due before its next (seed-history.ts left it unpaid).
  for (const loan of world.loans.values()) {
    if (loan.loan_status === LOAN_STATUS.CURRENT && loan.days_past_due > 0) {
      loan.missedPayments = 1;
      loan.oldestMissedDue = now - loan.days_past_due * DAY;
    }
  }
  world.engine = {
    lastTick: Math.floor(now / HOUR) * HOUR,
    arrivalsPerHour: activeListings / (14 * 24),
    queue: [],
    ...(releases && releases !== 'steady' ? { releases: [...releases] } : {}),
  };
}

/**
 * Funds a new account (cash 0) with a year of history that leaves it `cash`: a first deposit, a withdrawal
 * some weeks later, then one or two more deposits, the last a day or more before `now`. So the account's
 * last deposit and last withdrawal (GET /accounts/platform) are real ledger entries. Amounts are whole
 * dollars; the draws come from a stream of the account's own, so the rest of the seed is unchanged.
 */
export function seedFundingHistory(world: World, accountId: string, cash: number, now: number): void {
  const rng = rngFor(world.seed, FUNDING_SALT, ...[...accountId].map((c) => c.charCodeAt(0)));
  const withdrawal = Math.max(25, Math.round(cash * rng.range(0.05, 0.25)));
  const later = Array.from({ length: rng.int(1, 2) }, () => Math.floor((cash + withdrawal) * rng.range(0.1, 0.3)));
  const first = cash + withdrawal - later.reduce((s, x) => s + x, 0);
  let at = now - rng.int(300, 360) * DAY - rng.int(0, 86_399) * 1000;
  post(world, accountId, first, LEDGER_KINDS.DEPOSIT, null, at);
  at += rng.int(20, 60) * DAY;
  post(world, accountId, -withdrawal, LEDGER_KINDS.WITHDRAWAL, null, at);
  const step = Math.floor((now - DAY - at) / (later.length + 1));
  for (const amount of later) post(world, accountId, amount, LEDGER_KINDS.DEPOSIT, null, (at += step));
}

/** The listing that plays `role` in this world, if the world is big enough to have one. */
export function specialListing(world: World, role: SpecialRole): Listing | undefined {
  switch (role) {
    case 'restricted':
      return world.listings.find((l) => l.authorizedUsers && l.authorizedUsers.length > 0);
    case 'type_unset':
      return world.listings.find((l) => l.investmentTypeUnset);
    case 'not_started':
    case 'young_partial':
      return world.listings.find((l) => l.mockRole === role);
  }
}

function markSpecialListings(world: World, now: number): void {
  const candidates = world.listings.filter(
    (l) =>
      l.listing_status === LISTING_STATUS.ACTIVE && l.investment_typeid === 1 && l.borrowerUserId === null && l.listing_number % 17 !== 3,
  );
  // From the middle of the numbering: listings about a week old with a week to run (the seed creates them in numbering
  // order, so the last ones are minutes old, not yet started, and the first end within a day).
  const first = Math.max(0, Math.min(candidates.length >> 1, candidates.length - ROLES.length));
  ROLES.forEach((role, i) => {
    const l = candidates[first + i];
    if (!l) return;
    l.mockRole = role;
    if (role === 'restricted') l.authorizedUsers = ['alice'];
    if (role === 'type_unset') l.investmentTypeUnset = true;
    if (role === 'not_started' || role === 'young_partial') {
      const created = role === 'not_started' ? now - 10 * 60_000 : now - 2 * HOUR;
      const start = role === 'not_started' ? now + 50 * 60_000 : now - 90 * 60_000;
      Object.assign(l, {
        listing_creation_date: created,
        listing_start_date: start,
        listing_end_date: start + 14 * DAY,
        last_updated_date: Math.min(now, start),
        amount_funded: 0,
        amount_remaining: l.listing_amount,
        percent_funded: 0,
        verification_stage: 1,
        partial_funding_indicator: true,
      });
    }
  });
}
