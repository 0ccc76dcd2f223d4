/**
 * Each note at a day, and the dated cash flows of the notes for two returns:
 *   - realised: the purchases, every payment row up to the day (net of service and collection fees),
 *     sale proceeds, and the principal still outstanding at par (nothing once charged off or sold);
 *   - expected: the same, with the outstanding principal less the expected loss of the note's bucket
 *     at the day (note-state.ts: the marketplace's days past due today, the payment rows' on a past day;
 *     the one table of expected-loss.ts).
 * A cancelled note (its bid came back) and a pending one (its loan not yet originated) have no flows. A
 * note the payments resource has nothing for, though its own figures show money received, is rebuilt
 * from its loan's schedule (cash-flows.ts) and counted.
 */
import { earning, noteBucket, noteFlows, outstandingPrincipal, type DatedFlow } from './cash-flows.js';
import { expectedLossMicros, MICROS_PER_DOLLAR } from './expected-loss.js';
import type { NoteLedger } from './note-ledger.js';
import { noteState, type NoteState } from './note-state.js';
import { netUnits, noUnits, ROW_FIGURES, toDollars, toUnits, type RowUnits } from './payment-rows.js';

/** One note at a day. */
export interface NoteAt {
  ledger: NoteLedger;
  state: NoteState;
  /** In the returns: neither cancelled nor pending. */
  earning: boolean;
  /** The purchase, then what the note brought net of fees, dated (a rebuilt note's undatable money on the day); none when not earning. */
  own: DatedFlow[];
  /** Principal outstanding at par on the day, dollars: none once charged off or sold, nor for a cancelled note. */
  outstanding: number;
  /** The expected loss on it, whole micro-dollars (expected-loss.ts). */
  lossMicros: number;
  /** What its payment rows up to the day brought, whole units (a rebuilt note: its own figures, today's). */
  received: RowUnits;
}

/** Principal outstanding at `cut` from the rows, whole units: what the note cost less the principal its rows repaid, none once charged off or sold. */
function outstandingUnits(l: NoteLedger, cut: number): number {
  if ((l.sale !== null && l.sale.day <= cut) || (l.loss !== null && l.loss.day <= cut)) return 0;
  const repaid = l.rows.reduce((s, r) => (r.day <= cut ? s + r.principal : s), 0);
  return Math.max(0, toUnits(l.note.note_ownership_amount) - repaid);
}

/** A rebuilt note's received figures: its own, whatever the day (the notes resource keeps no history). */
function figuresReceived(l: NoteLedger): RowUnits {
  const n = l.note;
  return {
    principal: toUnits(n.principal_paid_pro_rata_share),
    interest: toUnits(n.interest_paid_pro_rata_share),
    lateFees: toUnits(n.late_fees_paid_pro_rata_share),
    serviceFees: toUnits(Math.abs(n.service_fees_paid_pro_rata_share)),
    collectionFees: toUnits(Math.abs(n.collection_fees_paid_pro_rata_share)),
  };
}

/** The note at `cut` (a UTC day, not after `today`, the day the notes' figures are of). */
export function noteAt(l: NoteLedger, today: number, cut: number): NoteAt {
  const state = noteState(l, today, cut);
  const n = l.note;
  if (!earning(n)) {
    // Pending: its money is in the note, at par, owed nothing yet; cancelled: it came back.
    const outstanding = state.bucket === 'pending' ? (cut >= today ? outstandingPrincipal(n) : toDollars(outstandingUnits(l, cut))) : 0;
    return { ledger: l, state, earning: false, own: [], outstanding, lossMicros: 0, received: noUnits() };
  }
  if (!l.fromPayments) {
    const f = noteFlows(n, today, cut);
    const [purchase, ...paid] = f.flows.slice(0, -1);
    const own = purchase ? [purchase, ...paid, ...(f.undated !== 0 ? [{ day: cut, amount: f.undated }] : [])] : [];
    // A past day's status cannot be read without rows: the write-down is by today's (src/portfolio/README.md).
    const lossMicros = expectedLossMicros(f.outstanding, state.bucket ?? noteBucket(n));
    return { ledger: l, state, earning: true, own, outstanding: f.outstanding, lossMicros, received: figuresReceived(l) };
  }
  const own: DatedFlow[] = [{ day: l.bought, amount: -n.note_ownership_amount }];
  const received = noUnits();
  for (const r of l.rows) {
    if (r.day > cut) break;
    for (const f of ROW_FIGURES) received[f] += r[f];
    const net = netUnits(r);
    if (net !== 0) own.push({ day: Math.max(r.day, l.bought), amount: toDollars(net) });
  }
  const sold = l.sale !== null && l.sale.day <= cut;
  if (sold) own.push({ day: l.sale!.day, amount: toDollars(l.sale!.proceeds) });
  // Today the marketplace's own figure of the note; before, what its rows had not yet repaid (the same, as the rows add up to it).
  const gone = sold || (l.loss !== null && l.loss.day <= cut);
  const outstanding = gone ? 0 : cut >= today ? outstandingPrincipal(n) : toDollars(outstandingUnits(l, cut));
  return { ledger: l, state, earning: true, own, outstanding, lossMicros: expectedLossMicros(outstanding, state.bucket!), received };
}

/** Both sets of flows at a day, and the notes they are made of. */
export interface FlowsAt {
  /** Every note bought by the day, cancelled and pending ones included. */
  notes: NoteAt[];
  realised: DatedFlow[];
  expected: DatedFlow[];
  /** The expected loss of all of them, whole micro-dollars. */
  lossMicros: number;
  /** What the payments up to the day brought (dollars): principal, interest, late fees, and the fees paid. */
  received: { principal: number; interest: number; lateFees: number; fees: number };
  /** Notes in the returns reckoned from their payments, and notes rebuilt from their loan's schedule. */
  fromPayments: number;
  rebuilt: number;
}

/** The flows of every note at `cut` (a UTC day, not after `today`, the day the notes' figures are of). */
export function flowsAt(ledgers: readonly NoteLedger[], today: number, cut: number): FlowsAt {
  const out: FlowsAt = {
    notes: [],
    realised: [],
    expected: [],
    lossMicros: 0,
    received: { principal: 0, interest: 0, lateFees: 0, fees: 0 },
    fromPayments: 0,
    rebuilt: 0,
  };
  const sums = noUnits();
  for (const l of ledgers) {
    if (l.bought > cut) continue;
    const at = noteAt(l, today, cut);
    out.notes.push(at);
    out.lossMicros += at.lossMicros;
    if (!at.earning) continue;
    if (l.fromPayments) out.fromPayments++;
    else out.rebuilt++;
    for (const f of ROW_FIGURES) sums[f] += at.received[f];
    out.realised.push(...at.own, { day: cut, amount: at.outstanding });
    out.expected.push(...at.own, { day: cut, amount: at.outstanding - at.lossMicros / MICROS_PER_DOLLAR });
  }
  out.received = {
    principal: toDollars(sums.principal),
    interest: toDollars(sums.interest),
    lateFees: toDollars(sums.lateFees),
    fees: toDollars(sums.serviceFees + sums.collectionFees),
  };
  return out;
}
