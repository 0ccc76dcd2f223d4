/**
 * The portfolio report: the account's figures, what the notes have brought in, the notes by status
 * and by rating, and two net annualised returns, realised and expected (the IRR of the notes' cash
 * flows from their payments, src/flows/returns.ts; monthly periods, quoted as a nominal annual rate:
 * twelve times the monthly rate, as loan rates and lender yields are quoted). Pure: the account, the
 * notes, their payments and the dates are passed in.
 */
import { PLATFORM_RATINGS, readRating } from '../contract/enums.js';
import { toNumber, type Account } from '../contract/decode.js';
import type { NoteFigures as Note } from './figures.js';
import { addMonths } from '../contract/amortisation.js';
import { formatDay, monthsBetween, parseDay } from './calendar.js';
import { outstandingPrincipal, STATUS_BUCKETS, statusBucket, type DatedFlow } from './cash-flows.js';
import { boughtDay, type NoteLedger } from '../flows/note-ledger.js';
import { flowsAt } from '../flows/returns.js';
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
  /** The realised return: nominal annual rate (0.071 is 7.1%), or null with `annualized_return_reason`. */
  annualized_return: number | null;
  annualized_return_reason: string | null;
  /** Cash in and out to date, outstanding principal at its written-down value (nothing once charged off). */
  realised_return: number | null;
  /** As realised, with outstanding principal at par less the expected loss of its days past due. */
  expected_return: number | null;
  expected_return_reason: string | null;
  /** Notes whose flows are their payments, and notes rebuilt from their loan's schedule (no payment rows). */
  notes_from_payments: number;
  notes_rebuilt: number;
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

/** Notes with no payments to read: each one's flows rebuilt from its loan's schedule. */
export function rebuiltLedgers(notes: readonly Note[]): NoteLedger[] {
  return notes.map((note) => ({ note, bought: boughtDay(note), rows: [], fromPayments: false, loss: null, sale: null }));
}

/**
 * The report as of `today` (UTC day, epoch ms). The returns and what was received are those at `cut`
 * (default today), from the notes' payments (`ledgers`; default none: every note rebuilt from its
 * schedule); the account, the notes' count and splits and the outstanding principal are today's.
 */
export function portfolioReport(account: Account, notes: readonly Note[], today: number, cut = today, ledgers = rebuiltLedgers(notes)): Portfolio {
  const f = flowsAt(ledgers, today, cut);
  const sum = { invested: 0, outstanding: 0 };
  for (const n of notes) {
    sum.invested += n.note_ownership_amount;
    sum.outstanding += outstandingPrincipal(n);
  }
  const cash = toNumber(account.available_cash_balance) ?? 0;
  const pending = ['pending_investments_primary_market', 'pending_investments_secondary_market', 'pending_quick_invest_orders']
    .reduce((s, k) => s + (toNumber(account[k]) ?? 0), 0);
  const realised = annualisedReturn(f.realised);
  const expected = annualisedReturn(f.expected);
  const got = f.received;
  return {
    as_of: formatDay(cut),
    account_value: round(toNumber(account.total_account_value) ?? cash + pending + sum.outstanding),
    available_cash_balance: cash,
    pending_bids: round(pending),
    outstanding_principal: round(sum.outstanding),
    notes: notes.length,
    invested: round(sum.invested),
    principal_received: round(got.principal),
    interest_received: round(got.interest),
    late_fees_received: round(got.lateFees),
    fees_paid: round(got.fees),
    net_received: round(got.principal + got.interest + got.lateFees - got.fees),
    expected_loss: round(f.writeDown),
    annualized_return: realised.rate === null ? null : round(realised.rate, 6),
    annualized_return_reason: realised.reason,
    realised_return: realised.rate === null ? null : round(realised.rate, 6),
    expected_return: expected.rate === null ? null : round(expected.rate, 6),
    expected_return_reason: expected.reason,
    notes_from_payments: f.fromPayments,
    notes_rebuilt: f.rebuilt,
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
