/**
 * Monthly loan servicing: on each due date a borrower pays (amortised interest and principal, a
 * service fee for the operator), misses (days past due grow; 91+ days defaults, 121+ charges off),
 * catches up with late fees, pays off early, or defaults outright (bankruptcy, death); a charged-off loan
 * may then be collected on (collections.ts). Each of these is one posting (postings.ts): the loan's figures,
 * its payment log (GET /loans/payments) and each note's share in its account's cash, from one split.
 */
import { LOAN_STATUS } from '../../src/contract/enums.js';
import { cents, monthlyPayment } from '../kit/money.js';
import type { Loan, World } from '../world/world.js';
import { addMonths, civilFromDays, daysInMonth } from '../../src/contract/amortisation.js';
import { notesOfLoan } from '../world/world-index.js';
import { collect, startCollections } from './collections.js';
import { HOUR, hourAtOrAfter } from './event-hours.js';
import { noCents, type PaidCents } from './payment-log.js';
import { moveFigures, postLoanStep } from './postings.js';
import { firstDraw3, firstDrawFrom, hashOf } from './rng-for.js';

const DAY = 86_400_000;
/** Late fee per missed installment, paid on catching up. */
export const LATE_FEE = 15;
/** Failed-payment fee per missed installment, the operator's on catching up (platform_fees_paid). */
export const FAILED_PAYMENT_FEE = 15;
/** The operator's servicing fee, a yearly rate on the outstanding balance. */
export const SERVICE_FEE_RATE = 0.01;
/** Salt of the draw that decides what a borrower does on a due date. */
const DUE_DATE_SALT = 0xd0e;
const MISS_BY_RATING: Readonly<Record<string, number>> = { AA: 0.01, A: 0.015, B: 0.02, C: 0.03, D: 0.045, E: 0.06, HR: 0.08 };

/**
 * Services one loan at the tick at `t`: a defaulted loan grows past due and charges off at its time;
 * a current one grows past due, defaults at 91 days, and meets its due date once it has come. The
 * timeline (timeline.ts) brings a loan here only at the hours this can change it.
 */
export function serviceLoan(world: World, loan: Loan, t: number): void {
  if (loan.loan_status === LOAN_STATUS.CHARGEOFF) return collect(world, loan, t);
  if (loan.loan_status === LOAN_STATUS.DEFAULTED) {
    updateArrears(loan, t);
    if (loan.chargeOffAt != null && loan.chargeOffAt <= t) chargeOff(world, loan, t);
    return;
  }
  if (loan.loan_status !== LOAN_STATUS.CURRENT) return;
  updateArrears(loan, t);
  if (loan.days_past_due >= 91) return defaultLoan(loan, 1, t);
  if (loan.next_payment_due_date > t) return;
  dueDate(world, loan, t);
}

/** Days past due from the oldest missed due date; a loan with none keeps what it has (0, or a seeded default's figure). */
function updateArrears(loan: Loan, t: number): void {
  if (loan.oldestMissedDue != null) loan.days_past_due = Math.max(0, Math.floor((t - loan.oldestMissedDue) / DAY));
}

function defaultLoan(loan: Loan, reason: number, t: number): void {
  loan.loan_status = LOAN_STATUS.DEFAULTED;
  loan.loan_default_reason = reason;
  loan.next_payment_due_amount = 0;
  // next_payment_due_date stays the due date it had: the spec types it as a date, never null.
  // Delinquent loans charge off at 121 days past due; bankruptcy and death 30 days after the default.
  loan.chargeOffAt = reason === 1 && loan.oldestMissedDue != null ? loan.oldestMissedDue + 121 * DAY : t + 30 * DAY;
}

/** The chance a borrower misses a due date, by the loan's rating. */
function missChanceOf(loan: Loan): number {
  return MISS_BY_RATING[loan.platform_rating] ?? 0.03;
}

/** One instalment (`level`: the loan's level instalment) of a loan owing `balance` (dollars) after `made` payments: its interest, service fee and principal, in dollars. */
function instalmentParts(
  loan: Loan,
  level: number,
  balance: number,
  made: number,
  payoff: boolean,
): { interest: number; serviceFee: number; principal: number } {
  const interest = cents((balance * loan.borrower_rate) / 12);
  const serviceFee = cents((balance * SERVICE_FEE_RATE) / 12);
  const last = made + 1 >= loan.term;
  const principal = payoff || last ? balance : Math.min(balance, cents(level - interest));
  return { interest, serviceFee, principal };
}

/**
 * What paying `count` instalments from `made` moves (whole cents), with the late and failed-payment fees of `missed`
 * instalments caught up; the balance and payments made after them (`level`: the loan's level instalment, computed
 * once by a caller paying many). Shared by the due date and the seed's history.
 */
export function payInstalments(
  loan: Loan,
  balance: number,
  made: number,
  count: number,
  missed: number,
  payoff: boolean,
  level = installment(loan),
): { moved: PaidCents; balance: number; made: number } {
  const moved = {
    ...noCents(),
    lateFees: Math.round(LATE_FEE * missed * 100),
    platformFees: Math.round(FAILED_PAYMENT_FEE * missed * 100),
  };
  for (let i = 0; i < count && balance > 0; i++) {
    const step = instalmentParts(loan, level, balance, made, payoff);
    moved.interest += Math.round(step.interest * 100);
    moved.serviceFees += Math.round(step.serviceFee * 100);
    moved.principal += Math.round(step.principal * 100);
    balance = cents(balance - step.principal);
    made += 1;
  }
  return { moved, balance, made };
}

function dueDate(world: World, loan: Loan, t: number): void {
  const due = loan.next_payment_due_date;
  const missed = loan.missedPayments ?? 0;
  const r = firstDraw3(world.seed, loan.loan_number, DUE_DATE_SALT, due);
  const missChance = missChanceOf(loan);
  if (r < 0.0008) return defaultLoan(loan, 2, t);
  if (r < 0.0012) return defaultLoan(loan, 3, t);
  if (r < 0.0012 + (missed > 0 ? 0.45 : missChance)) {
    loan.missedPayments = missed + 1;
    loan.oldestMissedDue ??= due;
    loan.next_payment_due_date = dueAfter(loan, due);
    loan.next_payment_due_amount = cents(installment(loan) * (missed + 2) + (LATE_FEE + FAILED_PAYMENT_FEE) * (missed + 1));
    updateArrears(loan, t);
    return;
  }
  payDue(world, loan, t, missed, missed === 0 && r > 0.992);
}

/** Pays the instalments due at `loan`'s next due date at `t`: every one missed (`missed`, with their fees) and this one, or the whole balance (`payoff`). */
function payDue(world: World, loan: Loan, t: number, missed: number, payoff: boolean): void {
  const due = loan.next_payment_due_date;
  const paymentsBefore = loan.paymentsMade;
  const daysPastDue = loan.days_past_due;
  // The instalments due: every one missed and this one (a payoff: the whole balance with this one).
  const level = installment(loan);
  const paid = payInstalments(loan, loan.principal_balance, loan.paymentsMade, payoff ? 1 : missed + 1, missed, payoff, level);
  loan.paymentsMade = paid.made;
  // Caught up: no arrears left (cleared, so the loan table's sparse columns keep only loans in arrears).
  loan.missedPayments = undefined;
  loan.oldestMissedDue = undefined;
  loan.days_past_due = 0;
  if (paid.balance <= 0) {
    // Paid off, on schedule or early, is not a default: no reason (PaidInFull is for loans that defaulted first),
    // and the due date stays the last one its schedule reached, the one just paid.
    loan.loan_status = LOAN_STATUS.COMPLETED;
    loan.loan_default_reason = null;
    loan.next_payment_due_amount = 0;
  } else {
    // The schedule never skips: the instalments caught up were those due up to this one, so the next is a month on.
    loan.next_payment_due_date = dueAfter(loan, due);
    loan.next_payment_due_amount = level;
  }
  postLoanStep(world, loan, { kind: 'payment', at: t, daysPastDue, moved: paid.moved }, paymentsBefore);
}

/** The hash a borrower's draws on due dates are made from (dueDate's `firstDraw3(seed, loan, DUE_DATE_SALT, due)`, the seed and the loan mixed in once: a search draws many). */
function drawHashOf(seed: number, loan: Loan): number {
  return hashOf(seed, loan.loan_number, DUE_DATE_SALT);
}

/** True when what the borrower does on `due` departs from paying on schedule (a default, a miss, a payoff), for a loan with no arrears (dueDate's draw). */
function departs(hash: number, missChance: number, due: number): boolean {
  const r = firstDrawFrom(hash, due);
  return r < 0.0012 + missChance || r > 0.992;
}

/** The calendar date of the last day asked for (`civilFromDays`), kept until another is asked for. */
class CivilMemo {
  private days = NaN;
  private date = { year: 0, month: 0, day: 0 };

  of(days: number): { year: number; month: number; day: number } {
    if (days !== this.days) {
      this.date = civilFromDays(days);
      this.days = days;
    }
    return this.date;
  }
}

/**
 * The due dates after one on an origination's schedule, one a `next()` (the k-th instalment due `addMonths(origination, k)`),
 * stepped a month at a time in whole days: a departure search walks many, and working each out from the origination's
 * calendar date was a tenth of a year's moves. Reused: `start` sets it going (the departure search keeps one, not an object
 * and two closures a loan).
 */
export class ScheduleSteps {
  private day = 0;
  private time = 0;
  private year = 0;
  private month = 0;
  /** Days since 1970 of the first day of `month` of `year`, the month of the last date handed out. */
  private first = 0;
  /**
   * The calendar dates of the last origination and due date started from, by their days since 1970: the loans a search or a
   * tick takes one after another mostly share both (made the same day, due the same day), and working each out again was
   * most of a start.
   */
  private readonly origin = new CivilMemo();
  private readonly dueOn = new CivilMemo();

  /**
   * Starts after `due`, if it is on `origination`'s schedule: the month count that `addMonths(origination, count) === due` finds
   * (the one within a month of the days between, as dueAfter looks), found from the two calendar dates instead of trying
   * three with addMonths (most of a search's cost for a loan that soon departs). False for a due date off that schedule (a
   * seeded loan's) or an origination before 1970, whose next dates dueAfter works out.
   */
  start(origination: number, due: number): boolean {
    if (!Number.isSafeInteger(origination) || origination < 0 || origination > 8e15 || !Number.isSafeInteger(due)) return false;
    const days = Math.floor(origination / DAY);
    const time = origination - days * DAY;
    const o = this.origin.of(days);
    const dueDays = Math.floor(due / DAY);
    if (due - dueDays * DAY !== time) return false;
    const d = this.dueOn.of(dueDays);
    const at = d.year * 12 + d.month - (o.year * 12 + o.month);
    const k = Math.round((due - origination) / (30.4375 * DAY));
    if (at < 1 || at > 10_000 || Math.abs(at - k) > 1 || d.day !== Math.min(o.day, daysInMonth(d.year, d.month))) return false;
    this.day = o.day;
    this.time = time;
    this.year = d.year;
    this.month = d.month;
    this.first = dueDays - d.day + 1;
    return true;
  }

  /** The next month's date on the origination's day (clamped), at its time of day. */
  next(): number {
    this.first += daysInMonth(this.year, this.month);
    if (++this.month === 13) {
      this.year++;
      this.month = 1;
    }
    return (this.first + Math.min(this.day, daysInMonth(this.year, this.month)) - 1) * DAY + this.time;
  }
}

/**
 * How many due dates a departure search looks ahead at most: a loan keeps to its schedule for 20 months on average, most
 * of them past the end of any move, and a year's 2.4M searches drew ~45M due dates for that; looking a year ahead at most
 * draws half as many, for a visit a year to a loan that keeps to its schedule that long.
 */
const SEARCH_MONTHS = 12;

/** The departure search's steps (lazyLoanHour: one search at a time, none inside another). */
const searchSteps = new ScheduleSteps();
/** dueAfter's steps (started and read in one call). */
const dueSteps = new ScheduleSteps();
/** payOnSchedule's steps (read before anything it calls starts dueSteps; a steps object and a closure a call were garbage of every visit). */
const paySteps = new ScheduleSteps();

/**
 * True for a loan serviced lazily: one no account we model holds a note in (its steps post to nobody: postings.ts) that is
 * current without arrears. Its months on schedule are paid only when it is read or meets its next departure (`payOnSchedule`).
 */
function onScheduleLazily(world: World, loan: Loan): boolean {
  return (
    loan.loan_status === LOAN_STATUS.CURRENT
    && loan.oldestMissedDue == null
    && (loan.missedPayments ?? 0) === 0
    && loan.days_past_due === 0
    && notesOfLoan(world, loan.loan_number).length === 0
  );
}

/**
 * Pays a lazily serviced loan's due dates that the ticks through hour `h` met and that keep to its schedule, as each
 * tick would have (`payDue`), stopping at the first that departs from it (the timeline visits that one). Months that
 * leave a balance are paid at once (`payInstalments` of them all: the figures to the cent of paying each, as a
 * posting to nobody moves them, postings.ts); the one that completes the loan is paid as its tick paid it.
 */
export function payOnSchedule(world: World, loan: Loan, h: number): void {
  if (loan.loan_status !== LOAN_STATUS.CURRENT || hourAtOrAfter(loan.next_payment_due_date) > h || !onScheduleLazily(world, loan)) return;
  const hash = drawHashOf(world.seed, loan);
  const missChance = missChanceOf(loan);
  let due = loan.next_payment_due_date;
  const steps = paySteps.start(loan.origination_date, due) ? paySteps : null;
  // The due dates kept to, all but the last instalment (whose payment completes the loan).
  let count = 0;
  for (const left = loan.term - loan.paymentsMade; count < left - 1 && hourAtOrAfter(due) <= h && !departs(hash, missChance, due); count++)
    due = steps ? steps.next() : dueAfter(loan, due);
  if (count > 0) {
    const level = installment(loan);
    const paid = payInstalments(loan, loan.principal_balance, loan.paymentsMade, count, 0, false, level);
    // A balance paid off before the last instalment (rounding) completes the loan: each month is then paid as its tick paid it.
    if (paid.balance <= 0 || paid.made !== loan.paymentsMade + count) return payEachOnSchedule(world, loan, h);
    loan.paymentsMade = paid.made;
    // What payDue writes after each payment that leaves a balance; the figures moved as postLoanStep moves them.
    loan.missedPayments = undefined;
    loan.oldestMissedDue = undefined;
    loan.days_past_due = 0;
    loan.next_payment_due_date = due;
    loan.next_payment_due_amount = level;
    moveFigures(loan, paid.moved);
  }
  // The last instalment, when the ticks met it on schedule.
  if (hourAtOrAfter(due) <= h && !departs(hash, missChance, due)) payEachOnSchedule(world, loan, h);
}

/** payOnSchedule a month at a time, each through payDue. */
function payEachOnSchedule(world: World, loan: Loan, h: number): void {
  const hash = drawHashOf(world.seed, loan);
  const missChance = missChanceOf(loan);
  while (loan.loan_status === LOAN_STATUS.CURRENT && hourAtOrAfter(loan.next_payment_due_date) <= h) {
    const due = loan.next_payment_due_date;
    if (departs(hash, missChance, due)) return;
    payDue(world, loan, hourAtOrAfter(due) * HOUR, 0, false);
  }
}

/**
 * Brings a loan up to the last tick run, as a reader must see it (world.ts `LoansByNumber` calls it on every loan it hands
 * out): a lazily serviced loan's months on schedule (`payOnSchedule`), and the days past due of a loan in arrears that
 * nobody we model holds (the timeline visits such a loan only when more than its days past due can change).
 */
export function bringUpToDate(world: World, loan: Loan, lastTick: number): void {
  const status = loan.loan_status;
  if (status === LOAN_STATUS.CURRENT) payOnSchedule(world, loan, lastTick / HOUR);
  if ((loan.loan_status === LOAN_STATUS.CURRENT || status === LOAN_STATUS.DEFAULTED) && loan.oldestMissedDue != null)
    if (notesOfLoan(world, loan.loan_number).length === 0) updateArrears(loan, lastTick);
}

/**
 * The hour at or after `from` at which the timeline next visits a loan nobody we model holds, or NaN for a loan the
 * timeline visits at each hour it can change (loanHour). A current loan without arrears: its first due date that departs
 * from its schedule, or its last one, or the one SEARCH_MONTHS on, whichever is first (on-schedule months between are paid
 * when it is read or then: `payOnSchedule`; a visit to a due date kept to pays it and searches on from there). A
 * loan in arrears: its next due date, its 91st day past due (its default) or its charge-off, not each day past due
 * between (`bringUpToDate` writes those).
 */
export function lazyLoanHour(world: World, loan: Loan, from: number): number {
  if (notesOfLoan(world, loan.loan_number).length > 0) return NaN;
  const status = loan.loan_status;
  // onScheduleLazily, its notes looked at above.
  if (status === LOAN_STATUS.CURRENT && loan.oldestMissedDue == null && (loan.missedPayments ?? 0) === 0 && loan.days_past_due === 0) {
    let due = loan.next_payment_due_date;
    // A due date the ticks skipped past (a load after years): visited each hour from `from`, as before.
    if (hourAtOrAfter(due) < from) return NaN;
    const hash = drawHashOf(world.seed, loan);
    const missChance = missChanceOf(loan);
    const left = loan.term - loan.paymentsMade;
    const steps = searchSteps.start(loan.origination_date, due) ? searchSteps : null;
    const stop = Math.min(left - 1, SEARCH_MONTHS);
    for (let j = 0; j < stop && !departs(hash, missChance, due); j++) due = steps ? steps.next() : dueAfter(loan, due);
    return hourAtOrAfter(due);
  }
  const oldest = loan.oldestMissedDue;
  if (oldest == null || (status !== LOAN_STATUS.CURRENT && status !== LOAN_STATUS.DEFAULTED)) return NaN;
  // The first whole day past due whose hour is at or after `from`, as loanHour finds it; the default at 91 days comes at
  // the first such hour at which the loan is 91 days past due.
  const dayHour = (d: number): number => hourAtOrAfter(oldest + d * DAY);
  const next = Math.max(-1, Math.floor(((from - 1) * HOUR - oldest) / DAY)) + 1;
  let at = Infinity;
  if (status === LOAN_STATUS.CURRENT) at = Math.min(hourAtOrAfter(loan.next_payment_due_date), dayHour(Math.max(91, next)));
  else if (loan.chargeOffAt != null) at = hourAtOrAfter(loan.chargeOffAt);
  return Math.max(from, at);
}

/**
 * The due date after `due`: a calendar month on. A loan on the schedule of its origination (the k-th instalment due k
 * calendar months after it) stays on it, so a due date clamped in a short month (the 31st to the 28th) goes back to its
 * day after; a seeded loan (due dates 30.4375 days apart) goes on a calendar month at a time from its seeded one.
 */
function dueAfter(loan: Loan, due: number): number {
  const origination = loan.origination_date;
  // On its schedule (most loans): the month found from the two calendar dates, as a departure search finds it, not by trials.
  // A due date at another time of day than its origination (most of a seeded loan's) is off it: the trials, without a try.
  if ((due - origination) % DAY === 0 && dueSteps.start(origination, due)) return dueSteps.next();
  const k = Math.round((due - origination) / (30.4375 * DAY));
  for (const n of [k, k - 1, k + 1]) if (n >= 1 && addMonths(origination, n) === due) return addMonths(origination, n + 1);
  return addMonths(due, 1);
}

/** The level installment of a loan over its whole term. */
export function installment(loan: Loan): number {
  return monthlyPayment(loan.amount_borrowed, loan.borrower_rate, loan.term);
}

/** Charges a defaulted loan off at `t`: a posting that moves no money and writes its notes' principal off; then its collections begin. */
function chargeOff(world: World, loan: Loan, t: number): void {
  loan.loan_status = LOAN_STATUS.CHARGEOFF;
  loan.chargeOffAt = undefined;
  postLoanStep(world, loan, { kind: 'chargeoff', at: t, daysPastDue: loan.days_past_due, moved: noCents() });
  startCollections(world, loan, t);
}
