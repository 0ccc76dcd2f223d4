/**
 * Returns as an investor compares them. The return is the effective annual rate of the dated flows, by
 * calendar-day XIRR: the r with Σ aᵢ·(1+r)^(−dᵢ/365) = 0, dᵢ the days from the first flow (the rate a
 * bank's APY or a spreadsheet's XIRR quotes). Beside it, labelled, the nominal rate loans and lender
 * yields are quoted in: twelve times the monthly IRR (time in calendar months), which a note paying on
 * schedule returns exactly as its lender yield. Both from the one solver, irr.ts.
 */
import { monthsBetween } from '../contract/calendar.js';
import type { DatedFlow } from '../flows/cash-flows.js';
import { irr } from './irr.js';

const DAY = 86_400_000;
/** Days in the year of the effective rate: XIRR's convention, whatever the year's length. */
export const DAYS_PER_YEAR = 365;

/** The method, as the JSON names it beside the rates. */
export const RETURN_METHOD =
  'effective annual rate by calendar-day XIRR: the r with sum of a_i*(1+r)^(-d_i/365) = 0, d_i days from the first flow';

/** A rate, or null and why there is none. */
export interface Rate {
  rate: number | null;
  reason: string | null;
}

/** The net annualised return of dated flows as an effective annual rate (calendar-day XIRR): null with a reason when there is none. */
export function annualisedReturn(flows: readonly DatedFlow[]): Rate {
  if (flows.length === 0) return { rate: null, reason: 'no notes' };
  const origin = Math.min(...flows.map((f) => f.day));
  return irr(
    flows.map((f) => ({ at: (f.day - origin) / DAY / DAYS_PER_YEAR, amount: f.amount })),
    'a year',
  );
}

/** The same flows' nominal annual rate: twelve times the IRR per calendar month (as loan rates and lender yields are quoted). */
export function nominalReturn(flows: readonly DatedFlow[]): Rate {
  if (flows.length === 0) return { rate: null, reason: 'no notes' };
  const origin = Math.min(...flows.map((f) => f.day));
  const monthly = irr(
    flows.map((f) => ({ at: monthsBetween(origin, f.day), amount: f.amount })),
    'a month',
  );
  return monthly.rate === null ? monthly : { rate: monthly.rate * 12, reason: null };
}
