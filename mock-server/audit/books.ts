/**
 * The books, checked from the outside in: what each account's cash must be, from the money it paid in and took
 * out, the bids it placed and had refunded, and its notes' payment rows as GET /loans/payments answers them;
 * and for every note, that its rows add up to its figures as GET /notes answers them, to what its account was
 * posted for it, and to the principal it still holds. Every figure in whole cents, compared exactly. A posting
 * that moved cash one way and wrote a row or a note another (a fee posted and not shown, or shown and not
 * posted) is found here; `checkInvariants` reports what this finds.
 */
import type { NoteAnswerFields } from '../../src/contract/resources.js';
import type { Loan, Note, World } from '../world/world.js';
import { notesOfLoan } from '../world/world-index.js';
import { LEDGER_KINDS, NOTE_KINDS } from '../engine/ledger.js';
import { noteViews } from '../views/note-view.js';
import { loggedSteps, PAID_FIGURES, paidSoFar, paymentsBeforeLog, type PaidCents, type PaidFigure } from '../engine/payment-log.js';
import { loanRows } from '../views/payment-view.js';
import { LOAN_STATUS } from '../../src/contract/enums.js';

/** The ledger kinds of money an account moved itself, or had moved for its bids: the rest are its notes' postings. */
const ACCOUNT_KINDS: ReadonlySet<string> = new Set([
  LEDGER_KINDS.DEPOSIT,
  LEDGER_KINDS.WITHDRAWAL,
  LEDGER_KINDS.ORDER_DEBIT,
  LEDGER_KINDS.NOTE_PURCHASE,
  LEDGER_KINDS.BID_REFUND,
]);

/** Each row figure and the note field its rows add up to; the service fee counts up on a row and down on the note. */
const NOTE_FIGURES: ReadonlyArray<[PaidFigure, keyof NoteAnswerFields, 1 | -1]> = [
  ['principal', 'principal_paid_pro_rata_share', 1],
  ['interest', 'interest_paid_pro_rata_share', 1],
  ['lateFees', 'late_fees_paid_pro_rata_share', 1],
  ['serviceFees', 'service_fees_paid_pro_rata_share', -1],
  ['platformFees', 'platform_fees_paid_pro_rata_share', 1],
  ['collectionFees', 'collection_fees_paid_pro_rata_share', 1],
];

const wholeCents = (x: number): number => Math.round(x * 100);
const text = (c: number): string => (c / 100).toFixed(2);

/** A row's money for its note's holder, as a client reckons it: principal, interest and late fee in, less the fees it paid. */
export function rowNet(r: PaidCents): number {
  return r.principal + r.interest + r.lateFees - r.serviceFees - r.collectionFees;
}

/** Checks the books of every account and note; each violation found is handed to `note`. */
export function checkBooks(world: World, note: (violation: string) => void): void {
  const flows = new Map<string, number>();
  const postedFor = new Map<string, number>();
  for (const e of world.ledger) {
    const c = wholeCents(e.amount);
    if (ACCOUNT_KINDS.has(e.kind)) flows.set(e.accountId, (flows.get(e.accountId) ?? 0) + c);
    else if (NOTE_KINDS.has(e.kind) && e.ref !== null) postedFor.set(e.ref, (postedFor.get(e.ref) ?? 0) + c);
    else note(`ledger: an entry of ${e.accountId} of kind ${e.kind} (ref ${e.ref}) is neither an account's own nor a note's`);
  }
  const rowsNet = new Map<string, number>();
  const now = world.engine.lastTick;
  const seen = new Set<number>();
  for (const held of world.notes) {
    if (seen.has(held.loanNumber)) continue;
    seen.add(held.loanNumber);
    const loan = world.loans.get(held.loanNumber);
    if (!loan) continue;
    checkLoanLog(loan, note);
    const notes = notesOfLoan(world, loan.loan_number);
    const answers = noteViews(world, notes, now, undefined);
    const sums = notes.map(() => PAID_FIGURES.map(() => 0));
    const last = new Map<Note, number>();
    for (const row of loanRows(world, loan)) {
      const i = notes.indexOf(row.note);
      PAID_FIGURES.forEach((f, k) => (sums[i]![k]! += row.share[f]));
      rowsNet.set(row.note.accountId, (rowsNet.get(row.note.accountId) ?? 0) + rowNet(row.share));
      last.set(row.note, row.balance);
    }
    notes.forEach((n, i) =>
      checkNote(world, n, answers[i]!, sums[i]!, last.get(n), postedFor.get(`${loan.loan_number}:${n.note_number}`) ?? 0, note),
    );
  }
  for (const a of world.accounts.values()) {
    const expected = (flows.get(a.id) ?? 0) + (rowsNet.get(a.id) ?? 0);
    if (expected !== wholeCents(a.cash)) {
      note(`account ${a.id}: cash ${a.cash} is not deposits − withdrawals − bids + refunds + its payment rows (${text(expected)})`);
    }
  }
}

/**
 * A loan whose log began at its first payment (every loan the engine or the seed's postings made) has figures that are
 * its logged steps added up: a figure moved without a posting is a figure its rows and its holders' cash never saw.
 * (A loan seeded with totals only, in a world saved before the seed posted its history, logs from a later payment.)
 */
function checkLoanLog(loan: Loan, note: (v: string) => void): void {
  if (!loan.paymentLog || paymentsBeforeLog(loan) !== 0) return;
  const logged = Object.fromEntries(PAID_FIGURES.map((f) => [f, 0])) as PaidCents;
  for (const step of loggedSteps(loan)) for (const f of PAID_FIGURES) logged[f] += step.moved[f];
  const figures = paidSoFar(loan);
  for (const f of PAID_FIGURES)
    if (figures[f] !== logged[f])
      note(`loan ${loan.loan_number}: its ${f} is ${text(figures[f])}, its postings add up to ${text(logged[f])}`);
}

/** One note's rows (`sums`, by PAID_FIGURES; `balance`: the newest row's) against its answer, its ledger and what it holds. */
function checkNote(
  world: World,
  n: Note,
  answer: NoteAnswerFields,
  sums: number[],
  balance: number | undefined,
  posted: number,
  note: (v: string) => void,
): void {
  const of = (f: PaidFigure): number => sums[PAID_FIGURES.indexOf(f)]!;
  for (const [f, field, sign] of NOTE_FIGURES) {
    const shown = sign * wholeCents(Number(answer[field]));
    if (of(f) !== shown) note(`note ${n.note_number}: its rows' ${f} add up to ${text(of(f))}, its ${field} is ${text(sign * shown)}`);
  }
  if (balance !== undefined && balance !== wholeCents(answer.principal_balance_pro_rata_share)) {
    note(
      `note ${n.note_number}: its newest row leaves ${text(balance)}, its principal_balance_pro_rata_share is ${answer.principal_balance_pro_rata_share}`,
    );
  }
  const net = rowNet(Object.fromEntries(PAID_FIGURES.map((f) => [f, of(f)])) as PaidCents);
  if (net !== posted) note(`note ${n.note_number}: its rows net ${text(net)}, its account was posted ${text(posted)} for it`);
  // What a note holds (principal, or what was written off and not yet collected) is its amount less the principal its rows paid;
  // a note seeded before the seed posted its history (initialPrincipal) entered the world holding what its loan's totals left it.
  const cancelled = world.loans.get(n.loanNumber)?.loan_status === LOAN_STATUS.CANCELLED;
  if ((n.initialPrincipal ?? 0) > 0 || cancelled) return;
  const held = wholeCents((n.principal ?? n.amount) + (n.chargedOff ?? 0));
  if (held !== wholeCents(n.amount) - of('principal'))
    note(
      `note ${n.note_number}: holds ${text(held)}, its amount less its rows' principal is ${text(wholeCents(n.amount) - of('principal'))}`,
    );
}
