import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime, parseFilterDate } from '../src/contract/dates.js';
import type { Listing } from '../mock-server/world/world.js';
import { runMkt } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 300 });
});
afterAll(async () => {
  await mock.close();
});

type DateField = 'listing_creation_date' | 'listing_start_date';

/** Active fractional listings, the pool a plain search covers. */
const pool = (): Listing[] => mock.app.ctx.world.listings.filter((l) => l.listing_status === 2 && l.investment_typeid === 1);

/** Listing numbers a spawned `mkt listings search` returns with these flags. */
async function numbers(flags: string[], zone?: string): Promise<number[]> {
  const tz = zone ? ['--timezone', zone] : [];
  const r = await runMkt(['listings', 'search', '--all', '--limit', '500', '-o', 'json', ...tz, ...flags], { env: mock.env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as Array<{ listing_number: number }>).map((l) => l.listing_number);
}

describe('a date-time bound to the second covers that whole second, as shown', () => {
  for (const [field, zone] of [
    ['listing_creation_date', undefined],
    // listing_start_date: an active listing shows no listing_end_date since the 2025–26 answers.
    ['listing_start_date', 'America/New_York'],
  ] as Array<[DateField, string | undefined]>) {
    it(`${field}${zone ? ` in ${zone}` : ''}: _max and _min equal to a listing's displayed time include it`, async () => {
      // A stored time with milliseconds: shown to the second, so .000 as the _max would leave it out.
      const target = pool().find((l) => l[field] % 1000 >= 500)!;
      expect(target).toBeDefined();
      const shown = await runMkt(['listings', 'get', String(target.listing_number), '-o', 'json', ...(zone ? ['--timezone', zone] : [])], {
        env: mock.env,
      });
      const displayed = (JSON.parse(shown.stdout) as Record<DateField, string>)[field];
      expect(displayed).toBe(formatDateTime(target[field], zone));
      const bound = displayed.slice(0, 19); // yyyy-MM-dd HH:mm:ss, the offset left to the zone

      const second = Math.floor(target[field] / 1000) * 1000;
      const upTo = await numbers([`--${field}_max`, bound], zone);
      const from = await numbers([`--${field}_min`, bound], zone);
      const within = await numbers([`--${field}_min`, bound, `--${field}_max`, bound], zone);
      expect(upTo).toContain(target.listing_number);
      expect(from).toContain(target.listing_number);
      expect(within).toContain(target.listing_number);
      expect(upTo.length).toBe(pool().filter((l) => l[field] < second + 1000).length);
      expect(from.length).toBe(pool().filter((l) => l[field] >= second).length);
      expect(within.sort()).toEqual(
        pool()
          .filter((l) => formatDateTime(l[field], zone) === displayed)
          .map((l) => l.listing_number)
          .sort(),
      );
    });
  }
});

describe('filter date bounds', () => {
  it('read a second as .000 to .999, and a day as midnight to the last millisecond before the next midnight', () => {
    expect(parseFilterDate('2026-05-30 08:12:33', undefined, false)).toBe(Date.parse('2026-05-30T08:12:33.000Z'));
    expect(parseFilterDate('2026-05-30 08:12:33', undefined, true)).toBe(Date.parse('2026-05-30T08:12:33.999Z'));
    expect(parseFilterDate('2026-05-30 08:12:33', 'America/New_York', true)).toBe(Date.parse('2026-05-30T12:12:33.999Z'));
    expect(parseFilterDate('2026-05-30', undefined, true)).toBe(Date.parse('2026-05-30T23:59:59.999Z'));
  });

  it('end a day where the next one starts when the clocks change (23 and 25 hour days)', () => {
    const zone = 'America/New_York';
    expect(parseFilterDate('2026-03-08', zone, false)).toBe(Date.parse('2026-03-08T05:00:00Z'));
    expect(parseFilterDate('2026-03-08', zone, true)).toBe(Date.parse('2026-03-09T03:59:59.999Z'));
    expect(parseFilterDate('2026-11-01', zone, true)).toBe(Date.parse('2026-11-02T04:59:59.999Z'));
  });
});
