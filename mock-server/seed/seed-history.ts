/**
 * The seeded history made through the engine's own postings (postings.ts): each history loan starts at its
 * origination owing its amount, and its payments, its late payment, its charge-off and what a collection
 * agency collected by the seed time are posted one by one at their dates, as servicing posts them. So a
 * seeded loan's figures, its payment rows, its notes and its holders' cash are one set of amounts, and a
 * seeded world passes the same checker as a serviced one (invariants.ts). What the history is (status,
 * payments made, default reason, a late payment) is what the seed drew (seed.ts `makeHistoricLoan`); where it
 * falls (which payment was late) and what collections brought are drawn from streams of the loan's own, so the
 * seed's main stream, and the rest of the world, stay as they were.
 *
 * A holder's money: its seeded notes were bought with a deposit made for them before the first one (the seed
 * keeps no orders for them: each purchase is a NOTE_PURCHASE posting), and what they paid it by the seed time
 * it withdrew after their last payment (`sweepSeededIncome`), so its cash is the one the seed gives it.
 */
import { LOAN_STATUS } from '../../src/contract/enums.js';
import type { Loan, Note, World } from '../world/world.js';
import { notesOfLoan } from '../world/world-index.js';
import { startCollections } from '../engine/collections.js';
import { LEDGER_KINDS, post } from '../engine/ledger.js';
import { noCents, PAID_FIGURES } from '../engine/payment-log.js';
import { moveFigures, postLoanStep } from '../engine/postings.js';
import { rngFor } from '../engine/rng-for.js';
import { installment, payInstalments } from '../engine/servicing.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A month of a seeded loan's schedule: its due dates fall this far apart from its origination. */
export const SEED_MONTH = 30.4375 * DAY;
/** Salt of the draw that picks which payment of a seeded loan was late. */
const LATE_SALT = 0x1a7e;

/** What the seed drew for a history loan, beyond its record: enough to post its history. */
export interface HistoryPlan {
  loan: Loan;
  /** Instalments the loan had paid by the seed time (a current loan late now: the last of them is still owed). */
  made: number;
  /** One payment was missed and caught up with the next, with its late fee (the seed's 15% draw). */
  lateOnce: boolean;
  /** The status drawn before a default was settled (`settleSomeDefaults`): DEFAULTED or CHARGEOFF, else the loan's own. */
  drawn: number;
}

/** The time of a seeded loan's `m`-th due date (from 0), on the hour as the engine's ticks are. */
const dueAt = (loan: Loan, m: number): number => Math.floor((loan.origination_date + (m + 1) * SEED_MONTH) / HOUR) * HOUR;
const onHour = (ms: number): number => Math.floor(ms / HOUR) * HOUR;
const daysBetween = (from: number, to: number): number => Math.max(0, Math.floor((to - from) / DAY));

/** Posts every history loan's history, oldest loan first, its holders' purchases first; `now` is the seed time. */
export function postSeededHistory(world: World, plans: readonly HistoryPlan[], now: number): void {
  fundPurchases(world, plans);
  for (const plan of plans) {
    const notes = notesOfLoan(world, plan.loan.loan_number);
    for (const n of notes) buy(world, plan.loan, n);
    postPayments(world, plan);
    postEnding(world, plan, now);
  }
}

/** One deposit per holder, at its first purchase, of what its seeded notes cost. */
function fundPurchases(world: World, plans: readonly HistoryPlan[]): void {
  const funding = new Map<string, { at: number; cents: number }>();
  for (const { loan } of plans) {
    for (const n of notesOfLoan(world, loan.loan_number)) {
      const f = funding.get(n.accountId) ?? { at: loan.origination_date, cents: 0 };
      f.cents += Math.round(n.amount * 100);
      funding.set(n.accountId, f);
    }
  }
  for (const [accountId, f] of funding) post(world, accountId, f.cents / 100, LEDGER_KINDS.DEPOSIT, null, f.at);
}

/** A note bought at its loan's origination; on a cancelled loan its money came back at once and it holds nothing. */
function buy(world: World, loan: Loan, n: Note): void {
  post(world, n.accountId, -n.amount, LEDGER_KINDS.NOTE_PURCHASE, n.note_number, loan.origination_date);
  const cancelled = loan.loan_status === LOAN_STATUS.CANCELLED;
  if (cancelled) post(world, n.accountId, n.amount, LEDGER_KINDS.BID_REFUND, n.note_number, loan.origination_date);
  n.principal = cancelled ? 0 : n.amount;
  n.initialPrincipal = 0;
  n.chargedOff = 0;
}

/**
 * The loan's instalments, one posting each at its due date; the late one (if any) missed and paid with the
 * next, with the late and failed-payment fees, as servicing catches up; a loan completed early pays its
 * balance off with its last.
 */
function postPayments(world: World, plan: HistoryPlan): void {
  const loan = plan.loan;
  const completed = plan.drawn === LOAN_STATUS.COMPLETED;
  // A loan the seed made completed after no payment paid off at its first due date.
  const paid = completed ? Math.max(1, plan.made) : plan.made;
  const late = plan.lateOnce && paid >= 2 ? rngFor(world.seed, LATE_SALT, loan.loan_number).int(0, paid - 2) : -1;
  let balance = loan.principal_balance;
  const level = installment(loan);
  // A loan no account holds a note in keeps no log (postings.ts): its instalments add up to one move of its figures.
  const unheld = notesOfLoan(world, loan.loan_number).length === 0 ? noCents() : null;
  let made = loan.paymentsMade;
  for (let m = 0; m < paid && balance > 0; m++) {
    if (m === late) continue;
    const catchUp = m === late + 1 && late >= 0;
    const step = payInstalments(loan, balance, made, catchUp ? 2 : 1, catchUp ? 1 : 0, completed && m === paid - 1, level);
    balance = step.balance;
    if (unheld) {
      for (const f of PAID_FIGURES) unheld[f] += step.moved[f];
      made = step.made;
      continue;
    }
    const at = dueAt(loan, m);
    const dpd = catchUp ? daysBetween(dueAt(loan, late), at) : 0;
    loan.paymentsMade = step.made;
    postLoanStep(world, loan, { kind: 'payment', at, daysPastDue: dpd, moved: step.moved }, made);
    made = step.made;
  }
  if (unheld) {
    loan.paymentsMade = made;
    moveFigures(loan, unheld);
  }
}

/**
 * How a defaulted loan's history ended by the seed time. A charge-off at 121 days past its first missed due
 * date (a bankruptcy or death: 30 days after it), never after the seed time, then what the agency collected by
 * then (the rest of its collections are left to servicing). A default later paid in full or settled: the
 * balance, a month's interest and the late fees, 100 days past the due date missed.
 */
function postEnding(world: World, plan: HistoryPlan, now: number): void {
  const loan = plan.loan;
  const missed = loan.next_payment_due_date;
  const settled = loan.loan_status === LOAN_STATUS.COMPLETED && plan.drawn !== LOAN_STATUS.COMPLETED;
  if (settled) {
    const at = Math.max(onHour(Math.min(missed + 100 * DAY, now)), loan.origination_date);
    const made = loan.paymentsMade;
    const step = payInstalments(loan, loan.principal_balance, made, 1, 1, true);
    loan.paymentsMade = step.made;
    postLoanStep(world, loan, { kind: 'payment', at, daysPastDue: daysBetween(missed, at), moved: step.moved }, made);
    return;
  }
  if (loan.loan_status !== LOAN_STATUS.CHARGEOFF) return;
  const at = Math.max(onHour(Math.min(missed + (loan.loan_default_reason === 1 ? 121 : 30) * DAY, now)), loan.origination_date);
  // Days past due as they stood at each step; the loan keeps the figure the seed drew for the seed time.
  const drawn = loan.days_past_due;
  loan.days_past_due = daysBetween(missed, at);
  postLoanStep(world, loan, { kind: 'chargeoff', at, daysPastDue: loan.days_past_due, moved: noCents() });
  startCollections(world, loan, at, now);
  loan.days_past_due = drawn;
}

/**
 * Takes out of each seeded holder's account what its seeded notes paid it (its cash above `cashBefore`, what
 * it held before them), the day after their last posting or its last entry, never after `now`: its cash is
 * then the one the seed gives it, and no later than the withdrawal its ledger shows last.
 */
export function sweepSeededIncome(world: World, accountId: string, cashBefore: number, now: number): void {
  const account = world.accounts.get(accountId)!;
  const income = Math.round((account.cash - cashBefore) * 100);
  if (income <= 0) return;
  let last = 0;
  for (const e of world.ledger) if (e.accountId === accountId) last = Math.max(last, e.at);
  post(world, accountId, -income / 100, LEDGER_KINDS.WITHDRAWAL, null, Math.min(now, last + DAY));
}
