/**
 * When the marketplace releases new listings. The spec is silent; the public bot
 * cwalsh525/liveLongAndProsperBot (README.md at 8188c71) runs "at noon and 6 pm EST weekdays. This is when
 * prosper posts new loans", so the mock releases its new listings in batches at those times on weekdays by
 * default (docs/fidelity.md), and `mkt` can say when the next release is (`mkt invest check`), so that a cron
 * line can be timed a few minutes after it.
 */
import { formatDate, formatDateTime, wallHourMinute, wallToInstant } from './dates.js';

/** The marketplace's zone for its release times. */
export const RELEASE_ZONE = 'America/New_York';
/** The release times in RELEASE_ZONE, as minutes after midnight: noon and 6 pm. */
export const DEFAULT_RELEASE_MINUTES: readonly number[] = [12 * 60, 18 * 60];

const DAY = 86_400_000;

/** `HH:MM` of minutes after midnight. */
export function releaseTimeText(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * Reads release times as `HH:MM[,HH:MM…]` on whole hours (the mock's market moves an hour at a time), or
 * `steady` (null: listings arrive every hour). A problem names what was wrong.
 */
export function parseReleaseTimes(text: string): { minutes: number[] | null } | { problem: string } {
  const t = text.trim();
  if (t === 'steady') return { minutes: null };
  if (t === '') return { problem: "is empty: give times like 12:00,18:00 (in the marketplace's zone, America/New_York) or 'steady'" };
  const minutes: number[] = [];
  for (const part of t.split(',')) {
    const m = /^(\d{1,2}):(\d{2})$/.exec(part.trim());
    const hour = m ? Number(m[1]) : NaN;
    if (!m || hour > 23 || m[2] !== '00')
      return { problem: `'${part.trim()}' is not a whole hour HH:00 from 00:00 to 23:00 (the market moves an hour at a time)` };
    if (minutes.includes(hour * 60)) return { problem: `'${part.trim()}' is given twice` };
    minutes.push(hour * 60);
  }
  return { minutes: minutes.sort((a, b) => a - b) };
}

/** Releases a week: each time, Monday to Friday. */
export const RELEASE_DAYS_A_WEEK = 5;

/** Whether `t` falls on a weekday (Monday to Friday) in RELEASE_ZONE. */
function isWeekday(t: number): boolean {
  const day = new Date(`${formatDate(t, RELEASE_ZONE)}T00:00:00Z`).getUTCDay();
  return day !== 0 && day !== 6;
}

/** Whether the whole hour `t` is a release time in RELEASE_ZONE: one of `minutes`, on a weekday. */
export function isReleaseHour(t: number, minutes: readonly number[]): boolean {
  const { hour, minute } = wallHourMinute(t, RELEASE_ZONE);
  return minute === 0 && minutes.includes(hour * 60) && isWeekday(t);
}

/** The first release at or after `now` (epoch ms), or null when `minutes` is empty. */
export function nextRelease(now: number, minutes: readonly number[] = DEFAULT_RELEASE_MINUTES): number | null {
  if (minutes.length === 0) return null;
  // The zone's day of now, then the next ones (a weekend in between): each release an instant of its own (a DST day is 23 or 25 hours).
  const wallDay = Date.parse(`${formatDate(now, RELEASE_ZONE)}T00:00:00Z`);
  for (let d = 0; d < 8; d++)
    for (const m of minutes) {
      const at = wallToInstant(wallDay + d * DAY + m * 60_000, RELEASE_ZONE);
      if (at >= now && isWeekday(at)) return at;
    }
  return null;
}

/** A line for people: the next release, in the marketplace's zone and in UTC. */
export function describeNextRelease(now: number, minutes: readonly number[] = DEFAULT_RELEASE_MINUTES): string {
  const at = nextRelease(now, minutes);
  if (at === null) return 'new listings arrive all day (no release times)';
  const inMinutes = Math.round((at - now) / 60_000);
  const hours = Math.floor(inMinutes / 60);
  const wait =
    hours >= 24 ? `${Math.floor(hours / 24)} d ${hours % 24} h` : hours >= 1 ? `${hours} h ${inMinutes % 60} min` : `${inMinutes} min`;
  const times = minutes.map(releaseTimeText).join(' and ');
  return `next listings release ${formatDateTime(at, RELEASE_ZONE)} (${formatDateTime(at)}), in ${wait}; releases at ${times} ${RELEASE_ZONE}, Monday to Friday`;
}
