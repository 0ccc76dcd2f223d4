/**
 * Time in months, the unit a loan's rate and lender yield are quoted in: whole calendar months (the
 * loan calendar's own rule, src/contract/amortisation.ts), then the days left as a fraction of the
 * month they fall in. A note's due dates are whole months apart whatever the month's length, so a note
 * paying on schedule has an exact monthly rate, and twelve times it is its lender yield.
 */
import { addMonths } from './amortisation.js';

/** A day (UTC midnight, epoch ms) from an API date or date-time's `yyyy-MM-dd`; null when it is not one. */
export function parseDay(text: string | null | undefined): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text ?? '');
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).getUTCDate() === Number(m[3]) ? ms : null;
}

/** `yyyy-MM-dd` of a day. */
export function formatDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Months from `from` to `to` (negative when `to` is earlier): whole calendar months plus the fraction of the next. */
export function monthsBetween(from: number, to: number): number {
  if (to < from) return -monthsBetween(to, from);
  const a = new Date(from);
  const b = new Date(to);
  let whole = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
  while (whole > 0 && addMonths(from, whole) > to) whole--;
  const start = addMonths(from, whole);
  const end = addMonths(from, whole + 1);
  return whole + (to - start) / (end - start);
}
