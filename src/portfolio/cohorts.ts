/**
 * Cohorts of notes: the portfolio split by its loans' vintage (origination month, quarter or year) or by
 * rating, each cohort with what was put in, what came back, what is outstanding, what was lost to
 * default and charge-off, the default and charge-off rates, and its realised return. Pure, and fed
 * through one seam: `cohortReport` takes each note with its flows (`CohortFlows`), so the flows may be
 * rebuilt from the schedule (`rebuiltFlows`, today) or read from the payments resource.
 */
import { PLATFORM_RATINGS, readRating } from '../contract/enums.js';
import type { NoteFigures as Note } from '../flows/figures.js';
import { formatDay, parseDay } from '../contract/calendar.js';
import type { DatedFlow } from '../flows/cash-flows.js';
import type { StatusBucket } from '../flows/expected-loss.js';
import { rebuiltLedgers } from './model.js';
import { annualisedReturn, RETURN_METHOD } from './rates.js';
import { apportionRounded } from '../flows/apportion.js';
import type { NoteLedger } from '../flows/note-ledger.js';
import { toUnits } from '../flows/payment-rows.js';
import { noteAt, type NoteAt } from '../flows/returns.js';

/** How long a vintage is: `yyyy-MM`, `yyyy-Qn` or `yyyy`. */
export const PERIODS = ['month', 'quarter', 'year'] as const;
export type Period = (typeof PERIODS)[number];

/** What the notes are split by. */
export type Grouping = { by: 'vintage'; period: Period } | { by: 'rating' };

/**
 * A note's own money as a cohort reads it, up to the as-of day: the seam where flows come in. Amounts
 * follow DatedFlow's sign (positive in, negative out).
 */
export interface CohortFlows {
  /** What was paid for the note, dated (none for a cancelled note, whose bid came back, nor a pending one). */
  purchases: DatedFlow[];
  /** What the note brought in net of service and collection fees, dated (debt-sale proceeds included). */
  receipts: DatedFlow[];
  /** Principal outstanding on the as-of day, at par. */
  outstanding: number;
  /** The part of `outstanding` not expected back, whole micro-dollars (src/flows/expected-loss.ts). */
  lossMicros: number;
  /** Its bucket on the as-of day (null: a note rebuilt from its schedule, on a past day: today's status stands in). */
  bucket: StatusBucket | null;
  /** Principal it had not repaid when charged off or, defaulted, on the as-of day (dollars; 0 otherwise). */
  unpaid: number;
}

/** One note and its flows. */
export interface CohortNote {
  note: Note;
  flows: CohortFlows;
}

/** One cohort's figures (`-o json` and `-o csv` print them as they are; rates are fractions). */
export interface Cohort {
  cohort: string;
  /** Notes bought by the as-of day, cancelled ones included. */
  notes: number;
  /** Of them, notes whose loan was cancelled (their bids came back): counted, never as money. */
  cancelled_notes: number;
  /** What the notes cost (`note_ownership_amount`), cancelled ones left out, as `mkt portfolio` counts it. */
  invested: number;
  /** Cash in up to the as-of day, net of fees. */
  received: number;
  outstanding: number;
  expected_loss: number;
  /** Notes in default on the as-of day, not (yet) charged off (a past day: over 120 days late then). */
  defaulted_notes: number;
  charged_off_notes: number;
  /** Principal not repaid on the defaulted notes: their principal outstanding. */
  defaulted_principal: number;
  /** Principal not repaid on the charged-off notes: lost. */
  charged_off_principal: number;
  /** Defaulted and charged-off notes (a charged-off note defaulted first) over the notes not cancelled. */
  default_rate_by_count: number | null;
  /** Defaulted and charged-off principal over what was invested. */
  default_rate_by_principal: number | null;
  charge_off_rate_by_count: number | null;
  charge_off_rate_by_principal: number | null;
  /** Effective annual rate (calendar-day XIRR) of the cohort's flows, outstanding principal at par (none once charged off), as the portfolio's realised return; null with the reason. */
  realised_return: number | null;
  realised_return_reason: string | null;
}

/** The cohorts in order and their total (`-o json` prints it as is). */
export interface CohortReport {
  as_of: string;
  by: Grouping['by'];
  period: Period | null;
  /** How realised_return is computed (rates.ts RETURN_METHOD). */
  return_method: string;
  /** Notes bought after the as-of day, in no cohort. */
  left_out: number;
  cohorts: Cohort[];
  total: Cohort;
}

/** The vintage of a day (epoch ms): `yyyy-MM`, `yyyy-Qn` or `yyyy`. */
export function vintage(day: number, period: Period): string {
  const d = new Date(day);
  const year = String(d.getUTCFullYear()).padStart(4, '0');
  const month = d.getUTCMonth() + 1;
  if (period === 'year') return year;
  if (period === 'quarter') return `${year}-Q${Math.ceil(month / 3)}`;
  return `${year}-${String(month).padStart(2, '0')}`;
}

/** The rating a note is counted under, as the portfolio's by-rating split counts it (an unknown one as sent). */
export function ratingOf(n: Pick<Note, 'platform_rating'>): string {
  return readRating(n.platform_rating || 'N/A') ?? n.platform_rating;
}

/** The cohort of a note: its loan's origination (the ownership start when the origination date is unreadable), or its rating. */
export function cohortOf(n: Note, g: Grouping): string {
  if (g.by === 'rating') return ratingOf(n);
  const day = parseDay(n.origination_date) ?? parseDay(n.ownership_start_date);
  return day === null ? 'unknown' : vintage(day, g.period);
}

/** Cohort names in report order: vintages oldest first; ratings best first, unknown ones after by name. */
function order(g: Grouping): (a: string, b: string) => number {
  if (g.by === 'vintage') return (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const rank = (r: string): number => {
    const i = (PLATFORM_RATINGS as readonly string[]).indexOf(r);
    return i < 0 ? PLATFORM_RATINGS.length : i;
  };
  return (a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** A note at the as-of day as a cohort reads it (src/flows/returns.ts noteAt, which the portfolio reads too). */
export function cohortFlows(at: NoteAt, cut: number, today: number): CohortFlows {
  const [purchase, ...receipts] = at.own;
  const bucket = at.state.bucket;
  const n = at.ledger.note;
  // On a past day the marketplace's status is not known: a note then over 120 days late stands for a defaulted one.
  const defaulted = bucket === 'defaulted' || (cut < today && bucket === 'late_over_120');
  const repaid = at.ledger.fromPayments
    ? at.ledger.rows.reduce((s, r) => (r.day <= cut ? s + r.principal : s), 0) / 10_000
    : n.principal_paid_pro_rata_share;
  const lost = at.ledger.loss !== null ? at.ledger.loss.principal / 10_000 : Math.max(0, n.note_ownership_amount - repaid);
  const unpaid = bucket === 'charged_off' ? lost : defaulted ? at.outstanding : 0;
  return {
    purchases: purchase ? [purchase] : [],
    receipts,
    outstanding: at.outstanding,
    lossMicros: at.lossMicros,
    bucket: defaulted ? 'defaulted' : bucket,
    unpaid,
  };
}

/** A note's flows rebuilt from the schedule (src/flows/cash-flows.ts noteFlows) as a cohort reads them: a note with no payment rows. */
export function rebuiltFlows(n: Note, today: number, cut = today): CohortFlows {
  return cohortFlows(noteAt(rebuiltLedgers([n])[0]!, today, cut), cut, today);
}

/** A note's flows from its payments (the purchase, each payment net of fees, a sale), or rebuilt from its loan's schedule when the payments resource had nothing for it. */
export function ledgerFlows(l: NoteLedger, today: number, cut = today): CohortFlows {
  return cohortFlows(noteAt(l, today, cut), cut, today);
}

/** Running sums of a cohort, exact: money in whole units (10⁻⁴ dollar), the expected loss in micro-dollars; rounded once, at the end. */
interface Sums {
  notes: number;
  cancelledNotes: number;
  invested: number;
  received: number;
  outstanding: number;
  lossMicros: number;
  defaultedNotes: number;
  chargedOffNotes: number;
  defaulted: number;
  chargedOff: number;
  flows: DatedFlow[];
}

const empty = (): Sums => ({
  notes: 0,
  cancelledNotes: 0,
  invested: 0,
  received: 0,
  outstanding: 0,
  lossMicros: 0,
  defaultedNotes: 0,
  chargedOffNotes: 0,
  defaulted: 0,
  chargedOff: 0,
  flows: [],
});

/** Adds one note to `s`; its final value (outstanding principal at par) is dated `asOf`. */
function add(s: Sums, { note, flows }: CohortNote, asOf: number): void {
  s.notes++;
  if (flows.bucket === 'cancelled') {
    // Its bid came back: a note, never money.
    s.cancelledNotes++;
    return;
  }
  s.invested += toUnits(note.note_ownership_amount);
  s.received += flows.receipts.reduce((t, f) => t + toUnits(f.amount), 0);
  s.outstanding += toUnits(flows.outstanding);
  s.lossMicros += flows.lossMicros;
  if (flows.bucket === 'defaulted') {
    s.defaultedNotes++;
    s.defaulted += toUnits(flows.unpaid);
  } else if (flows.bucket === 'charged_off') {
    s.chargedOffNotes++;
    s.chargedOff += toUnits(flows.unpaid);
  }
  s.flows.push(...flows.purchases, ...flows.receipts);
  // The realised return, as the portfolio's: outstanding principal at par (a charged-off note holds none).
  if (flows.purchases.length > 0) s.flows.push({ day: asOf, amount: flows.outstanding });
}

const rate = (part: number, whole: number): number | null => (whole > 0 ? Number((part / whole).toFixed(4)) : null);

/** Each cohort's figure and the total's, in cents: the total rounded once, the cohorts by largest remainder so that they add up to it. */
function centsOf(parts: readonly number[], unitsPerCent: number): { parts: number[]; total: number } {
  const total = Math.round(parts.reduce((s, p) => s + p, 0) / unitsPerCent);
  return {
    parts: apportionRounded(
      parts.map((p) => p / unitsPerCent),
      total,
    ),
    total,
  };
}

function cohort(name: string, s: Sums, money: Record<MoneyField, number>): Cohort {
  const ret = annualisedReturn(s.flows);
  const held = s.notes - s.cancelledNotes;
  return {
    cohort: name,
    notes: s.notes,
    cancelled_notes: s.cancelledNotes,
    invested: money.invested / 100,
    received: money.received / 100,
    outstanding: money.outstanding / 100,
    expected_loss: money.lossMicros / 100,
    defaulted_notes: s.defaultedNotes,
    charged_off_notes: s.chargedOffNotes,
    defaulted_principal: money.defaulted / 100,
    charged_off_principal: money.chargedOff / 100,
    default_rate_by_count: rate(s.defaultedNotes + s.chargedOffNotes, held),
    default_rate_by_principal: rate(s.defaulted + s.chargedOff, s.invested),
    charge_off_rate_by_count: rate(s.chargedOffNotes, held),
    charge_off_rate_by_principal: rate(s.chargedOff, s.invested),
    realised_return: ret.rate === null ? null : Number(ret.rate.toFixed(6)),
    realised_return_reason: ret.reason,
  };
}

/** The money sums of a cohort, and how many of their units make a cent. */
const MONEY_FIELDS = { invested: 100, received: 100, outstanding: 100, lossMicros: 10_000, defaulted: 100, chargedOff: 100 } as const;
type MoneyField = keyof typeof MONEY_FIELDS;

/**
 * The notes bought by `asOf` (a UTC day) split by `g`, every one in exactly one cohort, and the total.
 * Each note's status is its status on `asOf` (CohortFlows.bucket). Every money figure is summed exactly
 * and rounded to the cent once: the total as the portfolio's, the cohorts so that they add up to it.
 */
export function cohortReport(entries: readonly CohortNote[], g: Grouping, asOf: number): CohortReport {
  const groups = new Map<string, Sums>();
  const total = empty();
  let leftOut = 0;
  for (const e of entries) {
    const bought = parseDay(e.note.ownership_start_date) ?? parseDay(e.note.origination_date);
    if (bought !== null && bought > asOf) {
      leftOut++;
      continue;
    }
    const key = cohortOf(e.note, g);
    const s = groups.get(key) ?? empty();
    groups.set(key, s);
    add(s, e, asOf);
    add(total, e, asOf);
  }
  const names = [...groups.keys()].sort(order(g));
  const sums = names.map((k) => groups.get(k)!);
  const money = Object.fromEntries(
    Object.entries(MONEY_FIELDS).map(([f, per]) => [
      f,
      centsOf(
        sums.map((s) => s[f as MoneyField]),
        per,
      ),
    ]),
  ) as Record<MoneyField, { parts: number[]; total: number }>;
  const moneyOf = (i: number | 'total'): Record<MoneyField, number> =>
    Object.fromEntries(Object.entries(money).map(([f, c]) => [f, i === 'total' ? c.total : c.parts[i]!])) as Record<MoneyField, number>;
  return {
    as_of: formatDay(asOf),
    by: g.by,
    period: g.by === 'vintage' ? g.period : null,
    return_method: RETURN_METHOD,
    left_out: leftOut,
    cohorts: names.map((k, i) => cohort(k, sums[i]!, moneyOf(i))),
    total: cohort('total', total, moneyOf('total')),
  };
}
