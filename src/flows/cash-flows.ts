/**
 * An investor's own cash flows on one note, rebuilt from the notes resource, which gives cumulative
 * amounts rather than dated payments (the method, in full, is in src/portfolio/README.md, the report that reads them):
 *   - the purchase, an outflow of `note_ownership_amount` on `ownership_start_date`;
 *   - the payments received: the loan's schedule (origination date, term, borrower rate, level
 *     installment) gives the due dates and what each was to bring the note; what the note did receive
 *     (principal, interest and late fees less the service and collection fees it bore) is spread over
 *     the due dates it has been paid for, in proportion to the schedule: principal as the schedule's
 *     principal, the rest as the schedule's interest net of the service fee. A note paying exactly as
 *     scheduled gets its schedule back, to the cent;
 *   - its outstanding principal, a final inflow at the as-of date, written down by the expected loss of
 *     its bucket (expected-loss.ts).
 */
import { addMonths, monthlyPayment } from '../contract/amortisation.js';
import { LOAN_STATUS } from '../contract/enums.js';
import type { NoteFigures as Note } from './figures.js';
import { parseDay } from '../contract/calendar.js';
import { EXPECTED_LOSS, statusBucket, type StatusBucket } from './expected-loss.js';

const DAY = 86_400_000;

/** The bucket of a note as sent (today): its status and the marketplace's days past due (none sent: current). */
export function noteBucket(n: Pick<Note, 'note_status' | 'days_past_due'>): StatusBucket {
  return statusBucket(n.note_status, n.days_past_due ?? 0);
}

/**
 * Whether a note is in the returns: not cancelled (its bid came back) and originated (a pending note's
 * money earns nothing until its loan is made; left out, as lenders leave notes not yet issued out of their returns).
 */
export function earning(n: Pick<Note, 'note_status'>): boolean {
  return n.note_status !== LOAN_STATUS.CANCELLED && n.note_status !== LOAN_STATUS.ORIGINATIONDELAYED;
}

/**
 * Principal a note still has outstanding: none once charged off (the loan may still show the balance
 * it was charged off at; the investor's note no longer holds it).
 */
export function outstandingPrincipal(n: Note): number {
  return n.note_status === LOAN_STATUS.CHARGEOFF ? 0 : n.principal_balance_pro_rata_share;
}

/** A dated cash flow of a note (epoch ms of a UTC day; positive in, negative out). */
export interface DatedFlow {
  day: number;
  amount: number;
}

/** One installment of a note's share of its loan's schedule. */
interface Installment {
  day: number;
  principal: number;
  /** Interest less the service fee. */
  income: number;
  /** Interest alone, to find how many installments a paid-off note made. */
  interest: number;
}

/** The note's share of its loan's level-payment schedule, every installment due up to `until` (default: to the last). */
export function schedule(n: Note, origination: number, until = Number.POSITIVE_INFINITY): Installment[] {
  const share = n.note_ownership_amount / n.amount_borrowed;
  const payment = monthlyPayment(n.amount_borrowed, n.borrower_rate, n.term) * share;
  const feeRate = Math.max(0, n.borrower_rate - n.lender_yield);
  const out: Installment[] = [];
  let balance = n.note_ownership_amount;
  for (let k = 1; k <= n.term && balance > 0; k++) {
    const interest = (balance * n.borrower_rate) / 12;
    const principal = k === n.term ? balance : Math.min(balance, payment - interest);
    const day = addMonths(origination, k);
    if (day > until) break;
    out.push({ day, principal, interest, income: interest - (balance * feeRate) / 12 });
    balance -= principal;
  }
  return out;
}

/** What a note has brought in net: principal, interest and late fees, less the fees it bore (given as negative or positive). */
export function netReceived(n: Note): { principal: number; income: number } {
  const fees = Math.abs(n.service_fees_paid_pro_rata_share) + Math.abs(n.collection_fees_paid_pro_rata_share);
  return { principal: n.principal_paid_pro_rata_share, income: n.interest_paid_pro_rata_share + n.late_fees_paid_pro_rata_share - fees };
}

/**
 * How many installments a note has been paid for by `asOf`: for a paid-off note, the installment whose
 * cumulative scheduled interest is nearest the interest it received (its payoff); otherwise the due
 * dates up to `asOf` less its days late (a late note has not paid the installments it is late on).
 */
function installmentsPaid(n: Note, plan: readonly Installment[], asOf: number): number {
  // A late note's oldest missed installment fell due `days_past_due` days ago: only those before it were paid.
  const days = n.days_past_due ?? 0;
  const due = plan.filter((i) => (days > 0 ? i.day < asOf - days * DAY : i.day <= asOf)).length;
  if (n.note_status !== LOAN_STATUS.COMPLETED) return due;
  let best = 1;
  let cumulative = 0;
  let bestGap = Infinity;
  for (let k = 1; k <= plan.length; k++) {
    cumulative += plan[k - 1]!.interest;
    const gap = Math.abs(cumulative - n.interest_paid_pro_rata_share);
    if (gap < bestGap) [best, bestGap] = [k, gap];
  }
  return Math.min(best, Math.max(1, plan.filter((i) => i.day <= asOf).length));
}

/** `total` spread over `weights` in proportion (all of it on the last when the weights sum to nothing). */
function spread(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (!(sum > 0)) return weights.map((_, i) => (i === weights.length - 1 ? total : 0));
  return weights.map((w) => (total * w) / sum);
}

/** What a note's rebuilt flows come to at a date: the flows up to it, and the principal outstanding then and its write-down. */
export interface NoteFlows {
  /** The purchase, the payments, and a final inflow on the cut day: `undated` + `outstanding` − `writeDown`. */
  flows: DatedFlow[];
  outstanding: number;
  writeDown: number;
  /** Money in the final inflow beyond the principal: received with no due date to pin it on, and debt-sale proceeds. */
  undated: number;
}

/**
 * The rebuilt flows of a note whose figures are as of `today` (a UTC day), cut at `cut` (default
 * today): purchase, the payments dated up to `cut`, and the principal outstanding at `cut` (the note's
 * balance today, or before today what the rebuilt payments had not yet repaid), written down by the
 * note's status today. A note bought after `cut`, whose loan was cancelled, or not yet originated, has no flows.
 */
export function noteFlows(n: Note, today: number, cut = today): NoteFlows {
  const bought = parseDay(n.ownership_start_date) ?? parseDay(n.origination_date);
  const origination = parseDay(n.origination_date) ?? bought;
  if (bought === null || origination === null) throw new RangeError(`note ${n.loan_note_id} has no ownership start or origination date`);
  // A cancelled loan gave the money back at once: nothing invested, nothing earned. A pending one earns from its origination.
  if (bought > cut || !earning(n)) return { flows: [], outstanding: 0, writeDown: 0, undated: 0 };
  const plan = schedule(n, origination, today).filter((i) => i.day > bought);
  const paid = plan.slice(0, installmentsPaid(n, plan, today));
  const got = netReceived(n);
  const principal = spread(
    got.principal,
    paid.map((i) => i.principal),
  );
  if (n.note_status === LOAN_STATUS.COMPLETED && paid.length > 1) {
    // A payoff brings the principal left in one go: the schedule's until then, the rest on the last date.
    const before = paid.slice(0, -1).reduce((s, i) => s + i.principal, 0);
    if (before <= got.principal) paid.forEach((i, k) => (principal[k] = k < paid.length - 1 ? i.principal : got.principal - before));
  }
  const income = spread(
    got.income,
    paid.map((i) => i.income),
  );
  const flows: DatedFlow[] = [{ day: bought, amount: -n.note_ownership_amount }];
  let repaid = 0;
  paid.forEach((i, k) => {
    if (i.day > cut) return;
    repaid += principal[k]!;
    flows.push({ day: i.day, amount: principal[k]! + income[k]! });
  });
  const now = cut >= today;
  // Money received with no due date passed to pin it on (figures ahead of the schedule) counts at the end.
  const unplaced =
    now && paid.length === 0
      ? got.principal + got.income + n.debt_sale_proceeds_received_pro_rata_share
      : now
        ? n.debt_sale_proceeds_received_pro_rata_share
        : 0;
  const outstanding = now ? outstandingPrincipal(n) : Math.max(0, n.note_ownership_amount - repaid);
  const writeDown = outstanding * EXPECTED_LOSS[noteBucket(n)];
  flows.push({ day: cut, amount: unplaced + outstanding - writeDown });
  return { flows, outstanding, writeDown, undated: unplaced };
}
