/** Date-times in a zone: the zone's offset is asked of Intl once per day (per hour on a day it changes), and the answers stay exact across offset changes. */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RELEASE_ZONE } from '../src/contract/releases.js';
import { formatDate, formatDateTime, wallToInstant } from '../src/contract/dates.js';

/** The reference: Intl asked for every instant, as the formatter did before the cache. */
function reference(ms: number, zone: string): string {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(ms))) p[part.type] = part.value;
  const wall = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  const off = Math.round((wall - Math.floor(ms / 1000) * 1000) / 60000);
  const abs = Math.abs(off);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${off < 0 ? '-' : '+'}${hhmm}`;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('zone offsets', () => {
  it('asks Intl a bounded number of times for many date-times in one hour (not once per date)', () => {
    const spy = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    const hour = Date.parse('2031-02-03T04:00:00Z');
    for (let i = 0; i < 500; i++) formatDateTime(hour + i * 7001, 'America/Chicago');
    for (let i = 0; i < 500; i++) formatDate(hour + i * 7001, 'America/Chicago');
    expect(spy.mock.calls.length).toBeLessThanOrEqual(2);
  });

  it("asks Intl a bounded number of times for a day's hours (the mock's hourly ticks: not twice an hour)", () => {
    const spy = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    const day = Date.parse('2033-05-17T00:00:00Z');
    for (let h = 0; h < 24; h++) formatDateTime(day + h * 3_600_000, 'America/Denver');
    expect(spy.mock.calls.length).toBeLessThanOrEqual(2);
  });

  it('matches Intl for any instants, days apart or minutes apart, across years and offset changes (property)', () => {
    // The zones the code uses (the releases' zone, UTC) and zones of every kind a timezone header may name: DST north and
    // south, half-hour and 45-minute offsets, a 30-minute DST, offsets in seconds before 1972, a zone that moved its day.
    const zones = [
      RELEASE_ZONE,
      'UTC',
      'Europe/London',
      'Europe/Berlin',
      'America/St_Johns',
      'Australia/Lord_Howe',
      'Australia/Sydney',
      'Pacific/Chatham',
      'Pacific/Apia',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Africa/Monrovia',
      'America/Sao_Paulo',
    ];
    const YEAR = 365.2425 * 86_400_000;
    const from = Date.UTC(1900, 0, 1);
    // A start anywhere in two centuries, or within days of the spring and autumn changes (March-April, September-November).
    const anywhere = fc.integer({ min: 0, max: Math.floor(200 * YEAR) }).map((x) => from + x);
    const nearChange = fc
      .tuple(fc.integer({ min: 1900, max: 2100 }), fc.constantFrom(2, 3, 8, 9, 10), fc.integer({ min: 0, max: 40 * 86_400_000 }))
      .map(([y, m, x]) => Date.UTC(y, m, 1) + x);
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.oneof(anywhere, nearChange),
        fc.array(fc.integer({ min: -3 * 86_400_000, max: 3 * 86_400_000 }), { minLength: 1, maxLength: 30 }),
        (zone, start, steps) => {
          // Instants near each other, in any order: each answer read from a cache an earlier one filled, or not.
          for (const step of steps)
            expect(`${zone} ${formatDateTime(start + step, zone)}`).toBe(`${zone} ${reference(start + step, zone)}`);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('matches Intl for every instant around offset changes, half-hour zones and pre-1972 offsets in seconds', () => {
    const windows: Array<[string, string]> = [
      ['America/New_York', '2024-03-10T06:00:00Z'],
      ['America/New_York', '2024-11-03T05:00:00Z'],
      ['Australia/Lord_Howe', '2024-04-06T14:00:00Z'],
      ['Australia/Lord_Howe', '2024-10-05T15:00:00Z'],
      ['Europe/London', '2024-03-31T00:00:00Z'],
      ['Asia/Kolkata', '2024-06-01T00:00:00Z'],
      ['Pacific/Chatham', '2024-04-06T13:00:00Z'],
      ['Africa/Monrovia', '1972-01-06T23:00:00Z'],
      ['America/St_Johns', '2024-11-03T02:00:00Z'],
    ];
    for (const [zone, around] of windows) {
      const t0 = Date.parse(around) - 3 * 3_600_000;
      for (let ms = t0; ms < t0 + 6 * 3_600_000; ms += 7 * 60_000 + 13_001) {
        expect(`${zone} ${formatDateTime(ms, zone)}`).toBe(`${zone} ${reference(ms, zone)}`);
      }
    }
  });

  it('reads wall times back to the instant they name in a zone', () => {
    const ms = Date.parse('2024-07-01T16:30:05Z');
    expect(formatDateTime(ms, 'America/New_York')).toBe('2024-07-01 12:30:05 -0400');
    expect(wallToInstant(Date.UTC(2024, 6, 1, 12, 30, 5), 'America/New_York')).toBe(ms);
  });
});
