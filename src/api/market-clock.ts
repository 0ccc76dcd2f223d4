/**
 * The marketplace's clock, as its answers tell it: every HTTP answer carries a `Date` header (RFC 9110
 * §6.6.1) from the server's clock, the clock its listings' start dates and its orders' dates are on.
 * A query that asks "started by now" or "ordered today" must ask it on that clock, not this machine's:
 * a machine whose clock is off, or a mock whose clock was moved, would otherwise find nothing.
 */
import type { Clock } from '../clock.js';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** The names as servers capitalise them (the positional reading, `fixdate`, takes only these; the patterns any case). */
const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTH_NAMES = MONTHS.map((m) => m[0]!.toUpperCase() + m.slice(1));
const DAY = `(?:${DAY_NAMES.join('|')})`;
const LONG_DAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const MON = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** IMF-fixdate, the form servers send: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF = new RegExp(`^${DAY}, (\\d{2}) ${MON} (\\d{4}) ${TIME} GMT$`, 'i');
/** The obsolete RFC 850 form a recipient still reads: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MON}-(\\d{2}) ${TIME} GMT$`, 'i');
/** The obsolete asctime form: `Sun Nov  6 08:49:37 1994`. */
const ASCTIME = new RegExp(`^${DAY} ${MON} ([ \\d]\\d) ${TIME} (\\d{4})$`, 'i');

/**
 * An HTTP date (any of the three forms RFC 9110 §5.6.7 says a recipient reads) as epoch ms, or null.
 * The weekday is not checked against the date (the date wins); a field out of range is null, never
 * rolled over into the next day or month as Date.UTC would.
 */
export function parseHttpDate(text: string): number | null {
  const t = text.trim();
  return fixdate(t) ?? byPattern(t);
}

/**
 * IMF-fixdate as servers write it (`Sun, 06 Nov 1994 08:49:37 GMT`, the names so capitalised), read by position: the
 * `Date` of every answer, without the patterns' compiling at their first use (~0.3 ms of every command that asks the
 * marketplace anything). Null for any other text, which `byPattern` reads: the same fields, so the same time.
 */
function fixdate(t: string): number | null {
  if (t.length !== 29 || !t.endsWith(' GMT') || t[3] !== ',' || t[4] !== ' ' || t[7] !== ' ' || t[11] !== ' ') return null;
  if (t[16] !== ' ' || t[19] !== ':' || t[22] !== ':') return null;
  const month = t.slice(8, 11);
  if (!DAY_NAMES.includes(t.slice(0, 3)) || !MONTH_NAMES.includes(month)) return null;
  const [day, year, h, mi, s] = [digits(t, 5, 7), digits(t, 12, 16), digits(t, 17, 19), digits(t, 20, 22), digits(t, 23, 25)];
  if (day < 0 || year < 0 || h < 0 || mi < 0 || s < 0) return null;
  return utc(year, month, day, [h, mi, s]);
}

/** The number the ASCII digits of `t` from `from` to `to` write; -1 when one is not a digit. */
function digits(t: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = t.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = 10 * n + d;
  }
  return n;
}

/** Any of the three forms, any case (the patterns above). */
function byPattern(t: string): number | null {
  let m = IMF.exec(t);
  if (m) return utc(Number(m[3]), m[2]!, Number(m[1]), m.slice(4, 7));
  m = RFC850.exec(t);
  // A two-digit year: 70–99 are 19xx, the rest 20xx (RFC 9110: one more than 50 years ahead is the past century).
  if (m) return utc(Number(m[3]) + (Number(m[3]) >= 70 ? 1900 : 2000), m[2]!, Number(m[1]), m.slice(4, 7));
  m = ASCTIME.exec(t);
  if (m) return utc(Number(m[6]), m[1]!, Number(m[2]!.trim()), m.slice(3, 6));
  return null;
}

function utc(year: number, month: string, day: number, hms: readonly (string | number | undefined)[]): number | null {
  const mon = MONTHS.indexOf(month.toLowerCase());
  const [h, mi, s] = hms.map(Number) as [number, number, number];
  if (h > 23 || mi > 59 || s > 60 || day < 1) return null;
  const at = Date.UTC(year, mon, day, h, mi, Math.min(s, 59));
  // Day 31 of a 30-day month would roll over: refused instead.
  return new Date(at).getUTCDate() === day ? at : null;
}

/**
 * The marketplace's time: this machine's clock plus the offset the latest answer's `Date` showed, so
 * it runs on between answers. Before any answer with a readable `Date` it is this machine's clock.
 * A `Date` has whole seconds: the time read may be up to a second behind the marketplace's.
 */
export class MarketClock {
  private offset: number | null = null;
  private last: number | null = null;

  constructor(private readonly local: Pick<Clock, 'now'>) {}

  /** Notes an answer's `Date` header (a repeated or unreadable one is ignored). */
  heard(date: string | string[] | undefined): void {
    if (typeof date !== 'string') return;
    const at = parseHttpDate(date);
    if (at === null) return;
    this.offset = at - this.local.now();
    this.last = at;
  }

  /** The latest readable `Date` heard (epoch ms), or null: one that stands still while time passes is a stopped clock (a frozen mock). */
  lastDate(): number | null {
    return this.last;
  }

  /** The marketplace's time now, in epoch ms (this machine's until an answer told it). */
  now(): number {
    return this.local.now() + (this.offset ?? 0);
  }

  /** How far the marketplace's clock is ahead of this machine's in ms (negative: behind), or null before any answer told it. */
  skew(): number | null {
    return this.offset;
  }
}
