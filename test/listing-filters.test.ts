import { describe, expect, it } from 'vitest';
import { BUREAU2_ELEMENTS } from '../src/contract/bureau.js';
import { formatDate } from '../src/contract/dates.js';
import { FILTERABLE_FIELDS } from '../src/contract/listing-fields.js';
import { issueTestToken, testMockApp } from './helpers/mock.js';
import type { Listing } from '../mock-server/world/world.js';

const START = Date.parse('2026-06-01T12:00:00Z');
const app = testMockApp({ seed: 11, listings: 400, frozen: true, start: START });
const world = app.ctx.world;
const token = issueTestToken(app);

async function search(query: Record<string, string>): Promise<{ status: number; body: any }> {
  const url = new URL('http://127.0.0.1/listingsvc/v2/listings');
  for (const [k, v] of Object.entries({ limit: '500', ...query })) url.searchParams.set(k, v);
  const res = await app.handle(new Request(url, { headers: { authorization: `bearer ${token}` } }));
  return { status: res.status, body: await res.json() };
}

/** The pool a field's filter is tested in: originated listings for loan fields, whole loans for their dates. */
function poolFor(field: string): { base: Record<string, string>; listings: Listing[] } {
  if (field === 'loan_origination_date') {
    const held = new Set(world.notes.filter((n) => n.accountId === 'alice-1').map((n) => n.listingNumber));
    return { base: { biddable: 'false' }, listings: world.listings.filter((l) => held.has(l.listing_number)) };
  }
  if (field === 'whole_loan_start_date' || field === 'whole_loan_end_date') {
    return { base: {}, listings: world.listings.filter((l) => l.listing_status === 2 && l.investment_typeid === 1) };
  }
  return { base: {}, listings: world.listings.filter((l) => l.listing_status === 2 && l.investment_typeid === 1) };
}

const raw = (l: Listing, f: string): any => (l as any)[f];

describe('every filterable catalogue field filters', () => {
  for (const field of FILTERABLE_FIELDS) {
    it(`${field.name} (${field.filter})`, async () => {
      const { base, listings } = poolFor(field.name);
      const values = listings.map((l) => raw(l, field.name)).filter((v) => v !== null && v !== undefined);
      expect(values.length, 'the pool has values to filter on').toBeGreaterThan(1);

      if (field.filter === 'boolean') {
        for (const b of [true, false]) {
          const expected = listings.filter((l) => raw(l, field.name) === b).length;
          const { status, body } = await search({ ...base, [field.name]: String(b).toUpperCase() });
          expect(status).toBe(200);
          expect(body.total_count).toBe(expected);
          expect(expected).toBeLessThan(listings.length);
          for (const item of body.result) expect(item[field.name]).toBe(b);
        }
        return;
      }

      if (field.name === 'listing_status') {
        // Each pool holds one status: the filter keeps the pool whole for it and empties it for the others.
        for (const [pool, status, other] of [
          [base, '2', '5,6'],
          [{ biddable: 'false' }, '6', '2'],
        ] as const) {
          const all = await search({ ...pool });
          const same = await search({ ...pool, listing_status: status });
          const none = await search({ ...pool, listing_status: other });
          expect(all.body.total_count).toBeGreaterThan(0);
          expect(same.body.total_count).toBe(all.body.total_count);
          expect(none.body.total_count).toBe(0);
        }
        return;
      }

      if (field.filter === 'multivalue') {
        const distinct = [...new Set(values)];
        const chosen = distinct.slice(0, 2).map(String);
        const expected = listings.filter((l) => chosen.includes(String(raw(l, field.name)))).length;
        const { status, body } = await search({ ...base, [field.name]: chosen.join(',') });
        expect(status).toBe(200);
        expect(body.total_count).toBe(expected);
        expect(expected).toBeGreaterThan(0);
        expect(expected).toBeLessThan(listings.length);
        for (const item of body.result) expect(chosen).toContain(String(item[field.name]));
        return;
      }

      // range: split the pool at a middle distinct value, once with _min and once with _max
      const distinct = [...new Set(values)].sort((a, b) => a - b);
      expect(distinct.length).toBeGreaterThanOrEqual(3);
      const pivot = distinct[Math.floor(distinct.length / 2)];
      const isDate = field.type === 'datetime' || field.type === 'date';
      const bound = isDate ? formatDate(pivot) : String(pivot);
      const dayStart = isDate ? Date.parse(`${bound}T00:00:00Z`) : pivot;
      const dayEnd = isDate ? dayStart + 86_400_000 - 1 : pivot;
      const expectedMin = listings.filter((l) => raw(l, field.name) !== null && raw(l, field.name) >= dayStart).length;
      const expectedMax = listings.filter((l) => raw(l, field.name) !== null && raw(l, field.name) <= dayEnd).length;
      const min = await search({ ...base, [`${field.name}_min`]: bound });
      const max = await search({ ...base, [`${field.name}_max`]: bound });
      expect(min.status).toBe(200);
      expect(max.status).toBe(200);
      expect(min.body.total_count).toBe(expectedMin);
      expect(max.body.total_count).toBe(expectedMax);
      expect(expectedMin).toBeLessThan(listings.length);
      expect(expectedMax).toBeLessThan(listings.length);
      expect(expectedMin).toBeGreaterThan(0);
    });
  }
});

describe('every indexed bureau2 element filters by its short name', () => {
  const pool = world.listings.filter((l) => l.listing_status === 2 && l.investment_typeid === 1);
  for (const e of BUREAU2_ELEMENTS) {
    it(`${e.short}_min / ${e.short}_max`, async () => {
      const sorted = pool.map((l) => l.bureau2[e.short]!).sort((a, b) => a - b);
      const pivot = sorted[Math.floor(sorted.length / 2)]!;
      const min = await search({ [`${e.short}_min`]: String(pivot) });
      const max = await search({ [`${e.short}_max`]: String(pivot) });
      expect(min.body.total_count).toBe(pool.filter((l) => l.bureau2[e.short]! >= pivot).length);
      expect(max.body.total_count).toBe(pool.filter((l) => l.bureau2[e.short]! <= pivot).length);
      for (const item of min.body.result) {
        expect(item.credit_bureau_values_bureau2_indexed[e.long]).toBeGreaterThanOrEqual(pivot);
      }
      expect(min.body.total_count).toBeLessThan(pool.length);
    });
  }
});

describe('date range filters', () => {
  it('accept both yyyy-MM-dd and yyyy-MM-dd HH:mm:ss, a date-only max meaning the end of that day', async () => {
    const pool = world.listings.filter((l) => l.listing_status === 2 && l.investment_typeid === 1);
    const day = formatDate(START - 3 * 86_400_000);
    const byDate = await search({ listing_creation_date_max: day });
    const byTime = await search({ listing_creation_date_max: `${day} 23:59:59` });
    const end = Date.parse(`${day}T23:59:59.999Z`);
    expect(byDate.body.total_count).toBe(pool.filter((l) => l.listing_creation_date <= end).length);
    // A bound to the second covers that whole second: 23:59:59 as _max is the same end as the date alone.
    expect(byTime.body.total_count).toBe(byDate.body.total_count);
  });

  it('read bounds in the timezone header', async () => {
    const pool = world.listings.filter((l) => l.listing_status === 2 && l.investment_typeid === 1);
    const url = new URL('http://127.0.0.1/listingsvc/v2/listings');
    const day = formatDate(START - 2 * 86_400_000);
    url.searchParams.set('listing_creation_date_min', day);
    const res = await app.handle(new Request(url, { headers: { authorization: `bearer ${token}`, timezone: 'America/New_York' } }));
    const body = await res.json();
    const startNy = Date.parse(`${day}T04:00:00Z`); // EDT is UTC-4 in May/June
    expect(body.total_count).toBe(pool.filter((l) => l.listing_creation_date >= startNy).length);
    expect(body.result[0].listing_creation_date).toMatch(/ -0400$/);
  });
});
