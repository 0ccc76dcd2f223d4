/**
 * The calendar and arithmetic of an amortised loan, shared by the mock (which services loans by them)
 * and the portfolio report (which rebuilds a note's payment dates from them): one rule, so the two agree.
 */
import { toCents } from './bid-rules.js';

/** `ms` plus whole calendar months (UTC), the day kept or clamped to the month's last (Jan 31 + 1 → Feb 28/29). */
export function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.getTime();
}

/** The level monthly payment of an amortised loan, to the cent. */
export function monthlyPayment(principal: number, annualRate: number, months: number): number {
  const r = annualRate / 12;
  if (r === 0) return toCents(principal / months);
  return toCents((principal * r) / (1 - Math.pow(1 + r, -months)));
}
