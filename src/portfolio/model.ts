/**
 * The portfolio report: the account's figures, what the notes have brought in, the notes by status
 * and by rating, and two net annualised returns, realised and expected: the effective annual rates of
 * the notes' cash flows from their payments (src/flows/returns.ts; calendar-day XIRR, rates.ts), the
 * nominal twelve-times-monthly rates beside them. Pure: the account, the notes, their payments and the
 * dates are passed in. On a past day it shows only what the notes and their payment rows tell of that
 * day: the account's figures (cash, pending bids, value) are today's only, so they are left out (null).
 */
import { PLATFORM_RATINGS, readRating } from '../contract/enums.js';
import { toNumber, type Account } from '../contract/decode.js';
import type { NoteFigures as Note } from '../flows/figures.js';
import { addMonths } from '../contract/amortisation.js';
import { formatDay, parseDay } from '../contract/calendar.js';
import { noteBucket } from '../flows/cash-flows.js';
import { microsToCents, STATUS_BUCKETS } from '../flows/expected-loss.js';
import { boughtDay, type NoteLedger } from '../flows/note-ledger.js';
import { flowsAt, type NoteAt } from '../flows/returns.js';
import { toUnits } from '../flows/payment-rows.js';
import { annualisedReturn, nominalReturn, RETURN_METHOD } from './rates.js';

/** Notes of one status or rating: how many, what they cost, what is outstanding, and their share of what was invested. */
export interface Bucket {
  notes: number;
  invested: number;
  outstanding_principal: number;
  /** Of the total invested in notes, 0 to 1. */
  share: number;
}

/** The account's figures, which the marketplace gives for today only: null on a past day. */
export const TODAY_ONLY = ['account_value', 'available_cash_balance', 'pending_bids'] as const;

/** Every figure of the report (`-o json` prints it as is). */
export interface Portfolio {
  as_of: string;
  /** Today's only (TODAY_ONLY): null on a past day. */
  account_value: number | null;
  available_cash_balance: number | null;
  pending_bids: number | null;
  /** Principal outstanding on the as-of day at par: the notes' own figures today, their payment rows before. */
  outstanding_principal: number;
  /** Notes bought by the as-of day, cancelled ones included (counted, never as money). */
  notes: number;
  /** Of them, notes whose loan was cancelled: their bids came back, so they are out of invested and the returns. */
  cancelled_notes: number;
  /** What the notes cost, cancelled ones left out. */
  invested: number;
  principal_received: number;
  interest_received: number;
  late_fees_received: number;
  fees_paid: number;
  /** Principal, interest and late fees less fees. */
  net_received: number;
  /** Outstanding principal not expected back, by each note's bucket (src/flows/expected-loss.ts), summed before rounding. */
  expected_loss: number;
  /** How the returns are computed (rates.ts RETURN_METHOD). */
  return_method: string;
  /** The realised return: effective annual rate (0.071 is 7.1%), or null with `annualized_return_reason`. */
  annualized_return: number | null;
  annualized_return_reason: string | null;
  /** Cash in and out to date, outstanding principal at par (nothing once charged off): effective annual rate. */
  realised_return: number | null;
  /** As realised, with outstanding principal at par less its expected loss: effective annual rate. */
  expected_return: number | null;
  expected_return_reason: string | null;
  /** The same two as nominal annual rates: twelve times the monthly rate, as lender yields are quoted. */
  realised_return_nominal: number | null;
  expected_return_nominal: number | null;
  /** Notes whose flows are their payments, and notes rebuilt from their loan's schedule (no payment rows). */
  notes_from_payments: number;
  notes_rebuilt: number;
  /** Notes whose days past due were re-derived from their payment rows: on a past day, or sent without them. */
  days_past_due_from_payments: number;
  /** Null on a past day when a note has no payment rows to read its status then from (by_status_reason says so). */
  by_status: Record<string, Bucket> | null;
  by_status_reason: string | null;
  by_rating: Record<string, Bucket>;
  /** The fields left out (null) because they cannot be told for the as-of day: none today. */
  not_known_at_as_of: string[];
}

const round = (x: number, places = 2): number => Number(x.toFixed(places));
const rounded = (rate: number | null): number | null => (rate === null ? null : round(rate, 6));

/** Buckets in a fixed order, every one present, with shares of what was invested; a cancelled note counts as a note, never as money. */
function buckets(names: readonly string[], notes: readonly NoteAt[], key: (n: NoteAt) => string): Record<string, Bucket> {
  const out = new Map<string, { notes: number; invested: number; outstanding: number }>(
    names.map((k) => [k, { notes: 0, invested: 0, outstanding: 0 }]),
  );
  let total = 0;
  for (const n of notes) {
    const k = key(n);
    const b = out.get(k) ?? { notes: 0, invested: 0, outstanding: 0 };
    const cost = n.state.bucket === 'cancelled' ? 0 : toUnits(n.ledger.note.note_ownership_amount);
    b.notes++;
    b.invested += cost;
    b.outstanding += toUnits(n.outstanding);
    total += cost;
    out.set(k, b);
  }
  return Object.fromEntries(
    [...out].map(([k, b]) => [
      k,
      {
        notes: b.notes,
        invested: round(b.invested / 10_000),
        outstanding_principal: round(b.outstanding / 10_000),
        share: total > 0 ? round(b.invested / total, 4) : 0,
      },
    ]),
  );
}

/** Notes with no payments to read: each one's flows rebuilt from its loan's schedule. */
export function rebuiltLedgers(notes: readonly Note[]): NoteLedger[] {
  return notes.map((note) => ({ note, bought: boughtDay(note), rows: [], fromPayments: false, loss: null, sale: null }));
}

/** The account's figures today. */
function accountFigures(account: Account, outstanding: number): { value: number; cash: number; pending: number } {
  const cash = toNumber(account.available_cash_balance) ?? 0;
  const pending = ['pending_investments_primary_market', 'pending_investments_secondary_market', 'pending_quick_invest_orders'].reduce(
    (s, k) => s + (toNumber(account[k]) ?? 0),
    0,
  );
  return { value: round(toNumber(account.total_account_value) ?? cash + pending + outstanding), cash, pending: round(pending) };
}

/**
 * The report at `cut` (a UTC day, default `today`, the day the notes' figures are of), from the notes'
 * payments (`ledgers`; default none: every note rebuilt from its schedule). Every figure is of `cut`:
 * the notes bought by then, what their rows had brought and left outstanding, their status then; the
 * account's own figures only when `cut` is today.
 */
export function portfolioReport(
  account: Account,
  notes: readonly Note[],
  today: number,
  cut = today,
  ledgers = rebuiltLedgers(notes),
): Portfolio {
  const f = flowsAt(ledgers, today, cut);
  const held = f.notes;
  const outstanding = held.reduce((s, n) => s + toUnits(n.outstanding), 0) / 10_000;
  const invested =
    held.reduce((s, n) => (n.state.bucket === 'cancelled' ? s : s + toUnits(n.ledger.note.note_ownership_amount)), 0) / 10_000;
  const past = cut < today;
  const acct = past ? null : accountFigures(account, outstanding);
  const realised = annualisedReturn(f.realised);
  const expected = annualisedReturn(f.expected);
  const got = f.received;
  const unknownStatus = held.filter((n) => n.state.bucket === null).length;
  return {
    as_of: formatDay(cut),
    account_value: acct?.value ?? null,
    available_cash_balance: acct?.cash ?? null,
    pending_bids: acct?.pending ?? null,
    outstanding_principal: round(outstanding),
    notes: held.length,
    cancelled_notes: held.filter((n) => n.state.bucket === 'cancelled').length,
    invested: round(invested),
    principal_received: round(got.principal),
    interest_received: round(got.interest),
    late_fees_received: round(got.lateFees),
    fees_paid: round(got.fees),
    net_received: round(got.principal + got.interest + got.lateFees - got.fees),
    expected_loss: microsToCents(f.lossMicros),
    return_method: RETURN_METHOD,
    annualized_return: rounded(realised.rate),
    annualized_return_reason: realised.reason,
    realised_return: rounded(realised.rate),
    expected_return: rounded(expected.rate),
    expected_return_reason: expected.reason,
    realised_return_nominal: rounded(nominalReturn(f.realised).rate),
    expected_return_nominal: rounded(nominalReturn(f.expected).rate),
    notes_from_payments: f.fromPayments,
    notes_rebuilt: f.rebuilt,
    days_past_due_from_payments: held.filter((n) => n.state.from === 'payments').length,
    by_status: unknownStatus > 0 ? null : buckets(STATUS_BUCKETS, held, (n) => n.state.bucket!),
    by_status_reason: unknownStatus > 0 ? `${unknownStatus} note(s) without payment rows have no status to read for a past day` : null,
    // An old loan's rating is N/A (an older answer's NA too); one the list lacks gets a bucket of its own, as sent.
    by_rating: buckets(PLATFORM_RATINGS, held, (n) => readRating(n.ledger.note.platform_rating || 'N/A') ?? n.ledger.note.platform_rating),
    not_known_at_as_of: past ? [...TODAY_ONLY, ...(unknownStatus > 0 ? ['by_status'] : [])] : [],
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
    if (next !== null && noteBucket(n) === 'current') latest = Math.min(latest, next);
  }
  today = Math.max(today, earliest);
  return latest >= earliest ? Math.min(today, latest) : today;
}
