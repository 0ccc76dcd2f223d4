/**
 * Date formats of the API: date-times as `yyyy-MM-dd HH:mm:ss +0000` (the zone's own offset when a
 * `timezone` header names one), dates as `yyyy-MM-dd`. Times are kept as epoch milliseconds.
 */

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

interface Parts {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  offsetMin: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** True when `zone` is an IANA zone name this runtime knows. */
export function isValidTimeZone(zone: string): boolean {
  if (!zone || !/^[A-Za-z_+\-/0-9]+$/.test(zone)) return false;
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/**
 * Offsets (ms) of each zone by UTC day: a day whose first and last millisecond have one offset (every day but a change
 * of offset's); null for a day with a change, whose hours are cached instead. By day, not hour: the mock's hourly ticks ask
 * for a new hour every time (isReleaseHour), and two Intl calls an hour were ~0.4 s of a year's moves.
 */
const dayOffsets = new Map<string, Map<number, number | null>>();
/** Offsets (ms) of zones by `zone hour` bucket, on a day with a change of offset; a bucket holds only an hour with one offset throughout. */
const offsets = new Map<string, number>();
/** Enough buckets for every zone callers use over years of hours (or centuries of days); cleared, not evicted, when full. */
const MAX_OFFSETS = 100_000;

/** The zone's offset from UTC at `ms`, in whole seconds as ms, read from the zone's own wall clock. */
function offsetAt(ms: number, zone: string): number {
  const p: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The zone's offset at `ms`, asking Intl (slow: formatToParts) once per zone and UTC day, or on a day with a change
 * of offset (its first and last millisecond differ) once per hour; an hour with a change inside it is never cached.
 */
function zoneOffset(ms: number, zone: string): number {
  const day = Math.floor(ms / DAY_MS);
  let days = dayOffsets.get(zone);
  if (!days) dayOffsets.set(zone, (days = new Map()));
  let whole = days.get(day);
  if (whole === undefined) {
    const start = offsetAt(day * DAY_MS, zone);
    whole = offsetAt(day * DAY_MS + DAY_MS - 1, zone) === start ? start : null;
    if (days.size >= MAX_OFFSETS) days.clear();
    days.set(day, whole);
  }
  if (whole !== null) return whole;
  const hour = Math.floor(ms / HOUR_MS);
  const key = `${zone} ${hour}`;
  const cached = offsets.get(key);
  if (cached !== undefined) return cached;
  const start = offsetAt(hour * HOUR_MS, zone);
  if (offsetAt(hour * HOUR_MS + HOUR_MS - 1, zone) !== start) return offsetAt(ms, zone);
  if (offsets.size >= MAX_OFFSETS) offsets.clear();
  offsets.set(key, start);
  return start;
}

function partsIn(ms: number, zone: string | undefined): Parts {
  const utc = !zone || zone === 'UTC' || zone === 'Etc/UTC';
  const offsetMs = utc ? 0 : zoneOffset(ms, zone);
  // The zone's wall clock to the second, read as if it were UTC.
  const t = new Date(utc ? ms : Math.floor(ms / 1000) * 1000 + offsetMs);
  return {
    y: t.getUTCFullYear(),
    mo: t.getUTCMonth() + 1,
    d: t.getUTCDate(),
    h: t.getUTCHours(),
    mi: t.getUTCMinutes(),
    s: t.getUTCSeconds(),
    offsetMin: Math.round(offsetMs / 60000),
  };
}

/** `yyyy-MM-dd HH:mm:ss ±hhmm` in `zone` (UTC when omitted). */
export function formatDateTime(ms: number, zone?: string): string {
  const p = partsIn(ms, zone);
  const sign = p.offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(p.offsetMin);
  return `${p.y}-${pad(p.mo)}-${pad(p.d)} ${pad(p.h)}:${pad(p.mi)}:${pad(p.s)} ${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

/** The wall clock's hour and minute at `ms` in `zone` (UTC when omitted). */
export function wallHourMinute(ms: number, zone?: string): { hour: number; minute: number } {
  const p = partsIn(ms, zone);
  return { hour: p.h, minute: p.mi };
}

/** `yyyy-MM-dd` in `zone` (UTC when omitted). */
export function formatDate(ms: number, zone?: string): string {
  const p = partsIn(ms, zone);
  return `${p.y}-${pad(p.mo)}-${pad(p.d)}`;
}

/** The forms a filter date takes, as messages and help list them. */
export const FILTER_DATE_FORMS = 'yyyy-MM-dd, yyyy-MM-dd HH:mm:ss or yyyy-MM-ddTHH:mm:ss';

// The `T` form is ISO 8601's own, which people paste from other tools; it means what the space form does.
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * Reads a filter bound (one of FILTER_DATE_FORMS) as wall time in `zone`.
 * A bound names a whole day or a whole second, as dates are shown: a lower bound is its first
 * millisecond, an upper bound (`isMax`) its last, so that a time shown as the bound is inside it.
 * Returns null when the text is not one of the forms or not a real date.
 */
export function parseFilterDate(text: string, zone: string | undefined, isMax: boolean): number | null {
  const m = DATE_RE.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const hasTime = m[4] !== undefined;
  const [h, mi, s] = hasTime ? [Number(m[4]), Number(m[5]), Number(m[6])] : [0, 0, 0];
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) {
    return null;
  }
  if (!isMax) return wallToInstant(wall, zone);
  if (hasTime) return wallToInstant(wall, zone) + 999;
  // The last millisecond before the next day starts: a day is not 24 hours across a DST change.
  return wallToInstant(wall + 86_400_000, zone) - 1;
}

/** Converts a wall-clock time in `zone` (given as if it were UTC) to the instant it names. */
export function wallToInstant(wall: number, zone: string | undefined): number {
  if (!zone || zone === 'UTC' || zone === 'Etc/UTC') return wall;
  let guess = wall - partsIn(wall, zone).offsetMin * 60000;
  guess = wall - partsIn(guess, zone).offsetMin * 60000;
  return guess;
}

/**
 * Parses a date or date-time in any form the marketplace's answers use into epoch ms: `2015-10-23`
 * (a UTC day), `2023-08-28 17:35:20 +0000`, `2025-02-03T08:00:00.000+0000`, ISO 8601 with `Z` or
 * `±hh:mm`. Null when the text is none of them or not a real date.
 */
export function parseApiDateTime(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))? ?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [+m[1]!, +m[2]!, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)];
  const wall = Date.UTC(y, mo - 1, d, h, mi, s) + (m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0);
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59)
    return null;
  const zone = m[8];
  if (zone === undefined || zone === 'Z') return wall;
  const off = (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2))) * (zone[0] === '-' ? -1 : 1);
  return wall - off * 60000;
}
