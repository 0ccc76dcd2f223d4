/**
 * The dated cash flows of the notes at a day, from their payments, for two returns:
 *   - realised: the purchases, every payment row up to the day (net of service and collection fees),
 *     sale proceeds, and the principal still outstanding at its written-down value: at par, or nothing
 *     once the loan was charged off (the marketplace's own write-down);
 *   - expected: the same, with the outstanding principal at par less the expected loss of its days past
 *     due at the day (LOSS_BY_DAYS_PAST_DUE).
 * Days past due are read off the payments, so a past day sees what it saw then: from the last payment
 * that left the loan current, the next due date on the loan's calendar (origination plus whole months);
 * each day past it is a day late. A note the payments resource has nothing for, though its own figures
 * show money received, is rebuilt from its loan's schedule (src/portfolio/cash-flows.ts) and counted.
 */
import { addMonths } from '../contract/amortisation.js';
import { LOAN_STATUS } from '../contract/enums.js';
import { parseDay } from '../portfolio/calendar.js';
import { noteFlows, type DatedFlow } from '../portfolio/cash-flows.js';
import type { NoteLedger } from './note-ledger.js';
import { netUnits, ROW_FIGURES, toDollars, toUnits, type RowUnits } from './payment-rows.js';

const DAY = 86_400_000;
/** A payment this close after a due date paid that one (the mock's seeded payments fall 30.4375 days apart, up to two days off the calendar). */
const DUE_SLACK = 3 * DAY;

/**
 * The share of outstanding principal not expected back, by days past due: the bucket rates of
 * src/portfolio/README.md (the late rates between the mock's roll rates and the loss rates lenders
 * publish for their adjusted returns), applied, as LendingClub's adjusted net annualised return does,
 * to the principal of notes past due but not charged off; past 120 days (a defaulted loan awaiting its
 * charge-off) all of it.
 */
export const LOSS_BY_DAYS_PAST_DUE: readonly { upTo: number; loss: number; label: string }[] = [
  { upTo: 0, loss: 0, label: 'current' },
  { upTo: 15, loss: 0.1, label: '1–15 days' },
  { upTo: 30, loss: 0.25, label: '16–30 days' },
  { upTo: 120, loss: 0.5, label: '31–120 days' },
  { upTo: Number.POSITIVE_INFINITY, loss: 1, label: 'over 120 days' },
];

/** The expected loss of `days` past due. */
export function expectedLoss(days: number): number {
  return LOSS_BY_DAYS_PAST_DUE.find((b) => days <= b.upTo)!.loss;
}

/** Days past due of a note at `cut`, from its payments. */
export function daysPastDueAt(l: NoteLedger, cut: number): number {
  const paid = l.rows.filter((r) => r.day <= cut && !r.chargeOff);
  const last = paid[paid.length - 1];
  if (last && last.postDaysPastDue !== null) return Math.max(0, last.postDaysPastDue + Math.floor((cut - last.day) / DAY));
  const origination = parseDay(l.note.origination_date) ?? l.bought;
  const after = last ? last.day + DUE_SLACK : origination;
  let k = 1;
  while (addMonths(origination, k) <= after) k++;
  return Math.max(0, Math.floor((cut - addMonths(origination, k)) / DAY));
}

/** One note's own flows at `cut` from its payments: the purchase first, then each payment net of fees and a sale; its outstanding principal at par and the part written down by its days past due. */
export function paymentFlows(l: NoteLedger, cut: number): { own: DatedFlow[]; outstanding: number; writeDown: number } {
  const own: DatedFlow[] = [{ day: l.bought, amount: -l.note.note_ownership_amount }];
  let repaid = 0;
  for (const r of l.rows) {
    if (r.day > cut) break;
    repaid += r.principal;
    const net = netUnits(r);
    if (net !== 0) own.push({ day: Math.max(r.day, l.bought), amount: toDollars(net) });
  }
  const sold = l.sale !== null && l.sale.day <= cut;
  if (sold) own.push({ day: l.sale!.day, amount: toDollars(l.sale!.proceeds) });
  const lost = l.loss !== null && l.loss.day <= cut;
  const outstanding = sold || lost ? 0 : Math.max(0, toDollars(toUnits(l.note.note_ownership_amount) - repaid));
  return { own, outstanding, writeDown: outstanding * expectedLoss(daysPastDueAt(l, cut)) };
}

/** Both sets of flows at a day, and what they are made of. */
export interface FlowsAt {
  realised: DatedFlow[];
  expected: DatedFlow[];
  /** Outstanding principal at par, and what the expected return writes off of it (dollars). */
  outstanding: number;
  writeDown: number;
  /** What the payments up to the day brought (dollars): principal, interest, late fees, and the fees paid. */
  received: { principal: number; interest: number; lateFees: number; fees: number };
  /** Notes reckoned from their payments, and notes rebuilt from their loan's schedule. */
  fromPayments: number;
  rebuilt: number;
}

/** The flows of every note at `cut` (a UTC day, not after `today`, the day the notes' figures are of). */
export function flowsAt(ledgers: readonly NoteLedger[], today: number, cut: number): FlowsAt {
  const out: FlowsAt = {
    realised: [], expected: [], outstanding: 0, writeDown: 0, received: { principal: 0, interest: 0, lateFees: 0, fees: 0 }, fromPayments: 0, rebuilt: 0,
  };
  const sums: RowUnits = { principal: 0, interest: 0, lateFees: 0, serviceFees: 0, collectionFees: 0 };
  for (const l of ledgers) {
    if (l.bought > cut || l.note.note_status === LOAN_STATUS.CANCELLED) continue;
    if (!l.fromPayments) {
      out.rebuilt++;
      // Its figures are today's whatever the day: the notes resource keeps no history.
      const n = l.note;
      sums.principal += toUnits(n.principal_paid_pro_rata_share);
      sums.interest += toUnits(n.interest_paid_pro_rata_share);
      sums.lateFees += toUnits(n.late_fees_paid_pro_rata_share);
      sums.serviceFees += toUnits(Math.abs(n.service_fees_paid_pro_rata_share));
      sums.collectionFees += toUnits(Math.abs(n.collection_fees_paid_pro_rata_share));
      const f = noteFlows(l.note, today, cut);
      const end = f.flows[f.flows.length - 1]!;
      out.expected.push(...f.flows);
      out.realised.push(...f.flows.slice(0, -1), { day: end.day, amount: end.amount + f.writeDown });
      out.outstanding += f.outstanding;
      out.writeDown += f.writeDown;
      continue;
    }
    out.fromPayments++;
    for (const r of l.rows) {
      if (r.day > cut) break;
      for (const f of ROW_FIGURES) sums[f] += r[f];
    }
    const { own, outstanding, writeDown } = paymentFlows(l, cut);
    out.outstanding += outstanding;
    out.writeDown += writeDown;
    out.realised.push(...own, { day: cut, amount: outstanding });
    out.expected.push(...own, { day: cut, amount: outstanding - writeDown });
  }
  out.received = {
    principal: toDollars(sums.principal), interest: toDollars(sums.interest), lateFees: toDollars(sums.lateFees), fees: toDollars(sums.serviceFees + sums.collectionFees),
  };
  return out;
}
