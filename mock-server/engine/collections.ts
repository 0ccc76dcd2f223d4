/**
 * Collections: a charged-off loan goes to a collection agency, which may collect part of what is owed over
 * the following months; its fee is a share of each amount it collects (no collection, no fee), and the rest
 * reaches the notes' holders through a posting like any payment (postings.ts: a CAP row of principal and its
 * collection fee). What an agency will collect is drawn once, at the charge-off, from a stream of the loan's
 * own (so nothing else of the world draws differently), and kept on the loan as its remaining payments
 * (`Loan.collections`); the seed makes a seeded charge-off's collections up to the seed time the same way.
 * The figures are the mock's choice (docs/fidelity.md "Collections"): about a tenth of charged-off principal
 * comes back gross, in line with what consumer lenders publish as recoveries.
 */
import { addMonths } from '../../src/contract/amortisation.js';
import { LOAN_STATUS } from '../../src/contract/enums.js';
import type { Loan, World } from '../world/world.js';
import { noCents } from './payment-log.js';
import { postLoanStep } from './postings.js';
import { rngFor } from './rng-for.js';

/** The agency's fee: this share of each amount it collects. */
export const COLLECTION_FEE_RATE = 0.3;
/** Salt of the stream a charge-off's collections are drawn from. */
const COLLECTION_SALT = 0xc011;
/** The chance an agency collects anything, by default reason: delinquency, bankruptcy (a repayment plan), death (the estate). */
const COLLECTS_BY_REASON: Readonly<Record<number, number>> = { 1: 0.3, 2: 0.15, 3: 0.1 };

/**
 * What an agency collects on a loan charged off at `at` (on the hour) owing `balance` (whole cents), for the
 * default `reason`: flat pairs [time, cents, time, cents, …], oldest first; none when it collects nothing. When it
 * collects, 15% to 55% of the balance, in one lump sum (three times in ten: a settlement) or 2 to 12 monthly
 * payments, the first one to three months after the charge-off.
 */
export function collectionPlan(seed: number, loanNumber: number, reason: number | null, at: number, balance: number): number[] {
  const rng = rngFor(seed, COLLECTION_SALT, loanNumber);
  if (balance <= 0 || !rng.chance(COLLECTS_BY_REASON[reason ?? 1] ?? COLLECTS_BY_REASON[1]!)) return [];
  const total = Math.max(1, Math.round(balance * rng.range(0.15, 0.55)));
  const payments = rng.chance(0.3) ? 1 : rng.int(2, 12);
  const first = rng.int(1, 3);
  const each = Math.floor(total / payments);
  const plan: number[] = [];
  for (let k = 0; k < payments; k++) {
    const cents = k === payments - 1 ? total - each * (payments - 1) : each;
    if (cents > 0) plan.push(addMonths(at, first + k), cents);
  }
  return plan;
}

/** The agency's fee on `collected` whole cents. */
export function collectionFee(collected: number): number {
  return Math.round(collected * COLLECTION_FEE_RATE);
}

/**
 * Sets a loan just charged off at `at` on its collections: its plan from the balance it was charged off at,
 * those due by `upTo` posted at once (the seed, for a charge-off before the seed time), the rest kept.
 */
export function startCollections(world: World, loan: Loan, at: number, upTo = at): void {
  const plan = collectionPlan(world.seed, loan.loan_number, loan.loan_default_reason, at, Math.round(loan.principal_balance * 100));
  loan.collections = plan.length > 0 ? plan : undefined;
  while (loan.collections && loan.collections[0]! <= upTo) collect(world, loan, loan.collections[0]!);
}

/**
 * The agency's next payment on a charged-off loan, due by `t`: its principal (never more than is owed) less the
 * agency's fee, posted at `t`; the loan then waits for the one after, or is done with collections.
 */
export function collect(world: World, loan: Loan, t: number): void {
  const plan = loan.collections;
  if (loan.loan_status !== LOAN_STATUS.CHARGEOFF || !plan || plan[0]! > t) return;
  const collected = Math.min(plan[1]!, Math.round(loan.principal_balance * 100));
  const rest = plan.slice(2);
  loan.collections = rest.length > 0 && collected < Math.round(loan.principal_balance * 100) ? rest : undefined;
  if (collected <= 0) return;
  const moved = { ...noCents(), principal: collected, collectionFees: collectionFee(collected) };
  postLoanStep(world, loan, { kind: 'collection', at: t, daysPastDue: loan.days_past_due, moved });
}
