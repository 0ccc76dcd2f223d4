/**
 * The timeline's loans (timeline.ts): each queued at the next hour it can change, a loan nobody we model holds at its next
 * departure from its schedule (servicing.ts `lazyLoanHour`, a search of its due dates). A loan made by a tick is not
 * searched then: nothing about it can change before its first due date, a month on, so the timeline keeps it aside
 * (`Timeline.unsearched`) and searches it when a tick reaches that due date's hour, or between requests (the engine's idle
 * work), whichever is first. At a million listings a 15-day move made ~1M loans and searched each (a second of the move)
 * for departures a month or more past its end.
 */
import { LOAN_STATUS } from '../../src/contract/enums.js';
import type { Timeline } from '../world/derived.js';
import type { Loan, World } from '../world/world.js';
import { notesOfLoan } from '../world/world-index.js';
import { hourAtOrAfter, loanHour } from './event-hours.js';
import { lazyLoanHour } from './servicing.js';

function push<T>(map: Map<number, T[]>, hour: number, item: T): void {
  const list = map.get(hour);
  if (list) list.push(item);
  else map.set(hour, [item]);
}

/**
 * Queues a loan at its next event at or after hour `from`, if it has one: a loan nobody we model holds at its next
 * departure from its schedule (what lies between is written when it is read), any other at each hour it can change.
 */
export function queueLoan(world: World, tl: Timeline, loan: Loan, from: number): void {
  const lazy = lazyLoanHour(world, loan, from);
  if (!Number.isNaN(lazy)) {
    if (lazy !== Infinity) push(tl.lazyLoansAt, lazy, loan);
    return;
  }
  const at = loanHour(loan, from);
  if (at !== Infinity) push(tl.loansAt, at, loan);
}

/**
 * Queues a loan made since the last tick, to be looked at from hour `from`: one nobody we model holds, current with no
 * arrears and its first due date at or after `from` and no earlier than the last kept aside, is kept aside unsearched
 * (its due dates come in the order of the loans, so `searchUnsearched` takes them from the front); any other is queued now.
 */
export function queueNewLoan(world: World, tl: Timeline, loan: Loan, from: number): void {
  const due = hourAtOrAfter(loan.next_payment_due_date);
  const list = tl.unsearched;
  const last = list.length > tl.unsearchedFrom ? hourAtOrAfter(list[list.length - 1]!.next_payment_due_date) : -Infinity;
  const aside =
    due >= from
    && due >= last
    && loan.loan_status === LOAN_STATUS.CURRENT
    && loan.oldestMissedDue == null
    && notesOfLoan(world, loan.loan_number).length === 0;
  if (aside) list.push(loan);
  else queueLoan(world, tl, loan, from);
}

/**
 * Searches the loans kept aside whose first due date's hour is at or before `through`, at most `rows` of them, queueing
 * each from hour `from` (the next tick's, at or before that due date's hour: the search then finds what it found when the
 * loan was made); true once none is left.
 */
export function searchUnsearched(world: World, tl: Timeline, from: number, through: number, rows = Infinity): boolean {
  const list = tl.unsearched;
  let k = tl.unsearchedFrom;
  const stop = Math.min(list.length, k + rows);
  for (; k < stop && hourAtOrAfter(list[k]!.next_payment_due_date) <= through; k++) queueLoan(world, tl, list[k]!, from);
  if (k === list.length) {
    list.length = 0;
    k = 0;
  }
  tl.unsearchedFrom = k;
  return k === 0;
}

/** Puts a loan serviced at hour `h` back at its next event, if it has one. */
export function requeueLoan(world: World, loan: Loan, h: number): void {
  queueLoan(world, world.index.timeline!, loan, h + 1);
}
