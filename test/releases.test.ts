/**
 * Release times (issue 41 item 3): new listings arrive in batches at the marketplace's times (noon and 6 pm
 * America/New_York by default, src/contract/releases.ts) or every hour ('steady'); a --state folder keeps the
 * schedule it was made with (one written before release times replays steady); `mkt` says when the next is.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatDateTime } from '../src/contract/dates.js';
import {
  DEFAULT_RELEASE_MINUTES,
  describeNextRelease,
  isReleaseHour,
  nextRelease,
  parseReleaseTimes,
  RELEASE_ZONE,
} from '../src/contract/releases.js';
import { seedWorld } from '../mock-server/seed/seed.js';
import { recipeFrom } from '../mock-server/world/recipe.js';
import { makeApp, START } from './engine-fixture.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The creation hours (in RELEASE_ZONE, `HH`) of the listings a world gained after `seeded` rows, and how many each. */
function arrivalHours(app: ReturnType<typeof makeApp>, seeded: number): Map<string, number> {
  const hours = new Map<string, number>();
  for (const l of app.ctx.world.listings.slice(seeded)) {
    const key = formatDateTime(l.listing_creation_date, RELEASE_ZONE).slice(0, 13);
    hours.set(key, (hours.get(key) ?? 0) + 1);
  }
  return hours;
}

describe('release times in the contract', () => {
  test('reads HH:00 lists and steady; anything else names what is wrong', () => {
    expect(parseReleaseTimes('12:00,18:00')).toEqual({ minutes: [720, 1080] });
    expect(parseReleaseTimes(' 18:00 , 9:00')).toEqual({ minutes: [540, 1080] });
    expect(parseReleaseTimes('steady')).toEqual({ minutes: null });
    for (const bad of ['', '12:30', '24:00', 'noon', '12:00,12:00', '12', '12:00;18:00'])
      expect(parseReleaseTimes(bad), bad).toMatchObject({ problem: expect.stringMatching(/./) });
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (text) => {
        const read = parseReleaseTimes(text);
        if ('problem' in read) return read.problem.length > 0;
        // What it takes is what it says: whole hours, each once, in order.
        return read.minutes === null || read.minutes.every((m, i, all) => m % 60 === 0 && m < 1440 && (i === 0 || all[i - 1]! < m));
      }),
    );
  });

  test('the next release is the first release hour at or after now, across a year, its weekends and DST changes', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2027-01-01T00:00:00Z') }), (now) => {
        const at = nextRelease(now)!;
        expect(at).toBeGreaterThanOrEqual(now);
        expect(isReleaseHour(at, DEFAULT_RELEASE_MINUTES)).toBe(true);
        // No release hour between now and it.
        for (let h = Math.ceil(now / HOUR) * HOUR; h < at; h += HOUR) expect(isReleaseHour(h, DEFAULT_RELEASE_MINUTES)).toBe(false);
      }),
      { numRuns: 300 },
    );
    // Noon Eastern is 17:00 UTC in winter, 16:00 UTC in summer.
    expect(new Date(nextRelease(Date.parse('2026-01-05T15:00:00Z'))!).toISOString()).toBe('2026-01-05T17:00:00.000Z');
    expect(new Date(nextRelease(Date.parse('2026-07-06T17:00:00Z'))!).toISOString()).toBe('2026-07-06T22:00:00.000Z');
    expect(describeNextRelease(Date.parse('2026-01-05T16:30:00Z'))).toBe(
      'next listings release 2026-01-05 12:00:00 -0500 (2026-01-05 17:00:00 +0000), in 30 min; releases at 12:00 and 18:00 America/New_York, Monday to Friday',
    );
  });
});

describe('the mock releases new listings at its release times', () => {
  test('over three virtual days: batches at noon and 6 pm Eastern only, about a day of arrivals each day', async () => {
    const app = makeApp({ listings: 600 });
    const seeded = app.ctx.world.listings.length;
    await app.ctx.engine.moveClock((now) => now + 3 * DAY);
    const hours = arrivalHours(app, seeded);
    // START is 2026-03-02 07:00 Eastern: three days hold the releases of the 2nd, 3rd and 4th.
    expect([...hours.keys()].sort()).toEqual([
      '2026-03-02 12',
      '2026-03-02 18',
      '2026-03-03 12',
      '2026-03-03 18',
      '2026-03-04 12',
      '2026-03-04 18',
    ]);
    // A week's arrivals (the seeded number over 14 days, 7 days) in 10 releases: 6 of them in these weekdays.
    const perRelease = ((600 / 14) * 7) / 10;
    const total = [...hours.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(6 * perRelease * 0.8);
    expect(total).toBeLessThan(6 * perRelease * 1.2);
    await app.close?.();
  });

  test('none on a weekend: Friday 6 pm, then Monday noon', async () => {
    // START is Monday 2026-03-02: the week's releases, the weekend's none.
    const app = makeApp({ listings: 600 });
    const seeded = app.ctx.world.listings.length;
    // A week and six hours: past Monday noon (daylight time from Sunday the 8th: noon is 16:00 UTC then).
    await app.ctx.engine.moveClock((now) => now + 7 * DAY + 6 * HOUR);
    const days = new Set([...arrivalHours(app, seeded).keys()].map((k) => k.slice(0, 10)));
    expect([...days].sort()).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-09']);
    expect(new Date(nextRelease(Date.parse('2026-03-06T23:30:00Z'))!).toISOString()).toBe('2026-03-09T16:00:00.000Z');
    await app.close?.();
  });

  test('a batch starts taking bids 20 to 180 seconds after its hour, as the marketplace posts it; steady arrivals 5 to 60 minutes after', async () => {
    const offsets = async (releases?: 'steady') => {
      const app = makeApp({ listings: 600, ...(releases ? { releases } : {}) });
      const seeded = app.ctx.world.listings.length;
      await app.ctx.engine.moveClock((now) => now + DAY);
      const got = app.ctx.world.listings.slice(seeded).map((l) => (l.listing_start_date - l.listing_creation_date) / 1000);
      await app.close?.();
      return got;
    };
    const batch = await offsets();
    expect(batch.length).toBeGreaterThan(50);
    expect(Math.min(...batch)).toBeGreaterThanOrEqual(20);
    expect(Math.max(...batch)).toBeLessThanOrEqual(180);
    expect(new Set(batch).size).toBeGreaterThan(20);
    const steady = await offsets('steady');
    expect(Math.min(...steady)).toBeGreaterThanOrEqual(5 * 60);
    expect(Math.max(...steady)).toBeLessThanOrEqual(60 * 60);
  });

  test("'steady' arrives every hour, as before release times", async () => {
    const app = makeApp({ listings: 600, releases: 'steady' });
    const seeded = app.ctx.world.listings.length;
    await app.ctx.engine.moveClock((now) => now + DAY);
    expect(arrivalHours(app, seeded).size).toBeGreaterThan(12);
    await app.close?.();
  });

  test('other times are taken', async () => {
    const app = makeApp({ listings: 600, releases: [9 * 60] });
    const seeded = app.ctx.world.listings.length;
    await app.ctx.engine.moveClock((now) => now + 2 * DAY);
    // START is Monday 07:00 Eastern: 09:00 that day and the next.
    expect([...arrivalHours(app, seeded).keys()]).toEqual(['2026-03-02 09', '2026-03-03 09']);
    await app.close?.();
  });

  test('a --state folder keeps its schedule across a restart; a recipe without one (before release times) replays steady', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'mkt-releases-')), 'world');
    const first = makeApp({ stateFile: dir, listings: 200, releases: [15 * 60] });
    await first.ctx.engine.moveClock((now) => now + DAY);
    const text = JSON.stringify(first.ctx.world.listings.map((l) => [l.listing_number, l.listing_creation_date]));
    await first.close?.();
    // Started again with other release times: the folder's own are the ones its world was made with.
    const again = makeApp({ stateFile: dir, listings: 200 });
    expect(JSON.stringify(again.ctx.world.listings.map((l) => [l.listing_number, l.listing_creation_date]))).toBe(text);
    expect(again.ctx.world.engine.releases).toEqual([15 * 60]);
    await again.close?.();
    // A base record written before release times has a recipe without them: seeded from it, the world arrives every hour.
    expect(seedWorld({ seed: 7, listings: 200, now: START }).engine.releases).toBeUndefined();
    expect(recipeFrom({ seed: 7, listings: 200 }).releases).toEqual(DEFAULT_RELEASE_MINUTES);
  });

  test('the start of the fixture is not itself a release hour (so the first batch is a move away)', () => {
    expect(isReleaseHour(START, DEFAULT_RELEASE_MINUTES)).toBe(false);
  });
});
