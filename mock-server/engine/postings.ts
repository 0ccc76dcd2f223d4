/**
 * The one posting of a loan's money: a payment, a charge-off, or what a collection agency collects on a
 * charged-off loan. A posting moves the loan's figures, logs the step (payment-log.ts: what GET /loans/payments
 * shows), splits it over the loan's holders once (`splitStep`) and writes each note's principal and each
 * holder's cash from that split. A payment row is the same split of the same logged step (payment-view.ts
 * replays the log through `splitStep`), and a note's figures are the split of the loan's figures, which the
 * steps add up to (note-view.ts). So cash, rows and notes are one set of amounts, computed once per step.
 */
import { LOAN_STATUS } from '../../src/contract/enums.js';
import type { Loan, Note, World } from '../world/world.js';
import { notesOfLoan } from '../world/world-index.js';
import { LEDGER_KINDS, post } from './ledger.js';
import { apportionCents, holderWeights } from './note-shares.js';
import { logStep, noCents, PAID_FIGURES, paidSoFar, type LoggedKind, type PaidCents } from './payment-log.js';

/** One step of a loan: what it is, when, the days past due it found, and the whole-loan cents of each figure it moves. */
export interface LoanStep {
  kind: LoggedKind;
  at: number;
  daysPastDue: number;
  moved: PaidCents;
}

/**
 * Splits one step over a loan's holders (`weights`: holderWeights, the notes' then the other investors'):
 * each figure but the principal as the step of its largest-remainder share, share(figure after) − share(figure
 * before), so a note's steps add up to its share of the figure at any time; the principal as what each note
 * held less its share of the new balance, never below nothing (a note's principal then falls exactly to its
 * share of the balance, as GET /notes shows it, and two splits rounded on their own cannot hand a tied cent to
 * different notes). `held` (each note's principal before the step, whole cents) is brought to after it; `balances`
 * are every holder's share of the new balance.
 */
export function splitStep(
  weights: readonly number[],
  before: PaidCents,
  after: PaidCents,
  balanceAfter: number,
  held: number[],
): { parts: PaidCents[]; balances: number[] } {
  const parts = held.map(noCents);
  for (const f of PAID_FIGURES) {
    // A figure the step did not move keeps its split (most steps move three of the six).
    if (f === 'principal' || before[f] === after[f]) continue;
    const [was, is] = [apportionCents(before[f], weights), apportionCents(after[f], weights)];
    parts.forEach((p, i) => (p[f] = is[i]! - was[i]!));
  }
  const balances = apportionCents(balanceAfter, weights);
  parts.forEach((p, i) => {
    const fall = Math.max(0, held[i]! - balances[i]!);
    held[i] = held[i]! - fall;
    p.principal = fall;
  });
  return { parts, balances };
}

const toCents = (x: number): number => Math.round(x * 100);
const add = (dollars: number, cents: number): number => (toCents(dollars) + cents) / 100;

/** The loan's figures moved by `m` (the service fee counts down on the loan: `service_fees_paid` is negative). */
export function moveFigures(loan: Loan, m: PaidCents): void {
  if (m.principal !== 0) {
    loan.principal_paid = add(loan.principal_paid, m.principal);
    loan.principal_balance = add(loan.principal_balance, -m.principal);
  }
  if (m.interest !== 0) loan.interest_paid = add(loan.interest_paid, m.interest);
  if (m.lateFees !== 0) loan.late_fees_paid = add(loan.late_fees_paid, m.lateFees);
  if (m.serviceFees !== 0) loan.service_fees_paid = add(loan.service_fees_paid, -m.serviceFees);
  if (m.platformFees !== 0) loan.platform_fees_paid = add(loan.platform_fees_paid, m.platformFees);
  if (m.collectionFees !== 0) loan.collection_fees_paid = add(loan.collection_fees_paid, m.collectionFees);
}

/**
 * What a note holds that a step can pay down, whole cents: its principal; after its loan's charge-off, what
 * was written off and not yet collected (a collection pays that down).
 */
function heldBy(n: Note, kind: LoggedKind): number {
  return toCents(kind === 'collection' ? (n.chargedOff ?? 0) : (n.principal ?? 0));
}

/**
 * Posts one step of `loan`: its figures, its log entry, and each holder's share through the ledger, credits
 * first (a note's share of a fee is never posted before the money it comes out of). `paymentsBefore`: the
 * payments the loan had made before the step (kept by the log's first entry). A charge-off moves no money: it
 * writes each note's principal off (`chargedOff`), and a collection then pays that down.
 */
export function postLoanStep(world: World, loan: Loan, step: LoanStep, paymentsBefore = loan.paymentsMade): void {
  const notes = notesOfLoan(world, loan.loan_number);
  if (notes.length === 0) {
    // A loan no account holds a note in (notes come only at origination) shows its payments to nobody: its
    // figures move, and no log is kept (three quarters of the seeded history's, and most of a busy market's).
    moveFigures(loan, step.moved);
    return;
  }
  const before = paidSoFar(loan);
  moveFigures(loan, step.moved);
  logStep(loan, step.kind, step.at, step.daysPastDue, step.moved, paymentsBefore);
  // The figures after the step: what moveFigures wrote, to the cent (each figure moved by whole cents).
  const after = { ...before };
  for (const f of PAID_FIGURES) after[f] += step.moved[f];
  const held = notes.map((n) => heldBy(n, step.kind));
  const { parts } = splitStep(holderWeights(loan.amount_borrowed, notes).map(Number), before, after, toCents(loan.principal_balance), held);
  notes.forEach((n, i) => {
    const part = parts[i]!;
    const left = held[i]! / 100;
    if (step.kind === 'collection') n.chargedOff = left;
    else n.principal = left;
    const ref = `${loan.loan_number}:${n.note_number}`;
    const entries: [number, string][] = [
      [part.principal, LEDGER_KINDS.PRINCIPAL],
      [part.interest, LEDGER_KINDS.INTEREST],
      [part.lateFees, LEDGER_KINDS.LATE_FEE],
      [-part.serviceFees, LEDGER_KINDS.SERVICE_FEE],
      [-part.collectionFees, LEDGER_KINDS.COLLECTION_FEE],
    ];
    for (const [amount, kind] of entries) if (amount > 0) post(world, n.accountId, amount / 100, kind, ref, step.at);
    for (const [amount, kind] of entries) if (amount < 0) post(world, n.accountId, amount / 100, kind, ref, step.at);
  });
  if (step.kind === 'chargeoff') writeOff(loan, notes);
}

/** A charge-off's effect on its notes: what each held is written off (nothing more is owed on it to the note). */
function writeOff(loan: Loan, notes: readonly Note[]): void {
  if (loan.loan_status !== LOAN_STATUS.CHARGEOFF)
    throw new Error(`postings: loan ${loan.loan_number} is charged off only once its status says so`);
  for (const n of notes) {
    n.chargedOff = Math.round(((n.chargedOff ?? 0) + (n.principal ?? 0)) * 100) / 100;
    n.principal = 0;
  }
}
