/**
 * Cohorts of notes: the portfolio split by its loans' vintage (origination month, quarter or year) or by
 * rating, each cohort with what was put in, what came back, what is outstanding, what was lost to
 * default and charge-off, the default and charge-off rates, and its realised return. Pure, and fed
 * through one seam: `cohortReport` takes each note with its flows (`CohortFlows`), so the flows may be
 * rebuilt from the schedule (`rebuiltFlows`, today) or read from the payments resource.
 */
import { LOAN_STATUS, PLATFORM_RATINGS, readRating } from '../contract/enums.js';
import type { NoteFigures as Note } from './figures.js';
import { formatDay, parseDay } from './calendar.js';
import { noteFlows, type DatedFlow } from './cash-flows.js';
import { annualisedReturn } from './model.js';
import type { NoteLedger } from '../flows/note-ledger.js';
import { paymentFlows } from '../flows/returns.js';

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
  /** What was paid for the note, dated (none for a loan cancelled at once, which gave the money back). */
  purchases: DatedFlow[];
  /** What the note brought in net of service and collection fees, dated (debt-sale proceeds included). */
  receipts: DatedFlow[];
  /** Principal outstanding on the as-of day, at par. */
  outstanding: number;
  /** The part of `outstanding` not expected back (cash-flows.ts EXPECTED_LOSS). */
  writeDown: number;
}

/** One note and its flows. */
export interface CohortNote {
  note: Note;
  flows: CohortFlows;
}

/** One cohort's figures (`-o json` and `-o csv` print them as they are; rates are fractions). */
export interface Cohort {
  cohort: string;
  notes: number;
  /** What the notes cost (`note_ownership_amount`), as `mkt portfolio` counts it. */
  invested: number;
  /** Cash in up to the as-of day, net of fees. */
  received: number;
  outstanding: number;
  expected_loss: number;
  /** Notes in default now, not (yet) charged off. */
  defaulted_notes: number;
  charged_off_notes: number;
  /** Principal not repaid on the defaulted notes (what they cost less the principal they paid back). */
  defaulted_principal: number;
  /** Principal not repaid on the charged-off notes: lost. */
  charged_off_principal: number;
  /** Defaulted and charged-off notes (a charged-off note defaulted first) over all notes. */
  default_rate_by_count: number | null;
  /** Defaulted and charged-off principal over what was invested. */
  default_rate_by_principal: number | null;
  charge_off_rate_by_count: number | null;
  charge_off_rate_by_principal: number | null;
  /** Nominal annual IRR of the cohort's flows, outstanding principal at par (none once charged off), as the portfolio's realised return; null with the reason. */
  realised_return: number | null;
  realised_return_reason: string | null;
}

/** The cohorts in order and their total (`-o json` prints it as is). */
export interface CohortReport {
  as_of: string;
  by: Grouping['by'];
  period: Period | null;
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

/**
 * A note's flows rebuilt from the schedule (cash-flows.ts noteFlows) as a cohort reads them: the
 * purchase, the payments, and what noteFlows adds to its final inflow beyond the written-down
 * principal (money it could not date, debt-sale proceeds) as a receipt on the cut day.
 */
export function rebuiltFlows(n: Note, today: number, cut = today): CohortFlows {
  const f = noteFlows(n, today, cut);
  if (f.flows.length === 0) return { purchases: [], receipts: [], outstanding: f.outstanding, writeDown: f.writeDown };
  const [purchase, ...rest] = f.flows;
  const final = rest.pop()!;
  const undated = final.amount - (f.outstanding - f.writeDown);
  const receipts = Math.abs(undated) >= 0.005 ? [...rest, { day: final.day, amount: undated }] : rest;
  return { purchases: [purchase!], receipts, outstanding: f.outstanding, writeDown: f.writeDown };
}

/** A note's flows from its payments (the purchase, each payment net of fees, a sale), or rebuilt from its loan's schedule when the payments resource had nothing for it. */
export function ledgerFlows(l: NoteLedger, today: number, cut = today): CohortFlows {
  // A cancelled note gave its money back and holds nothing: the schedule's reading says so, as the portfolio's does.
  if (!l.fromPayments || l.note.note_status === LOAN_STATUS.CANCELLED) return rebuiltFlows(l.note, today, cut);
  const { own: [purchase, ...receipts], outstanding, writeDown } = paymentFlows(l, cut);
  return { purchases: [purchase!], receipts, outstanding, writeDown };
}

/** Running sums of a cohort: money in whole cents, so that cohorts add up to their total exactly. */
interface Sums {
  notes: number;
  invested: number;
  received: number;
  outstanding: number;
  expectedLoss: number;
  defaultedNotes: number;
  chargedOffNotes: number;
  defaulted: number;
  chargedOff: number;
  flows: DatedFlow[];
}

const cents = (x: number): number => Math.round(x * 100);
const sumOf = (flows: readonly DatedFlow[]): number => flows.reduce((s, f) => s + f.amount, 0);
const empty = (): Sums => ({ notes: 0, invested: 0, received: 0, outstanding: 0, expectedLoss: 0, defaultedNotes: 0, chargedOffNotes: 0, defaulted: 0, chargedOff: 0, flows: [] });

/** Adds one note to `s`; its final value (outstanding principal at par) is dated `asOf`. */
function add(s: Sums, { note, flows }: CohortNote, asOf: number): void {
  s.notes++;
  s.invested += cents(note.note_ownership_amount);
  s.received += cents(sumOf(flows.receipts));
  s.outstanding += cents(flows.outstanding);
  s.expectedLoss += cents(flows.writeDown);
  const unpaid = Math.max(0, cents(note.note_ownership_amount) - cents(note.principal_paid_pro_rata_share));
  if (note.note_status === LOAN_STATUS.DEFAULTED) {
    s.defaultedNotes++;
    s.defaulted += unpaid;
  } else if (note.note_status === LOAN_STATUS.CHARGEOFF) {
    s.chargedOffNotes++;
    s.chargedOff += unpaid;
  }
  s.flows.push(...flows.purchases, ...flows.receipts);
  // The realised return, as the portfolio's: outstanding principal at par (a charged-off note holds none).
  if (flows.purchases.length > 0) s.flows.push({ day: asOf, amount: flows.outstanding });
}

const rate = (part: number, whole: number): number | null => (whole > 0 ? Number((part / whole).toFixed(4)) : null);

function cohort(name: string, s: Sums): Cohort {
  const ret = annualisedReturn(s.flows);
  return {
    cohort: name,
    notes: s.notes,
    invested: s.invested / 100,
    received: s.received / 100,
    outstanding: s.outstanding / 100,
    expected_loss: s.expectedLoss / 100,
    defaulted_notes: s.defaultedNotes,
    charged_off_notes: s.chargedOffNotes,
    defaulted_principal: s.defaulted / 100,
    charged_off_principal: s.chargedOff / 100,
    default_rate_by_count: rate(s.defaultedNotes + s.chargedOffNotes, s.notes),
    default_rate_by_principal: rate(s.defaulted + s.chargedOff, s.invested),
    charge_off_rate_by_count: rate(s.chargedOffNotes, s.notes),
    charge_off_rate_by_principal: rate(s.chargedOff, s.invested),
    realised_return: ret.rate === null ? null : Number(ret.rate.toFixed(6)),
    realised_return_reason: ret.reason,
  };
}

/**
 * The notes bought by `asOf` (a UTC day) split by `g`, every one in exactly one cohort, and the total.
 * Statuses, and so defaults and charge-offs, are the notes' as given (today's).
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
  return {
    as_of: formatDay(asOf),
    by: g.by,
    period: g.by === 'vintage' ? g.period : null,
    left_out: leftOut,
    cohorts: [...groups.keys()].sort(order(g)).map((k) => cohort(k, groups.get(k)!)),
    total: cohort('total', total),
  };
}
