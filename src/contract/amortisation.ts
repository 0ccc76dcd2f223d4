/**
 * The calendar and arithmetic of an amortised loan, shared by the mock (which services loans by them)
 * and the portfolio report (which rebuilds a note's payment dates from them): one rule, so the two agree.
 */
import { toCents } from './bid-rules.js';

const DAY_MS = 86_400_000;

/**
 * `ms` plus whole calendar months (UTC), the day kept or clamped to the month's last (Jan 31 + 1 → Feb 28/29).
 * Worked out on the proleptic Gregorian calendar in integers (a due date per loan serviced: the mock's clock
 * moves call it ~200,000 times in 15 days at 100,000 listings, and two Date objects a call cost ~40 ms of them);
 * a time or count outside the usual range goes through Date (`addMonthsByDate`, which the tests hold it to).
 */
export function addMonths(ms: number, months: number): number {
  if (!(Number.isInteger(ms) && Math.abs(ms) <= 8e15 && Number.isInteger(months) && Math.abs(months) <= 10_000))
    return addMonthsByDate(ms, months);
  const days = Math.floor(ms / DAY_MS);
  const { year, month, day } = civilFromDays(days);
  const total = year * 12 + (month - 1) + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  return daysFromCivil(y, m, Math.min(day, daysInMonth(y, m))) * DAY_MS + (ms - days * DAY_MS);
}

/** `addMonths` by Date's own calendar (any time Date takes; NaN beyond its range). */
export function addMonthsByDate(ms: number, months: number): number {
  const d = new Date(ms);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.getTime();
}

/** Year, month (1–12) and day of the day `days` after 1970-01-01 (H. Hinnant's civil_from_days). */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day: doy - Math.floor((153 * mp + 2) / 5) + 1 };
}

/** Days from 1970-01-01 to year `y`, month `m` (1–12), day `d` (H. Hinnant's days_from_civil). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Days in month `m` (1–12) of year `y` (proleptic Gregorian). */
export function daysInMonth(y: number, m: number): number {
  if (m !== 2) return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
}

/** The level monthly payment of an amortised loan, to the cent. */
export function monthlyPayment(principal: number, annualRate: number, months: number): number {
  const r = annualRate / 12;
  if (r === 0) return toCents(principal / months);
  return toCents((principal * r) / annuityFactor(annualRate, r, months));
}

/**
 * A memo of `1 - (1 + r)^-months` by annual rate and term, in slots picked by both (a slot holds its last pair): a
 * million listings share a few thousand pairs, and the power was ~130 ns of each listing made and each loan originated
 * (a third of that from the memo, in a micro-benchmark of 700,000 calls). The value is the power's own, so the
 * payment is the same to the bit.
 */
const FACTOR_SLOTS = 4096;
// Zero in an empty slot: no rate reaches the memo at 0 (a zero rate's payment is the principal over the months).
const factorRate = new Float64Array(FACTOR_SLOTS);
const factorMonths = new Float64Array(FACTOR_SLOTS);
const factorValue = new Float64Array(FACTOR_SLOTS);

function annuityFactor(annualRate: number, r: number, months: number): number {
  const slot = (Math.round(annualRate * 10_000) * 31 + months) & (FACTOR_SLOTS - 1);
  if (factorRate[slot] === annualRate && factorMonths[slot] === months) return factorValue[slot]!;
  const factor = 1 - Math.pow(1 + r, -months);
  factorRate[slot] = annualRate;
  factorMonths[slot] = months;
  factorValue[slot] = factor;
  return factor;
}
