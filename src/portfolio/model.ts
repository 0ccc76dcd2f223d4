/**
 * The portfolio report: the account's figures, what the notes have brought in, the notes by status
 * and by rating, and the net annualised return (the IRR of every note's rebuilt cash flows, monthly
 * periods, quoted as a nominal annual rate: twelve times the monthly rate, as loan rates and lender
 * yields are quoted). Pure: the account, the notes and the dates are passed in.
 */
import { PLATFORM_RATINGS, readRating } from '../contract/enums.js';
import { toNumber, type Account } from '../contract/decode.js';
import type { NoteFigures as Note } from './figures.js';
import { addMonths } from '../contract/amortisation.js';
import { formatDay, monthsBetween, parseDay } from './calendar.js';
import { netReceived, noteFlows, outstandingPrincipal, STATUS_BUCKETS, statusBucket, type DatedFlow } from './cash-flows.js';
import { irr } from './irr.js';

/** Notes of one status or rating: how many, what they cost, what is outstanding, and their share of what was invested. */
export interface Bucket {
  notes: number;
  invested: number;
  outstanding_principal: number;
  /** Of the total invested in notes, 0 to 1. */
  share: number;
}

/** Every figure of the report (`-o json` prints it as is). */
export interface Portfolio {
  as_of: string;
  account_value: number;
  available_cash_balance: number;
  pending_bids: number;
  outstanding_principal: number;
  notes: number;
  invested: number;
  principal_received: number;
  interest_received: number;
  late_fees_received: number;
  fees_paid: number;
  /** Principal, interest and late fees less fees. */
  net_received: number;
  /** Outstanding principal not expected back (late, defaulted and charged-off notes). */
  expected_loss: number;
  /** Nominal annual rate (0.071 is 7.1%), or null with `annualized_return_reason`. */
  annualized_return: number | null;
  annualized_return_reason: string | null;
  by_status: Record<string, Bucket>;
  by_rating: Record<string, Bucket>;
}

const round = (x: number, places = 2): number => Number(x.toFixed(places));

/** The net annualised return of dated flows: null with a reason when there is none. */
export function annualisedReturn(flows: readonly DatedFlow[]): { rate: number | null; reason: string | null } {
  if (flows.length === 0) return { rate: null, reason: 'no notes' };
  const origin = Math.min(...flows.map((f) => f.day));
  const result = irr(flows.map((f) => ({ at: monthsBetween(origin, f.day), amount: f.amount })));
  return result.rate === null ? result : { rate: result.rate * 12, reason: null };
}

/** Buckets in a fixed order, every one present, with shares of `total`. */
function buckets(names: readonly string[], notes: readonly Note[], key: (n: Note) => string): Record<string, Bucket> {
  const out = new Map<string, Bucket>(names.map((k) => [k, { notes: 0, invested: 0, outstanding_principal: 0, share: 0 }]));
  let total = 0;
  for (const n of notes) {
    const k = key(n);
    const b = out.get(k) ?? { notes: 0, invested: 0, outstanding_principal: 0, share: 0 };
    b.notes++;
    b.invested += n.note_ownership_amount;
    b.outstanding_principal += outstandingPrincipal(n);
    total += n.note_ownership_amount;
    out.set(k, b);
  }
  return Object.fromEntries([...out].map(([k, b]) => [k, {
    notes: b.notes, invested: round(b.invested), outstanding_principal: round(b.outstanding_principal), share: total > 0 ? round(b.invested / total, 4) : 0,
  }]));
}

/**
 * The report as of `today` (UTC day, epoch ms). With `cut` before today, the return uses the flows up
 * to `cut` (see noteFlows); every other figure is today's.
 */
export function portfolioReport(account: Account, notes: readonly Note[], today: number, cut = today): Portfolio {
  const flows: DatedFlow[] = [];
  let expectedLoss = 0;
  const sum = { invested: 0, outstanding: 0, principal: 0, interest: 0, late: 0, fees: 0, net: 0 };
  for (const n of notes) {
    const f = noteFlows(n, today, cut);
    flows.push(...f.flows);
    expectedLoss += f.writeDown;
    const got = netReceived(n);
    sum.invested += n.note_ownership_amount;
    sum.outstanding += outstandingPrincipal(n);
    sum.principal += n.principal_paid_pro_rata_share;
    sum.interest += n.interest_paid_pro_rata_share;
    sum.late += n.late_fees_paid_pro_rata_share;
    sum.fees += Math.abs(n.service_fees_paid_pro_rata_share) + Math.abs(n.collection_fees_paid_pro_rata_share);
    sum.net += got.principal + got.income;
  }
  const cash = toNumber(account.available_cash_balance) ?? 0;
  const pending = ['pending_investments_primary_market', 'pending_investments_secondary_market', 'pending_quick_invest_orders']
    .reduce((s, k) => s + (toNumber(account[k]) ?? 0), 0);
  const ret = annualisedReturn(flows);
  return {
    as_of: formatDay(cut),
    account_value: round(toNumber(account.total_account_value) ?? cash + pending + sum.outstanding),
    available_cash_balance: cash,
    pending_bids: round(pending),
    outstanding_principal: round(sum.outstanding),
    notes: notes.length,
    invested: round(sum.invested),
    principal_received: round(sum.principal),
    interest_received: round(sum.interest),
    late_fees_received: round(sum.late),
    fees_paid: round(sum.fees),
    net_received: round(sum.net),
    expected_loss: round(expectedLoss),
    annualized_return: ret.rate === null ? null : round(ret.rate, 6),
    annualized_return_reason: ret.reason,
    by_status: buckets(STATUS_BUCKETS, notes, statusBucket),
    // An old loan's rating is N/A (an older answer's NA too); one the list lacks gets a bucket of its own, as sent.
    by_rating: buckets(PLATFORM_RATINGS, notes, (n) => readRating(n.platform_rating || 'N/A') ?? n.platform_rating),
  };
}

/**
 * The marketplace's today as far as can be told: `now`'s day (the marketplace's clock, from its answers'
 * `Date`), unless the notes say the marketplace is elsewhere (a server that sent no `Date`). A note
 * `age_in_months` old was originated at least that many months ago; a current note's next payment is not yet past.
 */
export function marketToday(now: number, notes: readonly Note[]): number {
  const local = new Date(now);
  let today = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  let latest = Number.POSITIVE_INFINITY;
  let earliest = Number.NEGATIVE_INFINITY;
  for (const n of notes) {
    const origination = parseDay(n.origination_date);
    if (origination !== null && n.age_in_months > 0) earliest = Math.max(earliest, addMonths(origination, n.age_in_months));
    const next = parseDay(n.next_payment_due_date);
    if (next !== null && statusBucket(n) === 'current') latest = Math.min(latest, next);
  }
  today = Math.max(today, earliest);
  return latest >= earliest ? Math.min(today, latest) : today;
}
